/**
 * Very frequent words that carry little meaning for retrieval: BM25 drops them (as Upstash's BM25
 * model does for English) and the weighted dense model down-weights them. Fixed lists, so both
 * stay stateless (no corpus statistics needed).
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but if then else of to in on at by for with about from into onto over under up down out off " +
    "as is am are was were be been being do does did done doing have has had having i me my mine myself we us our " +
    "ours you your yours he him his she her hers it its they them their theirs this that these those there here " +
    "what which who whom whose when where why how all any both each few more most other some such no nor not only " +
    "own same so than too very can could will would shall should may might must just also s t d ll m re ve " +
    "don doesn didn isn aren wasn weren won wouldn let"
  ).split(" "),
);

/**
 * Chinese function characters (particles, pronouns, copulas, measure words). A CJK term made only
 * of these is dropped; words like 喜欢 or 名字 never consist of them alone.
 */
export const CJK_STOP_CHARS: ReadonlySet<string> = new Set(
  Array.from("的了是在和与及也都就很还吗呢吧啊呀么着过这那些个一我你他她它们您有什怎哪为对于从把被之其而且或"),
);

/** Chinese stop words for word segmentation (whole segments). */
export const CJK_STOP_WORDS: ReadonlySet<string> = new Set([
  ...CJK_STOP_CHARS,
  "什么",
  "怎么",
  "怎么样",
  "哪里",
  "哪个",
  "我们",
  "你们",
  "他们",
  "她们",
  "这个",
  "那个",
  "这些",
  "那些",
  "一个",
  "没有",
  "就是",
  "还是",
  "而且",
  "或者",
  "因为",
  "所以",
  "如果",
  "但是",
  "可以",
  "已经",
]);

/** Whether a CJK term consists of stop characters only. */
export function isCjkStopTerm(term: string): boolean {
  for (const ch of term) if (!CJK_STOP_CHARS.has(ch)) return false;
  return true;
}
