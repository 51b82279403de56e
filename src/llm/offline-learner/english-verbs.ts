/** @module English verbs in the third person: "I love sailing" -> "loves sailing", adverbs skipped, past forms left alone, a list of verbs agreeing with "the user". */
const ADVERBS = new Set(
  "always usually also just still often never sometimes now currently recently mostly actually absolutely totally only even already finally both all really generally normally rarely seldom definitely mainly primarily truly officially first last then once ever soon later again too kinda sorta almost nearly hardly barely since therefore".split(
    " ",
  ),
);
/** Words in -ly that are verbs, not adverbs ("I apply", "we rely"). */
const LY_VERBS = new Set("apply reply rely supply comply multiply imply fly ally bully rally tally sully dally".split(" "));
/** An adverb between a subject and its verb ("I first watched", "we last chatted", "I seriously admire"). */
const isAdverb = (word: string): boolean => ADVERBS.has(word) || (/^[a-z]{3,}ly$/.test(word) && !LY_VERBS.has(word));
const MODALS = new Set(
  "will would can could should might must may shall cannot can't won't wouldn't couldn't shouldn't gotta gonna wanna ought better".split(
    " ",
  ),
);
/** Past forms that are not verb + "ed": left as they are after "the user". */
const IRREGULAR_PAST = new Set(
  "was were had did went got made took came saw bought sold left began became found gave grew knew met ran sat spent taught thought told wrote drove flew fell felt kept lost paid said sent stood swam understood won broke chose forgot hid hung led lent rode rose slept spoke stole struck wore heard held fought brought caught sought built bent lit laid lay dealt dug drew drank ate forgave froze fed fled bled bred bit blew bound bore beat clung crept dove dreamt dwelt flung forbade forsook ground knelt leapt learnt meant mistook overcame rang sang sank shook shone shrank slid slung smelt sped spelt spilt spat sprang stank stung stuck strode strove swept swore swung threw tore trod woke wove wept wound withdrew wrung awoke arose snuck sewn shown seen done gone been taken given written driven eaten fallen forgotten chosen spoken stolen broken frozen hidden ridden risen grown known thrown flown drawn worn torn sworn".split(
    " ",
  ),
);
/** Verbs whose past is their present ("I read", "I put"): present only in a habit ("I read every night"). */
const SAME_PAST = new Set("read put set hit cut cost let quit shut hurt bet bid fit spread split burst cast shed thrust upset".split(" "));
/** Present forms that end in "ed" ("I need", "we feed"). */
const ED_PRESENT = new Set("need feed bleed breed speed heed seed weed proceed exceed succeed embed shred".split(" "));
/** Prefixes a past form may carry ("retook", "overcame", "understood"). */
const PAST_PREFIX = /^(?:re|over|under|mis|out|with|fore|up|be)(?=[a-z]{3,}$)/;
const HABITUAL =
  /\b(?:every|each|always|usually|often|regularly|daily|weekly|monthly|sometimes|never|twice|once a|times a|all day|most days|on weekends|at weekends|nights)\b/;
const PRESENT_IRREGULAR: Record<string, string> = {
  am: "is",
  are: "is",
  "'m": "is",
  "'re": "is",
  have: "has",
  "'ve": "has",
  do: "does",
  go: "goes",
  were: "was",
  "don't": "doesn't",
  "haven't": "hasn't",
  "aren't": "isn't",
  "'ll": "will",
  "'d": "would",
};

const isPast = (word: string): boolean =>
  IRREGULAR_PAST.has(word) || IRREGULAR_PAST.has(word.replace(PAST_PREFIX, "")) || (/ed$/.test(word) && !ED_PRESENT.has(word));

/**
 * Third person singular of the verb after "I"/"we" ("watch" -> "watches"); past, modal and
 * unknown forms stay. `habitual`: the clause says how often, so "read", "put", ... are present.
 */
function thirdPerson(verb: string, habitual: boolean): string {
  const lower = verb.toLowerCase();
  const irregular = PRESENT_IRREGULAR[lower];
  if (irregular) return irregular;
  if (SAME_PAST.has(lower) && !habitual) return verb;
  if (MODALS.has(lower) || isPast(lower) || !/^[a-z]+$/.test(lower)) return verb;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/**
 * First person rewritten as "the user": "I"/"we" take a singular verb (after adverbs), "my"/"our"
 * become "the user's", "me"/"us" "the user". "We" is the user with their family or team: the
 * service keeps facts about one user. "I and Max" is a plural subject: its verb stays. "I'd" is
 * "had" before a past participle ("I'd been"), else "would".
 */
export function toThirdPerson(clause: string): string {
  const tokens = clause.split(/(\s+|(?=[,.;:!])|(?='(?:m|ve|ll|d|re)\b))/).filter((t) => t !== "" && t !== undefined);
  const habitual = HABITUAL.test(clause.toLowerCase());
  const out: string[] = [];
  let pendingVerb = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const lower = token.toLowerCase();
    if (/^\s+$/.test(token)) {
      out.push(token);
      continue;
    }
    if (pendingVerb) {
      if (lower === "and") {
        pendingVerb = false;
        out.push(token);
        continue;
      }
      if (isAdverb(lower)) {
        out.push(token);
        continue;
      }
      pendingVerb = false;
      if (lower === "'d") {
        const next =
          tokens
            .slice(i + 1)
            .find((t) => !/^\s+$/.test(t) && !isAdverb(t.toLowerCase()))
            ?.toLowerCase() ?? "";
        out.push(" ", next === "been" || (next !== "" && isPast(next)) ? "had" : "would");
        continue;
      }
      if (/^'(?:m|ve|ll|re)$/.test(lower)) {
        out.push(" ", thirdPerson(lower, habitual));
        continue;
      }
      if (/^[a-z']+$/i.test(token)) {
        out.push(thirdPerson(token, habitual));
        continue;
      }
    }
    if (lower === "i" || lower === "we") {
      out.push("the user");
      pendingVerb = true;
    } else if (lower === "my" || lower === "our") out.push("the user's");
    else if (lower === "me" || (lower === "us" && token !== "US")) out.push("the user");
    else if (lower === "mine" || lower === "ours") out.push("the user's");
    else if (lower === "myself" || lower === "ourselves") out.push("themselves");
    else out.push(token);
  }
  return out.join("").replace(/\s+/g, " ").trim();
}

/** Verbs that follow the first one in a list ("watches movies, hike, and have game nights"). */
const COORDINATED =
  /(,\s+(?:and\s+)?|\s+and\s+)(hike|have|go|play|read|watch|cook|bake|run|swim|train|work|write|paint|draw|sing|dance|travel|study|teach|practice|walk|jog|cycle|ski|surf|climb|make|take|do|spend|visit|help|volunteer|garden|knit|sew|fish|camp|meditate|shop|eat|drink|listen|stretch|skate|ride|drive|learn)(?=[\s,.]|$)/g;

/** The verbs after the first in a list take its person: "the user watches movies, hikes, and has game nights". */
export function inflectCoordinated(text: string): string {
  if (!/^the user (?!and\b)/.test(text)) return text;
  // "... when the user was younger but haven't in a while": an auxiliary after "but"/"and" shares the subject.
  text = text.replace(
    /(\sbut\s|\sand\s(?=(?:haven't|don't|aren't)\b))(haven't|have|don't|do|aren't|are|am)\b(?! to\b)/g,
    (_m, joint: string, aux: string) => `${joint}${thirdPerson(aux, true)}`,
  );
  const first = /^the user (?:(?:[a-z]+ly|just|also|still|often|always|usually|sometimes|never) )*([a-z]+)\b/.exec(text);
  const verb = first?.[1] ?? "";
  if (!/[^s]s$/.test(verb) || /^(?:is|has|was|does|loves|likes|enjoys|prefers|hates|adores|dislikes)$/.test(verb)) return text;
  return text.replace(COORDINATED, (_m, joint: string, base: string) => `${joint}${thirdPerson(base, true)}`);
}
