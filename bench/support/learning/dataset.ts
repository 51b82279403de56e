/**
 * Generator of the learning benchmark's dataset (bench/data/learning/dataset.json): people who
 * talk to an assistant over several sessions, in English and Chinese. Each person is described
 * once - what they tell (fact lines with phrasing variants, some contradicting an earlier line),
 * the small talk and questions to the assistant around it, and what they ask in a new session
 * later with the answers expected - and a seeded PRNG picks the phrasing and interleaves the
 * chatter, so the file is the same on every run.
 *
 * Run with `npx tsx bench/support/learning/dataset.ts` (writes the file; commit it).
 */
import { writeFileSync } from "node:fs";
import { prng } from "../../../test/support/prng.ts";
import { PEOPLE_EN } from "./people-en.ts";
import { PEOPLE_ZH } from "./people-zh.ts";
import type { PersonSpec } from "./person-spec.ts";

/** One line the user says. Fact lines carry the words a stored fact must hold to count as learned. */
export interface DatasetLine {
  id: string;
  text: string;
  kind: "fact" | "noise";
  /** Fact lines: every one of these must appear in the user's stored facts (case-insensitive). */
  keywords?: string[];
  /** Fact lines that contradict an earlier one: its id. */
  contradicts?: string;
}

export interface DatasetQuestion {
  text: string;
  /** The fact line the question is about. */
  about: string;
  /** Recalled when one of these appears in a top-3 fact. */
  expect: string[];
  /** For a contradiction: words of the older fact, which must not rank above the newer one. */
  stale?: string[];
}

export interface DatasetPerson {
  id: string;
  lang: "en" | "zh";
  sessions: { startedAt: number; lines: DatasetLine[] }[];
  questions: DatasetQuestion[];
  /** Questions about nothing the person said: recall should return nothing. */
  unrelated: string[];
}

const EN_NOISE = [
  "Can you recommend a good podcast about history?",
  "The weather is lovely today.",
  "Thanks, that's really helpful!",
  "lol that's funny",
  "Write me a haiku about autumn.",
  "What's a good way to learn touch typing?",
  "How long should I boil an egg?",
  "Ok, got it.",
  "Hmm, interesting.",
  "Could you summarize that in two sentences?",
  "I think you're right about that.",
  "Tell me a joke about programmers.",
  "What time zone is Singapore in?",
  "That sounds great, thank you!",
  "Any tips for staying focused in the afternoon?",
  "Good morning!",
  "I see what you mean.",
  "Explain recursion like I'm five.",
  "Is it going to rain this weekend in general?",
  "Haha, nice one.",
  "Give me three ideas for a birthday card message.",
  "Which is healthier, rice or quinoa?",
  "I'll think about it.",
  "Never mind, forget it.",
  "Translate 'good luck' into Spanish.",
  "What do you think about electric cars?",
  "I'm not sure about that.",
  "Can you make the list shorter?",
  "Cool, thanks!",
  "Why is the sky blue?",
  "Let's talk about something else.",
  "What is my hobby?",
  "I'd like a short answer please.",
  "Nice, I love that idea.",
];

const ZH_NOISE = [
  "你觉得哪本书适合入门？",
  "今天天气真不错。",
  "谢谢你的建议！",
  "哈哈哈，太好笑了",
  "帮我写一首关于秋天的诗。",
  "怎么才能早点睡着？",
  "好的，明白了。",
  "嗯嗯",
  "你能再解释一下吗？",
  "给我讲个笑话吧。",
  "推荐几部好看的电影。",
  "早上好！",
  "我觉得你说得有道理。",
  "番茄炒蛋怎么做比较好吃？",
  "这个问题有点难。",
  "周末去哪里玩比较好？",
  "请把刚才的内容总结一下。",
  "为什么天空是蓝色的？",
  "我再想想。",
  "太棒了，谢谢！",
  "翻译一下“早安”成英文。",
  "你知道明天会下雨吗？",
  "算了，换个话题吧。",
  "可以说得简单一点吗？",
  "有什么提高效率的小技巧？",
  "哦，原来是这样。",
  "我叫什么名字来着？",
  "晚安～",
  "咖啡和茶哪个更提神？",
  "我也是这么想的。",
];

const PEOPLE: PersonSpec[] = [...PEOPLE_EN, ...PEOPLE_ZH];

const DAY_MS = 86_400_000;
/** The first session of everyone starts here; later ones 10-20 days apart. */
const EPOCH = Date.UTC(2026, 2, 2, 9, 0, 0);

export function generateDataset(seed = 19): DatasetPerson[] {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  return PEOPLE.map((person, p) => {
    const noisePool = [...(person.lang === "en" ? EN_NOISE : ZH_NOISE)];
    let startedAt = EPOCH + p * DAY_MS;
    const sessions: DatasetPerson["sessions"] = [];
    for (let s = 0; s < person.sessions; s++) {
      const facts = person.facts.filter((f) => f.session === s);
      const lines: DatasetLine[] = facts.map((f) => ({
        id: f.id,
        text: pick(f.variants),
        kind: "fact",
        keywords: f.keywords,
        ...(f.contradicts ? { contradicts: f.contradicts } : {}),
      }));
      // As much chatter as facts (at least three lines), each line spoken once per person.
      const chatter = Math.max(3, facts.length);
      for (let n = 0; n < chatter && noisePool.length > 0; n++) {
        const text = noisePool.splice(Math.floor(random() * noisePool.length), 1)[0] as string;
        lines.splice(Math.floor(random() * (lines.length + 1)), 0, { id: `${person.id}-noise-${s}-${n}`, text, kind: "noise" });
      }
      // An earlier fact must stay before the line that contradicts it.
      lines.sort((a, b) => {
        const ia = facts.findIndex((f) => f.id === a.id);
        const ib = facts.findIndex((f) => f.id === b.id);
        return ia >= 0 && ib >= 0 ? ia - ib : 0;
      });
      sessions.push({ startedAt, lines });
      startedAt += (10 + Math.floor(random() * 10)) * DAY_MS;
    }
    const questions = person.facts.flatMap((f) => f.questions.map((q) => ({ ...q, about: f.id })));
    return { id: person.id, lang: person.lang, sessions, questions, unrelated: person.unrelated };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const people = generateDataset();
  const lines = people.flatMap((p) => p.sessions.flatMap((s) => s.lines));
  writeFileSync(new URL("../../data/learning/dataset.json", import.meta.url), `${JSON.stringify({ seed: 19, people }, null, 1)}\n`);
  console.log(
    `${people.length} people, ${lines.filter((l) => l.kind === "fact").length} fact lines (${lines.filter((l) => l.contradicts).length} contradictions), ` +
      `${lines.filter((l) => l.kind === "noise").length} chatter lines, ${people.reduce((n, p) => n + p.questions.length, 0)} questions, ${people.reduce((n, p) => n + p.unrelated.length, 0)} unrelated`,
  );
}
