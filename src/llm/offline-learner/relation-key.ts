// Subject and relation of a canonical fact ("The user's sister Mia lives in Lisbon." -> user.sister:home): two facts with one key cannot both be true.
import { chineseKey } from "./relation-key-chinese.ts";
import { DIET, FUTURE, HEALTH, RELATIVES, RELATIVE_WORDS, type RelationKey } from "./relation-vocabulary.ts";

const NUMBER_WORDS =
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety";

const OCCUPATION =
  /(?:er|or|ist|ian|ant|ent|ologist|ic|nurse|doctor|chef|cook|pilot|dentist|paramedic|architect|lawyer|teacher|student|engineer|designer|developer|programmer|accountant|pharmacist|vet|veterinarian|firefighter|officer|clerk|barista|cashier|plumber|electrician|carpenter|mechanic|farmer|nanny|tutor|professor|researcher|scientist|journalist|editor|writer|photographer|analyst|consultant|surgeon|midwife|therapist|coach|librarian|translator|freelancer|founder|intern|retiree|ceo|cto|cfo|pm)$/;
/** The object of a like, reduced to a comparable key ("dark roast coffee anymore" -> "dark roast coffee"). */
function objectKey(object: string): string {
  return object
    .toLowerCase()
    .replace(
      /\b(?:any ?more|these days|lately|now|a lot|very much|so much|too|really|at all|actually|though|more than anything|most)\b/gu,
      " ",
    )
    .replace(/^(?:the|a|an|to|some|all|of)\s+/u, "")
    .replace(/[^\p{L}\p{N} ]+/gu, " ")
    .replace(/\s+/gu, " ")
    .trim()
    .split(" ")
    .slice(0, 3)
    .join(" ");
}

// English keys are read from lower-cased text without the `u` flag, and every pattern is built
// once: Unicode patterns with large alternations cost milliseconds to compile on a cold isolate.
const NAMED_RELATIVE = new RegExp(
  `^[a-z][a-zà-ÿ'-]*(?: [a-z][a-zà-ÿ'-]*)? is the user's (?:(?:younger|older|little|big|best) )?(${RELATIVE_WORDS})$`,
);
const POSSESSED_RELATIVE = new RegExp(`^the user's (?:[a-z-]+ ){0,2}?(${RELATIVE_WORDS})\\b(.*)$`);
const AGE = new RegExp(`^(?:is|turned|turns|will be|will turn) (?:\\d{1,3}|${NUMBER_WORDS})(?: years old)?\\b`);

function englishKey(text: string): RelationKey | null {
  const full = text
    .toLowerCase()
    .replace(/[.!]+$/, "")
    .trim();
  // "Karim quit the ambulance service, the user's husband is a nurse now": the clause about the user carries the key.
  const t = full.startsWith("the user") ? full : (full.split(/,\s+/u).find((part) => part.startsWith("the user")) ?? full);
  // "Mia is the user's sister."
  const named = NAMED_RELATIVE.exec(t);
  if (named?.[1]) return { subject: `user.${RELATIVES[named[1]] ?? named[1]}`, relation: "name", kind: "relationship" };
  if (/^the user's name is /.test(t)) return { subject: "user", relation: "name", kind: "name" };
  let subject = "user";
  let rest: string;
  const possessed = POSSESSED_RELATIVE.exec(t);
  const favourite = /^the user's favou?rite ([a-zà-ÿ ]+?) (?:is|are) (.+)$/.exec(t);
  if (favourite?.[1]) return { subject: "user", relation: `likes:favourite ${objectKey(favourite[1])}`, kind: "likes" };
  if (possessed?.[1] !== undefined) {
    subject = `user.${RELATIVES[possessed[1]] ?? possessed[1]}`;
    rest = (possessed[2] ?? "").trim();
  } else if (t.startsWith("the user ")) rest = t.slice("the user ".length);
  else return null;
  // Drop the relative's name ("sister mia lives ..." -> "lives ..."): the relation follows.
  rest = rest.replace(
    /^(?:(?!(?:is|was|has|are|were|had)\b)[a-z][a-zà-ÿ'-]*,? )?(?=(?:is|was|has|lives|works|loves|likes|moved|just|also|still|now|recently|teaches|runs|owns|studies|got|became|started|joined|left)\b)/,
    "",
  );
  rest = rest.replace(/^(?:(?:just|also|still|now|recently|currently|finally|actually|always|usually|really|mostly|officially) )+/, "");
  rest = rest.replace(/,? (?:now|these days|any ?more|at the moment|nowadays|as well|too)$/, "");

  const name =
    /^(?:is called|is named|'s name is|name is|goes by) /.test(rest) ||
    /^(?:has|adopted|got|bought|rescued|owns) (?:a|an|two|three|one)? ?(?:[a-z-]+ ){0,2}?([a-zà-ÿ]+) (?:called|named) /.exec(rest);
  if (name) {
    if (Array.isArray(name) && name[1] && RELATIVES[name[1]])
      return { subject: `${subject}.${RELATIVES[name[1]]}`.replace(/^user\.user\./u, "user."), relation: "name", kind: "relationship" };
    return { subject, relation: "name", kind: subject === "user" ? "name" : "relationship" };
  }
  if (HEALTH.test(rest)) {
    const allergen = /allergic to (.+)$/.exec(rest);
    return { subject, relation: allergen?.[1] ? `allergy:${objectKey(allergen[1])}` : "health", kind: "health" };
  }
  if (DIET.test(rest)) return { subject, relation: "diet", kind: "diet" };
  if (
    /^(?:lives|has lived|lived|is based|now lives|resides)\b|^(?:is living|is staying|settled|is settled)(?: down)? (?:in|at|with|near|abroad|alone|by|on|outside)\b|^(?:has moved|moved|is moving|relocated|has relocated)(?: (?:back|house|abroad|over|out))? (?:to|into|in with|here|there)\b/.test(
      rest,
    )
  ) {
    return FUTURE.test(rest) && !/^(?:moved|has moved|relocated)/.test(rest)
      ? { subject, relation: "plan:home", kind: "plan" }
      : { subject, relation: "home", kind: "home" };
  }
  const likes =
    /^(?:loves|likes|enjoys|adores|hates|dislikes|prefers|can't stand|cannot stand|is into|is a (?:big |huge )?fan of|is obsessed with|is not a fan of|isn't a fan of|doesn't like|does not like|no longer likes|doesn't enjoy|is crazy about|is passionate about|is keen on|is interested in|is really into|has (?:always )?(?:had )?a (?:great |real |deep |huge |big )?(?:love|passion|soft spot) for)\s+(.+)$/.exec(
      rest,
    );
  if (likes?.[1])
    return {
      subject,
      relation: `likes:${objectKey(likes[1].replace(/^(?:to |playing |eating |drinking |watching |listening to )/, ""))}`,
      kind: "likes",
    };
  const hobby =
    /^(?:goes|does|practi[sc]es|plays) ((?:[a-zà-ÿ]+ing)|(?:the )?(?:piano|guitar|violin|drums|tennis|football|soccer|basketball|chess|golf|badminton|volleyball|yoga|pilates|judo|karate))\b/.exec(
      rest,
    );
  if (hobby?.[1]) return { subject, relation: `likes:${objectKey(hobby[1])}`, kind: "likes" };
  if (/^(?:is from|comes from|grew up in|was born in)\b/.test(rest)) return { subject, relation: "origin", kind: "origin" };
  if (
    /^(?:works as|is working as|became|has become|is now|job is|was promoted to|got promoted to|retired|teaches|lectures|practi[sc]es (?:law|medicine)|runs (?:a|an|the|her|his|their) )\b/.test(
      rest,
    ) ||
    /^is (?:a|an) (?:[a-zà-ÿ-]+ ){0,3}?([a-zà-ÿ-]+)(?: at| in| for|$|,)/.test(rest)
  ) {
    const noun = /^is (?:a|an) (?:[a-zà-ÿ-]+ ){0,3}?([a-zà-ÿ-]+)(?: at| in| for|$|,)/.exec(rest)?.[1];
    if (noun === undefined || OCCUPATION.test(noun)) return { subject, relation: "job", kind: "job" };
    return { subject, relation: `is-a:${noun}`, kind: "other" };
  }
  if (
    /^works (?:(?:at|during the) night|at weekends|on weekends|in shifts|nights|days|weekends|night shifts|from home|remotely|part[- ]time|full[- ]time|shifts|late|early)\b/.test(
      rest,
    )
  )
    return { subject, relation: "schedule", kind: "schedule" };
  // "joined Acme", "joined a startup" is an employer; "joined a book club" is not.
  const joinedEmployer =
    /^joined\b/.test(rest) &&
    /\bjoined (?:[A-Z]|(?:a|an|the) (?:new )?(?:company|startup|firm|bank|hospital|school|agency|lab|studio|practice|clinic|law firm)\b)/.test(
      text,
    );
  if (
    joinedEmployer ||
    /^(?:works (?:at|for|in)|is working (?:at|for)|got a job at|started (?:a new job |working )?at|is employed)\b/.test(rest)
  )
    return { subject, relation: "employer", kind: "employer" };
  if (AGE.test(rest)) return { subject, relation: "age", kind: "age" };
  if (/^(?:studies|is studying|is majoring|majored|is doing a (?:phd|master's|degree))\b/.test(rest))
    return { subject, relation: "study", kind: "study" };
  const uses =
    /^(?:switched|migrated|moved|changed|upgraded)(?: (?:over|all))? (?:the |its |their |the user's )?([a-zà-ÿ -]+?) (?:from .+? )?to\b/.exec(
      rest,
    ) ??
    /^(?:uses|is using|relies on|codes in|writes code in) .+? (?:for|as) (?:all )?(?:the |its |their |the user's )?([a-zà-ÿ' -]+)$/.exec(
      rest,
    );
  if (uses?.[1]) return { subject, relation: `uses:${objectKey(uses[1])}`, kind: "uses" };
  if (/^(?:drives|bought a car|has a car)\b/.test(rest)) return { subject, relation: "car", kind: "other" };
  if (FUTURE.test(rest)) {
    const place =
      /\b(?:to|in|visit|visiting) (?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b)([A-Z][a-zA-Zà-ÿ]+(?: [A-Z][a-zA-Zà-ÿ]+)?)/.exec(
        text.slice(text.length - rest.length - 1),
      );
    return { subject, relation: place?.[1] ? `plan:${place[1].toLowerCase()}` : "plan", kind: "plan" };
  }
  return null;
}

/** The relation key of a canonical fact text (one the offline learner writes); null when it names none. */
export function relationKey(text: string): RelationKey | null {
  const t = text.normalize("NFKC").trim();
  return /^用户/u.test(t) ? chineseKey(t) : englishKey(t);
}

/** Keys compare by subject and relation; preferences compare by object only, so "loves" and "doesn't like" the same thing collide. */
export const keyOf = (key: RelationKey): string => `${key.subject}:${key.relation}`;
