// English statements about the user and their world rewritten as third-person facts ("I love sailing" -> "The user loves sailing.").
import { resolveEnglishDates } from "./dates.ts";

/** One fact-bearing clause in canonical form, and whether the user stressed it ("remember ..."). */
export interface Clause {
  text: string;
  emphasized: boolean;
  /** A relative date was resolved in it. */
  dated: boolean;
  /** One of its dates lies ahead: a plan. */
  future: boolean;
}

// Every pattern below is matched against lower-cased text, without the `i` flag: case-insensitive
// Unicode patterns this large cost milliseconds to compile on a cold isolate.

/** Openers that carry nothing ("Hi!", "btw", "Oh,"); emphasis openers are noted, then dropped. */
const OPENER =
  /^(?:(?:hi|hello|hey|hiya|please|pls|honestly|frankly|to be honest|tbh|oh|ok|okay|well|so|btw|nice|cool|great|awesome|wow|perfect|sure|right|alright|thanks|thank you|by the way|also|actually|anyway|fyi|yeah|yes|yep|no|nope|haha+|lol|hmm+|um+|and|but|ah|oh well|just so you know|for the record|for context|fun fact)\b(?:\s+there)?[\s,!:;.\-–—]*)+/;
const EMPHASIS =
  /^(?:please\s+)?(?:remember|don't forget|do not forget|keep in mind|note|make a note|never forget)(?:\s+that)?\b[\s,:;.-]*/;

const QUESTION_START =
  /^(?:(?:can|could|would|will|do|does|did|is|are|was|were|should|shall|may|might|have|has)\s+(?:you|i|we|it|there|this|that|they|he|she|my|your)\b|(?:what|what's|how|how's|why|where|where's|who|who's|which|whose|whom)\b|when (?:is|are|do|does|did|will|should|can|was)\b|any (?:ideas|tips|suggestions|recommendations)\b)/;
const REQUEST =
  /^(?:please\s+|pls\s+)?(?:write|tell|give|show|help|make|create|explain|translate|summari[sz]e|list|find|suggest|recommend|draft|generate|compose|describe|check|fix|compare|plan|remind|send|book|let's|lets|let me know|let me (?:tell|ask|explain|think|see|check|share|describe|start|give|introduce|say)|let us|search|look up|calculate|convert|rewrite|continue|repeat|say|guess|imagine|pretend)\b|\b(?:can|could|would|will) you\b|^i(?:'d| would) (?:like|love) (?:you|a |an |to (?:know|ask|get|see|hear|try)|some)|^i (?:want|need) (?:you|help|to know|to ask|some (?:ideas|advice|help|tips)|a (?:poem|story|summary|list|recipe|joke|plan))|^i(?:'m| am) (?:looking for|wondering|curious)|^i (?:wonder|was wondering)\b/;
/** First-person lines that react to the conversation instead of telling something. */
const CHATTER =
  /^(?:i|we) (?:think|guess|see|agree|disagree|hope|suppose|mean|bet|wonder|understand|get it|got it|feel like|totally|appreciate|believe you)\b|^(?:i|we) (?:know|knew)(?:\s+(?:that|what|right|it|you|i|how|why|the feeling)\b|$)|^i(?:'m| am) (?:fine|good|great|okay|ok|alright|doing (?:well|good|great|fine|ok|okay)|well|back|here|sorry|glad|so glad|happy to hear|not sure|unsure|just (?:curious|wondering|kidding|asking|saying|checking)|kidding|joking|done|ready|lost|confused|bored|tired|exhausted|hungry|sleepy|excited to try|so excited)\b|^i(?:'m| am) (?:in|out|off now|all set)$|^(?:i|we) (?:don't|do not|didn't|can't|cannot) (?:know|think|get|understand|mind|care|remember|believe|agree|decide|wait)\b|^i(?:'ll| will) (?:try|check|look|think|consider|keep|do|give|let you know|get back|see|have a look|be right back|go with)\b|^i(?:'d| would) (?:say|rather not|guess|think)\b|^i (?:love|like|hate|appreciate|enjoyed|liked|loved) (?:it|that|this|them|those|these|your|the idea|the answer|the suggestion|that idea|this idea|you)\b|^(?:me too|same here|my bad|my pleasure|oh my|my god|my goodness|i'm (?:back|here))\b|^i (?:just )?(?:had|ate) (?:lunch|dinner|breakfast|a snack|coffee)\b|^i (?:have|got) (?:a|one|another|some) (?:question|request|idea for you)|^i have (?:no idea|no clue|a question)\b|^(?:that|this|it)(?:'s| is) (?:my|our) (?:favou?rite|fave)(?: [\w-]+)?$/;
const FIRST_PERSON = /\b(?:i|i'm|i've|i'll|i'd|my|me|we|we're|we've|we'll|our|us|mine|ours)\b/;

/** Verbs that can follow a subject; a clause "X verbs A and verbs B" splits there. */
const THIRD_VERBS =
  "is|has|was|lives|works|loves|likes|enjoys|hates|teaches|studies|plays|runs|owns|drives|speaks|moved|started|joined|left|got|became|adopted|bought|uses|writes|cooks|trains|volunteers|goes|went|lived|worked|became|graduated|plans|wants|needs|prefers|keeps|grew|comes|came";
const FIRST_VERBS =
  "am|have|was|live|work|love|like|enjoy|hate|teach|study|play|run|own|drive|speak|moved|started|joined|left|got|became|adopted|bought|use|write|cook|train|volunteer|go|went|lived|worked|graduated|plan|want|need|prefer|keep|grew|come|came|'m|'ve";
const SPLIT_SUBJECT = /,?\s+(?:and|but)\s+(?=(?:i|i'm|i've|i'd|i'll|we|we're|we've|my|our)\b)|;\s+|,\s+(?=(?:i|i'm|i've|we|my|our)\b)/g;
const SPLIT_VERB = new RegExp(
  `^(.+?)\\s+(?:(?:is|was|are|were|'s)\\s+.+?|(?:${THIRD_VERBS}|${FIRST_VERBS})\\b.+?),?\\s+and\\s+(?:also\\s+)?(?=(?:${THIRD_VERBS}|${FIRST_VERBS})\\b)`,
  "",
);

const ADVERBS = new Set(
  "always usually also just still often never sometimes now currently recently mostly actually absolutely totally only even already finally both all really generally normally rarely seldom definitely mainly primarily truly officially".split(
    " ",
  ),
);
const MODALS = new Set("will would can could should might must may shall cannot can't won't wouldn't couldn't shouldn't".split(" "));
const IRREGULAR_PAST = new Set(
  "was were had did went got made took came saw bought sold left began became found gave grew knew met ran sat spent taught thought told wrote drove flew fell felt kept lost paid put read said sent set stood swam understood won broke chose forgot hid hung led lent quit rode rose shut slept spoke stole struck wore".split(
    " ",
  ),
);
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

/** Third person singular of a present-tense verb ("watch" -> "watches"); past and modal forms stay. */
function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular = PRESENT_IRREGULAR[lower];
  if (irregular) return irregular;
  if (MODALS.has(lower) || IRREGULAR_PAST.has(lower) || /ed$/.test(lower) || !/^[a-z]+$/.test(lower)) return verb;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/**
 * First person rewritten as "the user": "I"/"we" take a singular verb (after adverbs), "my"/"our"
 * become "the user's", "me"/"us" "the user". "We" is the user with their family or team: the
 * service keeps facts about one user.
 */
function toThirdPerson(clause: string): string {
  const tokens = clause.split(/(\s+|(?=[,.;:!])|(?='(?:m|ve|ll|d|re)\b))/).filter((t) => t !== "" && t !== undefined);
  const out: string[] = [];
  let pendingVerb = false;
  for (const token of tokens) {
    const lower = token.toLowerCase();
    if (/^\s+$/.test(token)) {
      out.push(token);
      continue;
    }
    if (pendingVerb) {
      if (ADVERBS.has(lower)) {
        out.push(token);
        continue;
      }
      pendingVerb = false;
      if (/^'(?:m|ve|ll|d|re)$/.test(lower)) {
        out.push(" ", thirdPerson(lower));
        continue;
      }
      if (/^[a-z']+$/i.test(token)) {
        out.push(thirdPerson(token));
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

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const finish = (s: string): string => `${capitalize(s.replace(/[\s,;:.!…]+$/u, ""))}.`;

const NAME = "([A-Z][A-Za-zÀ-ÖØ-öø-ÿ'-]+(?:\\s+[A-Z][A-Za-zÀ-ÖØ-öø-ÿ'-]+)?)";
const SELF_NAME = new RegExp(
  `^(?:my name is|my name's|i am|i'm|call me|people call me|everyone calls me|you can call me|this is)\\s+${NAME}(?=\\s*(?:$|[,.!;]|and\\b))`,
);

/** Capitalized words after "I'm" that say what, not who, the user is. */
const NOT_A_NAME =
  /^(?:american|british|canadian|chinese|english|french|german|italian|japanese|korean|spanish|dutch|indian|australian|irish|scottish|welsh|mexican|brazilian|portuguese|russian|polish|swedish|norwegian|danish|finnish|greek|turkish|vietnamese|thai|muslim|christian|jewish|catholic|buddhist|hindu|vegan|vegetarian|ok|okay|fine|good|here|back|sorry|not|so|very|really|just)\b/;

/** Whether the clause is a question, a request or chatter rather than a statement about the user's world. */
export function isNotAStatement(sentence: string): boolean {
  const s = sentence.trim().toLowerCase();
  return /[?？]\s*$/.test(s) || QUESTION_START.test(s) || REQUEST.test(s) || CHATTER.test(s) || !FIRST_PERSON.test(s);
}

/** `text` cut where `pattern` (global) matches its lower-cased form; the pieces keep their case. */
function splitLowered(text: string, pattern: RegExp): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const m of text.toLowerCase().matchAll(pattern)) {
    pieces.push(text.slice(from, m.index));
    from = m.index + m[0].length;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** `text` without what `pattern` matches at the start of its lower-cased form. */
function stripLowered(text: string, pattern: RegExp): { text: string; stripped: boolean } {
  const m = pattern.exec(text.toLowerCase());
  return m && m.index === 0 && m[0].length > 0 ? { text: text.slice(m[0].length), stripped: true } : { text, stripped: false };
}

/** Splits "My name is Ada and I love sailing" and "Karim is a paramedic and works nights" into clauses. */
function splitClauses(sentence: string): string[] {
  const pieces = splitLowered(sentence, SPLIT_SUBJECT)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  // "In 2019, I moved to Rome": a piece without a speaker belongs to the next one.
  const parts: string[] = [];
  let carry = "";
  for (const piece of pieces) {
    if (!FIRST_PERSON.test(piece.toLowerCase()) && parts.length === 0) carry = `${carry}${piece}, `;
    else {
      parts.push(`${carry}${piece}`);
      carry = "";
    }
  }
  if (carry) parts.push(carry.replace(/,\s*$/, ""));
  const out: string[] = [];
  for (const part of parts) {
    let rest = part;
    for (let guard = 0; guard < 4; guard++) {
      const m = SPLIT_VERB.exec(rest.toLowerCase());
      if (!m || m[1] === undefined) break;
      const subject = rest.slice(0, m[1].length);
      const head = rest.slice(0, m[0].length).replace(/,?\s+and\s+(?:also\s+)?$/i, "");
      out.push(head);
      rest = `${subject} ${rest.slice(m[0].length)}`;
    }
    out.push(rest);
  }
  return out;
}

/** "The user moved to Berlin in November 2026." says where the user lives: "The user lives in Berlin (moved there in November 2026)." */
function homeOf(text: string): string {
  const m = /^The user (?:has )?(?:just |recently |finally )?moved to ((?:[A-Z][A-Za-zÀ-ÖØ-öø-ÿ'-]+ ?){1,3})(.*)\.$/.exec(text);
  if (!m?.[1]) return text;
  const when = (m[2] ?? "").trim();
  return `The user lives in ${m[1].trim()}${when ? ` (moved there ${when.replace(/^,\s*/, "")})` : ""}.`;
}

/** Canonical third-person clauses of one English sentence; none when it tells nothing about the user. */
export function englishClauses(sentence: string, ts: number): Clause[] {
  let s = sentence
    .normalize("NFKC")
    .replace(/[\u2018\u2019]/gu, "'")
    .replace(/\s+/g, " ")
    .trim();
  let emphasized = false;
  for (let guard = 0; guard < 3; guard++) {
    const before = s;
    s = stripLowered(s, OPENER).text;
    const emphasis = stripLowered(s, EMPHASIS);
    if (emphasis.stripped) emphasized = true;
    s = emphasis.text;
    if (s === before) break;
  }
  s = s.replace(/\s*[!.…]+$/, "").trim();
  if (s.length < 4 || isNotAStatement(s)) return [];
  const clauses: Clause[] = [];
  for (const raw of splitClauses(s)) {
    const part = raw.replace(/^(?:and|but|also|so)\s+/i, "").trim();
    const lower = part.toLowerCase();
    if (part.length < 4 || !FIRST_PERSON.test(lower) || CHATTER.test(lower) || REQUEST.test(lower)) continue;
    // The opener is matched without case ("I'm", "My name is"), the name with it.
    const lowered = part.charAt(0).toLowerCase() + part.slice(1);
    const nameMatch = SELF_NAME.exec(lowered);
    const name = nameMatch?.[1];
    if (name && !NOT_A_NAME.test(name.toLowerCase())) {
      clauses.push({ text: `The user's name is ${name}.`, emphasized, dated: false, future: false });
      const after = part
        .slice(nameMatch?.[0].length ?? part.length)
        .replace(/^\s*,\s*/, "")
        .trim();
      // "I'm Sam, a nurse from Leeds": the apposition says what the user is.
      if (/^(?:a|an)\s+\S+/i.test(after)) clauses.push({ text: finish(`The user is ${after}`), emphasized, dated: false, future: false });
      continue;
    }
    const dates = resolveEnglishDates(part, ts);
    clauses.push({ text: homeOf(finish(toThirdPerson(dates.text))), emphasized, dated: dates.dated, future: dates.future });
  }
  return clauses;
}
