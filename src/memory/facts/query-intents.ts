/**
 * Which relation a question about the user asks for, and the words facts of that relation are
 * written with. A question ("What do I do for a living?") and the fact that answers it ("I work as
 * a UX designer", "The user works as a nurse") often share no word, and a sentence model may score
 * them below the recall gate; a wording made of the relation's own words ("works as job
 * profession") lets BM25 and the dense part meet the fact.
 *
 * The relations are those the offline learner keys facts by (`RelationKind` in
 * src/llm/offline-learner/relation-key.ts), and each wording is taken from the verbs and nouns its
 * rules read a fact of that relation from; the relative groups come from its table of relatives.
 * A cue only fires on a question about the user (my / I / we / "the user"), so a general question
 * ("How do I center a div?") picks up no intent and recall still abstains on it.
 */

/** One relation: the question forms that ask for it, and the words its facts are written with. */
export interface QueryIntent {
  /** The learner's relation kind, or a group of its relatives ("relative:spouse"). */
  relation: string;
  /** Matches a lower-cased English question about the user that asks for this relation. */
  cue: RegExp;
  /** Words facts of this relation are written with (the learner's own wording). */
  wording: string;
}

/** "my", "our", "the user's", optionally followed by a relative's possessive ("my spouse's"). */
const MY = "(?:my|our|the user's)(?: [a-z-]+(?:'s|s'))?";
/** The user as the subject of a question ("do I", "are we", "does the user"). */
const ME = "(?:i|we|the user)";
const re = (source: string): RegExp => new RegExp(source, "u");

/** The cue table; an entry's wording comes from the learner's rule for that relation kind. */
export const QUERY_INTENTS: readonly QueryIntent[] = [
  { relation: "name", cue: re(String.raw`\b${MY} (?:full )?name\b|\bwhat (?:am i|are we) called\b`), wording: "name is called named" },
  {
    relation: "health",
    cue: re(
      String.raw`\b(?:${MY} |${ME} (?:have|had|has) (?:a(?:n|ny)? )?)(?:allerg\w*|intoleran\w*|health|medical|illness|disease|conditions?|diagnosis|surgery|operation|injury)\b|\b(?:am|are|is) ${ME} (?:allergic|intolerant)\b|\bwhat (?:am|are|is) ${ME} allergic\b`,
    ),
    wording: "allergic allergy intolerant diabetes asthma migraine surgery injured",
  },
  {
    relation: "diet",
    cue: re(String.raw`\b${MY} diet\b|\b(?:do|does|can|should) ${ME} eat\b|\b(?:am|are|is) ${ME} (?:vegetarian|vegan)\b`),
    wording: "vegetarian vegan eat meat gluten-free lactose halal kosher",
  },
  {
    relation: "home",
    cue: re(
      String.raw`\bwhere (?:do|does|did) ${ME} live\b|\bwhere (?:am i|are we|is the user) (?:based|living|staying)\b|\b${MY} (?:home|house|flat|apartment|address)\b`,
    ),
    wording: "lives in living based moved to",
  },
  {
    relation: "origin",
    cue: re(
      String.raw`\bwhere (?:am i|are we|is the user|(?:is|are) ${MY} [a-z]+) (?:originally )?from\b|\bwhere (?:do|does) ${ME} come from\b|\bwhere (?:was|were) ${ME} born\b|\bwhere did ${ME} grow up\b|\b${MY} (?:hometown|roots)\b`,
    ),
    wording: "is from comes from grew up born in",
  },
  {
    relation: "job",
    cue: re(
      String.raw`\b${MY} (?:job|profession|occupation|career|line of work)\b|\bwhat (?:do|does) (?:${ME}|${MY} [a-z]+) do for (?:a )?living\b|\bwhat (?:do|does) ${ME} do for work\b`,
    ),
    wording: "works as job profession became teaches",
  },
  {
    relation: "employer",
    cue: re(
      String.raw`\bwhere (?:do|does) (?:${ME}|${MY} [a-z]+) work\b|\bwho (?:do|does) ${ME} work for\b|\b${MY} (?:employer|workplace)\b`,
    ),
    wording: "works at works for joined employed",
  },
  {
    relation: "schedule",
    cue: re(String.raw`\b${MY} (?:shifts?|work schedule|working hours)\b|\bwhen (?:do|does) ${ME} work\b`),
    wording: "works nights weekends shifts from home remotely part-time",
  },
  {
    relation: "age",
    cue: re(String.raw`\bhow old (?:am i|are we|is the user|(?:is|are) ${MY} [a-z]+)\b|\b${MY} age\b`),
    wording: "years old turned",
  },
  {
    relation: "study",
    cue: re(
      String.raw`\bwhat did ${ME} (?:study|major in)\b|\b${MY} (?:degree|major|studies|education)\b|\bwhere did ${ME} (?:study|go to (?:college|university|school))\b`,
    ),
    wording: "studies studied studying majoring degree",
  },
  {
    relation: "likes",
    cue: re(
      String.raw`\b${MY} (?:favou?rite|hobby|hobbies)\b|\bwhat (?:\w+ )?(?:do|does) ${ME} (?:like|love|enjoy|prefer|hate|dislike)\b|\b(?:do|does) ${ME} (?:like|love|enjoy|prefer)\b`,
    ),
    wording: "loves likes enjoys prefers favourite fan of hates",
  },
  {
    relation: "uses",
    cue: re(String.raw`\bwhat (?:\w+ )?(?:do|does) ${ME} use\b|\b${MY} (?:tools?|tech stack)\b`),
    wording: "uses using switched to relies on",
  },
  {
    relation: "plan",
    cue: re(
      String.raw`\b(?:am|are|is) ${ME} (?:going|planning|travell?ing|flying|moving)\b|\b${MY} (?:plans?|upcoming|next trip|trip|vacation|holiday)\b|\bwhat (?:do|does) ${ME} plan\b`,
    ),
    wording: "plans to is going to will visit trip",
  },
  {
    relation: "relative:spouse",
    cue: re(String.raw`\b(?:my|our|the user's) (?:spouse|partner|husband|wife)\b`),
    wording: "husband wife partner",
  },
  { relation: "relative:sibling", cue: re(String.raw`\b(?:my|our|the user's) siblings?\b`), wording: "sister brother" },
  { relation: "relative:parent", cue: re(String.raw`\b(?:my|our|the user's) parents?\b`), wording: "mother father mom dad" },
  { relation: "relative:child", cue: re(String.raw`\b(?:my|our|the user's) (?:kids?|children|child)\b`), wording: "son daughter" },
  {
    relation: "relative:pet",
    cue: re(String.raw`\b(?:my|our|the user's) (?:pets?|animals?)\b|\bwhat pets? (?:do|does) ${ME}\b`),
    wording: "dog cat rabbit pet",
  },
];

/** The intents a query asks for, in table order; none for a question that is not about the user. */
export function queryIntents(query: string): QueryIntent[] {
  const text = query.normalize("NFKC").toLowerCase().replace(/[’`]/gu, "'").replace(/\s+/gu, " ");
  return QUERY_INTENTS.filter((intent) => intent.cue.test(text));
}

/**
 * The extra wording recall searches for a query that asks for a known relation: the query followed
 * by the relation's fact words (several intents' words in table order, each word once); null when
 * it asks for none.
 */
export function intentQueryText(query: string): string | null {
  const intents = queryIntents(query);
  if (intents.length === 0) return null;
  const words = [...new Set(intents.flatMap((intent) => intent.wording.split(" ")))];
  return `${query.trim()} ${words.join(" ")}`;
}
