/**
 * @module The vocabulary both languages' relation keys share: what a key is, the relatives, pets and
 * groups a fact can be about, and the words that mark diet, health and plans.
 */

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
export const RELATIVES: Record<string, string> = {
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
export const RELATIVE_WORDS = Object.keys(RELATIVES)
  .filter((w) => /^[a-z]/u.test(w))
  .sort((a, b) => b.length - a.length)
  .join("|");
export const DIET =
  /\b(?:vegetarian|vegan|pescatarian|gluten[- ]free|lactose|halal|kosher|doesn't eat (?:meat|pork|beef|fish|dairy)|does not eat|keeps kosher|is on a .* diet)\b|吃素|素食|不吃(?:肉|猪肉|牛肉|辣|海鲜)|清真|戒糖|减肥|节食|乳糖不耐/;
export const HEALTH =
  /\b(?:allergic|allergy|intolerant|diabetic|diabetes|asthma|migraine|pregnant|injured|surgery|blood pressure)\b|过敏|糖尿病|哮喘|偏头痛|怀孕|高血压|受伤|手术/;
export const FUTURE =
  /\b(?:will|is going to|are going to|is gonna|are gonna|plans? to|is planning|is flying|is moving|is visiting|is starting|is getting married|is travelling|is traveling|is taking|is having|is running|is attending|intends to|hopes to)\b|要去|打算|准备|计划|将要|会去|要搬|要结婚|要出差|要参加|要带|下(?:个)?(?:月|周)/;
