// Type and importance of a learned fact, from what its clause is about.
import type { FactType } from "../../memory/model.ts";
import type { RelationKey, RelationKind } from "./relation-vocabulary.ts";

/**
 * The rule: a name, health, diet, home, origin, job, employer, age, study, relatives, pets and
 * tools are facts; likes and dislikes are preferences; a plan (future tense or a future date) is
 * context; a dated past event that fits none of these is an experience. Health comes first: it
 * matters most when forgotten.
 */
const KINDS: Record<RelationKind, { type: FactType; importance: number }> = {
  health: { type: "fact", importance: 0.9 },
  diet: { type: "fact", importance: 0.85 },
  name: { type: "fact", importance: 0.85 },
  home: { type: "fact", importance: 0.8 },
  origin: { type: "fact", importance: 0.75 },
  job: { type: "fact", importance: 0.8 },
  employer: { type: "fact", importance: 0.75 },
  schedule: { type: "fact", importance: 0.65 },
  age: { type: "fact", importance: 0.7 },
  study: { type: "fact", importance: 0.75 },
  relationship: { type: "fact", importance: 0.75 },
  likes: { type: "preference", importance: 0.7 },
  uses: { type: "fact", importance: 0.7 },
  plan: { type: "context", importance: 0.65 },
  other: { type: "fact", importance: 0.6 },
};

const LIKING = /\b(?:loves|likes|enjoys|prefers|hates|dislikes|favou?rite|is into|is a fan of)\b|喜欢|爱吃|爱喝|讨厌|偏好|最爱/u;

/** Type and importance of one canonical clause; a fact about someone else weighs a little less than one about the user. */
export function classify(
  text: string,
  key: RelationKey | null,
  extra: { dated: boolean; future: boolean; emphasized: boolean },
): { type: FactType; importance: number } {
  let base: { type: FactType; importance: number };
  if (key && !(extra.future && key.kind === "other")) base = KINDS[key.kind];
  else if (extra.future) base = KINDS.plan;
  else if (LIKING.test(text)) base = KINDS.likes;
  else if (extra.dated) base = { type: "experience", importance: 0.6 };
  else base = KINDS.other;
  let importance = base.importance;
  if (key && key.subject !== "user" && key.kind !== "health") importance -= 0.05;
  if (extra.emphasized) importance = Math.max(importance + 0.1, 0.8);
  return { type: base.type, importance: Math.round(Math.min(0.95, importance) * 100) / 100 };
}
