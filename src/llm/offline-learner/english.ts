// English statements about the user and their world rewritten as third-person facts ("I love sailing" -> "The user loves sailing.").
import { resolveEnglishDates } from "./dates.ts";
import { inflectCoordinated, toThirdPerson } from "./english-verbs.ts";
import { englishFactKind, englishNoise } from "./precision.ts";

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
  /^(?:(?:hi|hello|hey|hiya|please|pls|honestly|frankly|to be honest|tbh|oh|ok|okay|well|so|btw|nice|cool|great|awesome|wow|perfect|sure|right|alright|thanks|thank you|by the way|also|actually|anyway|fyi|yeah|yes|yep|no|nope|haha+|lol|hmm+|um+|and|but|ah|oh well|just so you know|for the record|for context|fun fact|on another note|in other news|speaking of which|anyways)\b(?:\s+there)?[\s,!:;.\-–—]*)+/;
/** Interjections and acknowledgements that open a sentence when a comma or "!" follows them. */
const INTERJECTION =
  /^(?:got it|gotcha|i see|sounds good|sounds great|sounds fun|no worries|no problem|for sure|totally|definitely|exactly|absolutely|of course|true|indeed|congrats|congratulations|cheers|aww*|whoa|woah|omg|dude|man|yay|phew|gosh|ooh|oh man|oh wow|amazing|lovely|sweet|yup|yea|sorry|thx|ty|good luck|good for you|agreed|same|me too|wait|look|listen|see|guess what|i almost forgot|before i forget|i forgot to mention|glad you asked)\s*[,!.:;\-–—]+\s*/;
/** A label before the sentence ("Round 3: ...", "Update: ..."). */
const LABEL = /^[a-z0-9#][a-z0-9# ]{0,18}:\s+/;
/** The other person's name, said to them ("Nate, ..."; "Thanks Maria, ..." once "Thanks" is gone). */
const VOCATIVE = /^[A-Z][a-z]+(?: [A-Z][a-z]+)?\s*[,!]\s+/;
/** Capitalized words before a comma that are not names: times ("Yesterday, I ..."), days, months. */
const NOT_VOCATIVE =
  /^(?:yesterday|today|tonight|tomorrow|now|then|later|earlier|sometimes|afterwards|meanwhile|once|again|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|[a-z]+ly)\b/;
const EMPHASIS =
  /^(?:please\s+)?(?:remember|don't forget|do not forget|keep in mind|note|make a note|never forget)(?:\s+that)?\b[\s,:;.-]*/;

const QUESTION_START =
  /^(?:(?:can|could|would|will|do|does|did|is|are|was|were|should|shall|may|might|have|has)\s+(?:you|i|we|it|there|this|that|they|he|she|my|your)\b|(?:what|what's|how|how's|why|where|where's|who|who's|which|whose|whom)\b|when (?:is|are|do|does|did|will|should|can|was)\b|any (?:ideas|tips|suggestions|recommendations)\b)/;
const REQUEST =
  /^(?:please\s+|pls\s+)?(?:write|tell|give|show|help|make|create|explain|translate|summari[sz]e|list|find|suggest|recommend|draft|generate|compose|describe|check|fix|compare|plan|remind|send|book|let's|lets|let me know|let me (?:tell|ask|explain|think|see|check|share|describe|start|give|introduce|say)|let us|search|look up|calculate|convert|rewrite|continue|repeat|say|guess|imagine|pretend)\b|\b(?:can|could|would|will) you\b|^i(?:'d| would) (?:like|love) (?:you|a |an |to (?:know|ask|get|see|hear|try)|some)|^i (?:want|need) (?:you|help|to know|to ask|some (?:ideas|advice|help|tips)|a (?:poem|story|summary|list|recipe|joke|plan))|^i(?:'m| am) (?:looking for|wondering|curious)|^i (?:wonder|was wondering)\b/;
/** First-person lines that react to the conversation instead of telling something. */
const CHATTER =
  /^(?:i|we) (?:think|guess|see|agree|disagree|hope|suppose|mean|bet|wonder|understand|get it|got it|feel like|totally|appreciate|believe you)\b|^(?:i|we) (?:know|knew)(?:\s+(?:that|what|right|it|you|i|how|why|the feeling)\b|$)|^i(?:'m| am) (?:fine|good|great|okay|ok|alright|doing (?:well|good|great|fine|ok|okay)|well|back|here|sorry|glad|so glad|happy to hear|not sure|unsure|just (?:curious|wondering|kidding|asking|saying|checking)|kidding|joking|done|ready|lost|confused|bored|tired|exhausted|hungry|sleepy|excited to try|so excited)\b(?! at\b)|^i(?:'m| am) (?:in|out|off now|all set)$|^(?:i|we) (?:don't|do not|didn't|can't|cannot) (?:know|think|get|understand|mind|care|remember|believe|agree|decide|wait)\b|^i(?:'ll| will) (?:try|check|look|think|consider|keep|do|give|let you know|get back|see|have a look|be right back|go with)\b|^i(?:'d| would) (?:say|rather not|guess|think)\b|^i (?:love|like|hate|appreciate|enjoyed|liked|loved) (?:it|that|this|them|those|these|your|the idea|the answer|the suggestion|that idea|this idea|you)\b|^(?:me too|same here|my bad|my pleasure|oh my|my god|my goodness|i'm (?:back|here))\b|^i (?:just )?(?:had|ate) (?:lunch|dinner|breakfast|a snack|coffee)\b|^i (?:have|got) (?:a|one|another|some) (?:question|request|idea for you)|^i have (?:no idea|no clue|a question)\b|^(?:that|this|it)(?:'s| is) (?:my|our) (?:favou?rite|fave)(?: [\w-]+)?$/;
const FIRST_PERSON = /\b(?:i|i'm|i've|i'll|i'd|my|me|we|we're|we've|we'll|our|us|mine|ours)\b/;

/** Verbs that can follow a subject; a clause "X verbs A and verbs B" splits there. */
const THIRD_VERBS =
  "is|has|was|lives|works|loves|likes|enjoys|hates|teaches|studies|plays|runs|owns|drives|speaks|moved|started|joined|left|got|became|adopted|bought|uses|writes|cooks|trains|volunteers|goes|went|lived|worked|became|graduated|plans|wants|needs|prefers|keeps|grew|comes|came";
const FIRST_VERBS =
  "am|have|was|live|work|love|like|enjoy|hate|teach|study|play|run|own|drive|speak|moved|started|joined|left|got|became|adopted|bought|use|write|cook|train|volunteer|go|went|lived|worked|graduated|plan|want|need|prefer|keep|grew|come|came|'m|'ve";
/** Where a new clause with its own subject starts: "and/but/so/because I ...", ", my ...", ";", and a spaced dash. */
const SPLIT_SUBJECT =
  /,?\s+(?:and|but|so|because|'cause|cause|plus|though|although)\s+(?=(?:i|i'm|i've|i'd|i'll|we|we're|we've|my|our)\b)|;\s+|,\s+(?=(?:i|i'm|i've|we|my|our)\b)|\s+[-–—]+\s+|\s*[–—]\s*|(?<=[a-z])-\s+|,?\s+(?:and|but)\s+(?=(?:it|that|this|they|he|she)(?:'s| (?:is|was|were|are|has|had|felt|feels|made|makes|looks|looked|seems|seemed|brings|brought|gave|gives)\b))|,\s+(?=(?:it|that|this|they|he|she|the [a-z]+|which)(?:'s| (?:is|was|were|are|has|had|felt|feels|made|makes|looks|looked|seems|seemed|brings|brought|gave|gives)\b))|,\s+(?=(?:check|look|see|guess|trust me|believe me|thank goodness|thank god)\b)/g;
/** A piece with no speaker that only says when or where ("In 2019, I moved ..."): it belongs to the next one. */
const LEAD_PIECE =
  /^(?:yesterday|today|tonight|tomorrow|recently|lately|finally|eventually|now|then|once|later|earlier|meanwhile|afterwards|last|this|next|every|each|in|on|at|after|before|during|when|while|back|growing up|as a|a few|a couple|one|two|three|four|five|six|seven|eight|nine|ten|\d)\b/;
/** "Max and I", "my wife and I" as a subject: read as "I and Max", one subject, so no clause splits inside it. */
const COMPOUND_SUBJECT =
  /(^|[,;] |\b(?:[Ww]hen|[Ww]hile|[Bb]ecause|[Ss]ince|[Aa]fter|[Bb]efore|[Ss]o|[Tt]hen|[Yy]esterday|[Tt]oday|[Ll]ast [a-z]+|and) )((?:[Mm]y|[Oo]ur) (?:(?!(?:is|was|are|were|has|have|had|name)\b)[a-z-]+ )?(?!(?:is|was|are|were|has|have|had|name)\b)[a-z-]+(?: [A-Z][a-z'-]+)?|[A-Z][a-z'-]+) and (?:I|me)\b(?= [a-z])/g;
const SPLIT_VERB = new RegExp(
  `^(.+?)\\s+(?:(?:is|was|are|were|'s)\\s+.+?|(?:${THIRD_VERBS}|${FIRST_VERBS})\\b.+?),?\\s+and\\s+(?:also\\s+)?(?=(?:${THIRD_VERBS}|${FIRST_VERBS})\\b)`,
  "",
);

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
  // The compound subject is joined with word joiners (no white space) so that no split falls inside it.
  const pieces = splitLowered(sentence.replace(COMPOUND_SUBJECT, "$1I\u2060and\u2060$2"), SPLIT_SUBJECT)
    // "..., but thankfully, I managed ...": the conjunction and adverb left before the cut belong to no clause.
    .map((p) => p.trim().replace(/,?\s+(?:and|but|so|or|yet)(?:\s+[a-z]+ly)?,?$/i, ""))
    .filter((p) => p.length > 0);
  // "In 2019, I moved to Rome": a piece without a speaker that says when belongs to the next one;
  // one that says something else ("It's been bumpy, I ...") is a clause of its own, about no one.
  const parts: string[] = [];
  let carry = "";
  for (const piece of pieces) {
    const lower = piece.toLowerCase();
    if (!FIRST_PERSON.test(lower) && parts.length === 0) {
      if (LEAD_PIECE.test(lower)) carry = `${carry}${piece}, `;
      else parts.push(piece);
    } else {
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
      // "I love how you use it ... and teach people": after a subordinate clause or an infinitive the
      // second verb may be its own, not the subject's.
      if (/\b(?:how|that|what|when|where|who|whom|which|why|if|because|while|whether|you|your|to)\b/.test(m[0].slice(m[1].length))) break;
      const subject = rest.slice(0, m[1].length);
      const head = rest.slice(0, m[0].length).replace(/,?\s+and\s+(?:also\s+)?$/i, "");
      out.push(head);
      rest = `${subject} ${rest.slice(m[0].length)}`;
    }
    out.push(rest);
  }
  return out.map((p) => p.replace(/\u2060/g, " "));
}

/** A resolved or written date before the subject ("on 2 December 2026, the user ...", "In 2019, the user ..."). */
const LEADING_DATE =
  /^((?:[Oo]n|[Ii]n|[Aa]round|[Bb]efore|[Ss]ince|[Dd]uring|[Bb]y) (?:the (?:week|weekend) of )?(?:[A-Z][a-z]+ )?(?:\d{1,2} )?(?:[A-Z][a-z]+ )?\d{4}),? (the user\b.+)$/;

/** "On 2 December 2026 the user starts at Acme" -> "the user starts at Acme on 2 December 2026": every fact starts with its subject. */
const subjectFirst = (text: string): string => {
  const m = LEADING_DATE.exec(text);
  if (!m?.[1] || !m[2]) return text;
  const rest = m[2].replace(/[\s,;:.!…]+$/u, "");
  const date = m[1].charAt(0).toLowerCase() + m[1].slice(1);
  const comma = rest.indexOf(", ");
  return comma < 0 ? `${rest} ${date}` : `${rest.slice(0, comma)} ${date}${rest.slice(comma)}`;
};

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
  const greeted = /^(?:hi|hello|hey|hiya)\b/.test(s.toLowerCase());
  for (let guard = 0; guard < 4; guard++) {
    const before = s;
    s = stripLowered(s, OPENER).text;
    s = stripLowered(s, INTERJECTION).text;
    const label = LABEL.exec(s.toLowerCase());
    if (label && !FIRST_PERSON.test(label[0])) s = s.slice(label[0].length);
    const vocative = VOCATIVE.exec(s);
    if (vocative && !NOT_VOCATIVE.test(vocative[0].toLowerCase())) s = s.slice(vocative[0].length);
    const emphasis = stripLowered(s, EMPHASIS);
    if (emphasis.stripped) emphasized = true;
    s = emphasis.text;
    if (s === before) break;
  }
  s = s.replace(/\s*[!.…]+$/, "").trim();
  // "..., Gina": the other person's name at the end (not "Paris, France": a name before the comma keeps it).
  s = s.replace(/(?<=(?:^|\s)[a-z][\w']*|\)),\s+[A-Z][a-z]+$/, "");
  if (s.length < 4 || isNotAStatement(s)) return [];
  const clauses: Clause[] = [];
  for (const raw of splitClauses(s)) {
    const part = raw.replace(/^(?:and|but|also|so)\s+/i, "").trim();
    const lower = part.toLowerCase();
    if (part.length < 4 || !FIRST_PERSON.test(lower) || CHATTER.test(lower) || REQUEST.test(lower)) continue;
    // The opener is matched without case ("I'm", "My name is"), the name with it.
    const lowered = part.charAt(0).toLowerCase() + part.slice(1);
    const nameMatch = SELF_NAME.exec(lowered);
    // "This is Shadow!" shows a photo; "Hi, this is Sam" introduces the user.
    const name = nameMatch?.[0].startsWith("this is") && !greeted ? undefined : nameMatch?.[1];
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
    // Reactions, talk to or about the other person, and clauses whose "it" or "they" points outside them teach nothing.
    if (englishNoise(part) !== null) continue;
    const dates = resolveEnglishDates(part, ts);
    const text = homeOf(finish(subjectFirst(inflectCoordinated(toThirdPerson(dates.text)))));
    // Only the kinds of fact the learner can be sure of; the rest stays in the episodes.
    if (englishFactKind(text, dates) === null) continue;
    clauses.push({ text, emphasized, dated: dates.dated, future: dates.future });
  }
  return clauses;
}
