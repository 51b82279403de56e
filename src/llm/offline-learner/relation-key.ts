// Subject and relation of a canonical fact ("The user's sister Mia lives in Lisbon." -> user.sister:home): two facts with one key cannot both be true.

/** What a fact is about and which of its properties it states; `single` relations hold one value at a time. */
export interface RelationKey {
  /** "user", or "user.<relative>" ("user.sister", "user.dog", "user.team"). */
  subject: string;
  /** "name", "home", "job", "likes:coffee", ... */
  relation: string;
  /** The relation's kind, which sets a fact's type and importance (see `kinds.ts`). */
  kind: RelationKind;
}

export type RelationKind =
  | "name"
  | "health"
  | "diet"
  | "home"
  | "origin"
  | "job"
  | "employer"
  | "schedule"
  | "age"
  | "study"
  | "likes"
  | "uses"
  | "plan"
  | "relationship"
  | "other";

/** Relatives, pets and groups, English and Chinese, with the one name their key uses. */
const RELATIVES: Record<string, string> = {
  sister: "sister",
  "younger sister": "sister",
  "older sister": "sister",
  "little sister": "sister",
  "big sister": "sister",
  妹妹: "sister",
  姐姐: "elder-sister",
  brother: "brother",
  "younger brother": "brother",
  "older brother": "brother",
  "little brother": "brother",
  "big brother": "brother",
  弟弟: "brother",
  哥哥: "elder-brother",
  mother: "mother",
  mom: "mother",
  mum: "mother",
  妈妈: "mother",
  母亲: "mother",
  father: "father",
  dad: "father",
  爸爸: "father",
  父亲: "father",
  husband: "husband",
  老公: "husband",
  丈夫: "husband",
  先生: "husband",
  wife: "wife",
  老婆: "wife",
  妻子: "wife",
  太太: "wife",
  partner: "partner",
  boyfriend: "partner",
  girlfriend: "partner",
  fiance: "partner",
  fiancee: "partner",
  男朋友: "partner",
  女朋友: "partner",
  男友: "partner",
  女友: "partner",
  对象: "partner",
  未婚夫: "partner",
  未婚妻: "partner",
  son: "son",
  儿子: "son",
  daughter: "daughter",
  女儿: "daughter",
  kid: "child",
  kids: "children",
  child: "child",
  children: "children",
  孩子: "child",
  宝宝: "child",
  friend: "friend",
  "best friend": "best-friend",
  朋友: "friend",
  好朋友: "best-friend",
  闺蜜: "best-friend",
  colleague: "colleague",
  coworker: "colleague",
  "co-worker": "colleague",
  同事: "colleague",
  boss: "boss",
  manager: "boss",
  老板: "boss",
  领导: "boss",
  上司: "boss",
  roommate: "roommate",
  flatmate: "roommate",
  室友: "roommate",
  neighbor: "neighbor",
  neighbour: "neighbor",
  邻居: "neighbor",
  grandmother: "grandmother",
  grandma: "grandmother",
  奶奶: "grandmother",
  外婆: "grandmother",
  姥姥: "grandmother",
  grandfather: "grandfather",
  grandpa: "grandfather",
  爷爷: "grandfather",
  外公: "grandfather",
  姥爷: "grandfather",
  dog: "dog",
  puppy: "dog",
  greyhound: "dog",
  terrier: "dog",
  retriever: "dog",
  labrador: "dog",
  poodle: "dog",
  corgi: "dog",
  beagle: "dog",
  狗: "dog",
  狗狗: "dog",
  cat: "cat",
  kitten: "cat",
  猫: "cat",
  猫咪: "cat",
  pet: "pet",
  宠物: "pet",
  rabbit: "rabbit",
  兔子: "rabbit",
  team: "team",
  团队: "team",
  小组: "team",
  部门: "team",
  company: "company",
  startup: "company",
  公司: "company",
  family: "family",
  家人: "family",
  家: "family",
};
const RELATIVE_WORDS = Object.keys(RELATIVES)
  .filter((w) => /^[a-z]/u.test(w))
  .sort((a, b) => b.length - a.length)
  .join("|");
const ZH_RELATIVE_WORDS = Object.keys(RELATIVES)
  .filter((w) => !/^[a-z]/u.test(w))
  .sort((a, b) => b.length - a.length)
  .join("|");

const NUMBER_WORDS =
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety";

const OCCUPATION =
  /(?:er|or|ist|ian|ant|ent|ologist|ic|nurse|doctor|chef|cook|pilot|dentist|paramedic|architect|lawyer|teacher|student|engineer|designer|developer|programmer|accountant|pharmacist|vet|veterinarian|firefighter|officer|clerk|barista|cashier|plumber|electrician|carpenter|mechanic|farmer|nanny|tutor|professor|researcher|scientist|journalist|editor|writer|photographer|analyst|consultant|surgeon|midwife|therapist|coach|librarian|translator|freelancer|founder|intern|retiree|ceo|cto|cfo|pm)$/;
const DIET =
  /\b(?:vegetarian|vegan|pescatarian|gluten[- ]free|lactose|halal|kosher|doesn't eat (?:meat|pork|beef|fish|dairy)|does not eat|keeps kosher|is on a .* diet)\b|吃素|素食|不吃(?:肉|猪肉|牛肉|辣|海鲜)|清真|戒糖|减肥|节食|乳糖不耐/;
const HEALTH =
  /\b(?:allergic|allergy|intolerant|diabetic|diabetes|asthma|migraine|pregnant|injured|surgery|blood pressure)\b|过敏|糖尿病|哮喘|偏头痛|怀孕|高血压|受伤|手术/;
const FUTURE =
  /\b(?:will|is going to|are going to|plans? to|is planning|is flying|is moving|is visiting|is starting|is getting married|is travelling|is traveling|is taking|is having|is running|is attending|intends to|hopes to)\b|要去|打算|准备|计划|将要|会去|要搬|要结婚|要出差|要参加|要带|下(?:个)?(?:月|周)/;

/** The object of a like, reduced to a comparable key ("dark roast coffee anymore" -> "dark roast coffee"). */
function objectKey(object: string): string {
  return object
    .toLowerCase()
    .replace(
      /\b(?:anymore|any more|these days|lately|now|a lot|very much|so much|too|really|at all|actually|though|more than anything|most)\b/gu,
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
const ZH_POSSESSED_RELATIVE = new RegExp(`^用户(?:的|家的|家)(?:[^，。]{0,4}?)(${ZH_RELATIVE_WORDS})(.*)$`);
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
    /^(?:[a-z][a-zà-ÿ'-]*,? )?(?=(?:is|was|has|lives|works|loves|likes|moved|just|also|still|now|recently|teaches|runs|owns|studies|got|became|started|joined|left)\b)/,
    "",
  );
  rest = rest.replace(/^(?:(?:just|also|still|now|recently|currently|finally|actually|always|usually|really|mostly|officially) )+/, "");
  rest = rest.replace(/,? (?:now|these days|anymore|any more|at the moment|nowadays|as well|too)$/, "");

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
    /^(?:lives|is living|has lived|lived|is based|is staying|settled|now lives|resides)\b|^(?:has moved|moved|is moving|relocated|has relocated)(?: (?:back|house|abroad|over|out))? (?:to|into|in with|here|there)\b/.test(
      rest,
    )
  ) {
    return FUTURE.test(rest) && !/^(?:moved|has moved|relocated)/.test(rest)
      ? { subject, relation: "plan:home", kind: "plan" }
      : { subject, relation: "home", kind: "home" };
  }
  const likes =
    /^(?:loves|likes|enjoys|adores|hates|dislikes|prefers|can't stand|cannot stand|is into|is a (?:big |huge )?fan of|is obsessed with|is not a fan of|isn't a fan of|doesn't like|does not like|no longer likes|doesn't enjoy|is crazy about|is passionate about)\s+(.+)$/.exec(
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
  if (/^(?:works (?:at|for|in)|is working (?:at|for)|joined|got a job at|started (?:a new job |working )?at|is employed)\b/.test(rest))
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

/** A date as the Chinese date rules write it. */
export const ZH_DATE = /^\d{4}年(?:\d{1,2}月)?(?:\d{1,2}日)?(?:（周.）)?(?:那个周末|那一周)?[，,]?/u;

function chineseKey(text: string): RelationKey | null {
  const t = text.replace(/[。！!]+$/u, "");
  const possessed = ZH_POSSESSED_RELATIVE.exec(t);
  let subject = "user";
  let rest: string;
  if (possessed?.[1] !== undefined) {
    subject = `user.${RELATIVES[possessed[1]] ?? possessed[1]}`;
    rest = possessed[2] ?? "";
  } else if (t.startsWith("用户")) rest = t.slice(2);
  else return null;
  // A resolved date right after the subject ("用户2026年12月2日要去北京出差") says when, not what.
  const dated = ZH_DATE.exec(rest);
  if (dated) rest = rest.slice(dated[0].length);
  rest = rest.replace(/^(?:也|还|现在|目前|已经|刚|刚刚|最近|以前|之前|过去|一直|从小就?|平时|每天|每周|如今)+/u, "");
  if (/^(?:叫|名字(?:是|叫)|的名字(?:是|叫))/u.test(rest) || /^养了?(?:一[只条个])?.{0,4}?(?:猫|狗|兔子)，?(?:叫|名叫)/u.test(rest)) {
    return { subject, relation: "name", kind: subject === "user" ? "name" : "relationship" };
  }
  if (HEALTH.test(rest)) {
    const allergen = /对(.+?)过敏/u.exec(rest);
    return { subject, relation: allergen?.[1] ? `allergy:${allergen[1]}` : "health", kind: "health" };
  }
  if (DIET.test(rest)) return { subject, relation: "diet", kind: "diet" };
  if (/^(?:住在|住|搬到|搬去|搬家到|定居|在.{1,10}住)/u.test(rest)) {
    return /^(?:要|打算|准备|计划)/u.test(rest) || FUTURE.test(rest.slice(0, 4))
      ? { subject, relation: "plan:home", kind: "plan" }
      : { subject, relation: "home", kind: "home" };
  }
  if (/^(?:要|打算|准备|计划|下个月|明年).{0,6}(?:搬到|搬去|搬家)/u.test(rest)) return { subject, relation: "plan:home", kind: "plan" };
  if (/^(?:来自|老家在|出生在|出生于|在.{1,6}长大)/u.test(rest)) return { subject, relation: "origin", kind: "origin" };
  if (
    /(?:当|做|是做|是一名|是个|是一个|职业是|工作是|从事|转行做|升职为|成为了?)|^是.{0,8}(?:师|员|生|家|医|警|工|手|长|经理|老板|总监|博士|护士|司机|会计|律师|厨师|记者)/u.test(
      rest,
    )
  ) {
    return { subject, relation: "job", kind: "job" };
  }
  if (/^在.{1,12}(?:工作|上班|实习|任职)|^(?:入职|加入|跳槽到|去了).{1,12}/u.test(rest))
    return { subject, relation: "employer", kind: "employer" };
  if (/^[\d一二两三四五六七八九十]{1,3}岁|^今年[\d一二两三四五六七八九十]{1,3}岁/u.test(rest))
    return { subject, relation: "age", kind: "age" };
  const likes = /^(?:最|特别|非常|很|比较|超)?(?:喜欢|爱|讨厌|不喜欢|不爱|迷上了|爱上了|偏爱|偏好|受不了)(?:吃|喝|看|听|玩|用)?(.+)$/u.exec(
    rest,
  );
  if (likes?.[1]) return { subject, relation: `likes:${likes[1].split(/[，,。]/u)[0]?.replace(/[了的啊呀]+$/u, "")}`, kind: "likes" };
  const uses =
    /(?:把)(.{1,8}?)(?:从.+?)?(?:换成|改成|迁移到|切换到|换到)/u.exec(rest) ?? /^(?:用|使用)(?:.+?)(?:做|写|来做|当)(.{1,8})$/u.exec(rest);
  if (uses?.[1]) return { subject, relation: `uses:${uses[1]}`, kind: "uses" };
  if (FUTURE.test(rest) || /^\d{4}年/u.test(rest)) {
    const place = /(?:去|到)(.{2,4}?)(?:旅游|旅行|玩|出差|度假|参加|看|$|，)/u.exec(rest);
    return { subject, relation: place?.[1] ? `plan:${place[1]}` : "plan", kind: "plan" };
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
