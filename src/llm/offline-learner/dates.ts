// Relative dates ("last month", "next Friday", "明天") resolved against the message's time (UTC).

const DAY_MS = 86_400_000;
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const ZH_WEEKDAYS = ["日", "一", "二", "三", "四", "五", "六"];

const startOfDay = (ts: number): number => Math.floor(ts / DAY_MS) * DAY_MS;
const addDays = (ts: number, days: number): number => ts + days * DAY_MS;
/** Monday of the week holding `ts`. */
const monday = (ts: number): number => addDays(startOfDay(ts), -((new Date(ts).getUTCDay() + 6) % 7));
const shiftMonth = (ts: number, months: number): Date => {
  const d = new Date(ts);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
};

const enDay = (ts: number): string => {
  const d = new Date(ts);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};
const enWeekday = (ts: number): string => `${WEEKDAYS[new Date(ts).getUTCDay()]} ${enDay(ts)}`;
const enMonth = (d: Date): string => `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
const zhDay = (ts: number): string => {
  const d = new Date(ts);
  return `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日`;
};
const zhMonth = (d: Date): string => `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月`;

const weekdayIndex = (name: string): number => WEEKDAYS.findIndex((w) => w.toLowerCase().startsWith(name.toLowerCase().slice(0, 3)));

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  couple: 2,
  few: 3,
};
/** "a couple of" -> 2, "a few" -> 3, "a" -> 1, "12" -> 12. */
const amount = (phrase: string): number => {
  const word = phrase
    .toLowerCase()
    .replace(/^a\s+/u, "")
    .replace(/\s+of$/u, "");
  return NUMBER_WORDS[word] ?? Number(word);
};

/** A pattern, what replaces it, and whether the date it names lies ahead (1), today (0) or behind (-1). */
type Rule = [RegExp, (...groups: string[]) => string, -1 | 0 | 1];

/** Text with its relative dates resolved; `future` when one of them lies ahead (a plan). */
export interface ResolvedDates {
  text: string;
  dated: boolean;
  future: boolean;
}

/**
 * Applies the rules in order; what one rule wrote is held out of reach of the later ones ("next
 * Friday" becomes "on Friday 11 December 2026", which the "on Friday" rule must not read again).
 */
function applyRules(text: string, rules: readonly Rule[]): ResolvedDates {
  const written: string[] = [];
  let future = false;
  let out = text;
  for (const [pattern, replace, when] of rules) {
    out = out.replace(pattern, (...args: unknown[]) => {
      const at = args.findIndex((a) => typeof a === "number");
      const offset = args[at] as number;
      const before = (args[at + 1] as string).slice(Math.max(0, offset - 8), offset);
      const date = replace(...args.slice(0, at).map((a) => (typeof a === "string" ? a : "")));
      // "for next month" is "for January 2027", not "for in January 2027".
      written.push(/\b(?:for|until|till|by|from|since|of|to)\s+$/iu.test(before) ? date.replace(/^(?:in|on|around) /u, "") : date);
      if (when > 0) future = true;
      return `\u0000${written.length - 1}\u0000`;
    });
  }
  return { text: out.replace(/\u0000(\d+)\u0000/gu, (_m, i: string) => written[Number(i)] ?? ""), dated: written.length > 0, future };
}

/** `ts` moved by `n` units (days, weeks, months, years), as a bare date ("5 May 2023", "March 2023", "2020"). */
function shiftedDate(ts: number, n: number, unit: string): string {
  const u = unit.toLowerCase();
  if (u.startsWith("day")) return enDay(addDays(ts, n));
  if (u.startsWith("week")) return enDay(addDays(ts, 7 * n));
  if (u.startsWith("month")) return enMonth(shiftMonth(ts, n));
  return String(new Date(ts).getUTCFullYear() + n);
}

/** `ts` moved by `n` units, with the preposition its unit takes ("on 5 May 2023", "around 10 November 2026", "in 2020"). */
function shifted(ts: number, n: number, unit: string): string {
  const u = unit.toLowerCase();
  const preposition = u.startsWith("day") ? "on" : u.startsWith("week") ? "around" : "in";
  return `${preposition} ${shiftedDate(ts, n, unit)}`;
}

const WEEKDAY = "(monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
/** A weekday written out or cut short ("Tues", "Thurs", "Sat."), after "last" / "next" only: "on sat" may be anything. */
const WEEKDAY_SHORT =
  "(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)\\.?(?![a-z])";
const AMOUNT = "(a couple of|a few|a|an|one|two|three|four|five|six|seven|eight|nine|ten|\\d{1,2})";
const UNIT = "(days?|weeks?|months?|years?)";

/**
 * English relative dates replaced by absolute ones. "next <weekday>" is that weekday of the
 * following week (Monday-based), "this/on <weekday>" the next one from today on, "last <weekday>"
 * the one before today. Whether anything was replaced is returned with the text.
 */
export function resolveEnglishDates(text: string, ts: number): ResolvedDates {
  const day = startOfDay(ts);
  const rules: Rule[] = [
    // "yesterday's class" is "2 December 2026's class", not "on 2 December 2026's class".
    [/\byesterday's\b/giu, () => `${enDay(addDays(day, -1))}'s`, -1],
    [/\b(?:today|tonight)'s\b/giu, () => `${enDay(day)}'s`, 0],
    [/\btomorrow's\b/giu, () => `${enDay(addDays(day, 1))}'s`, 1],
    [/\bthe day after tomorrow\b/giu, () => `on ${enDay(addDays(day, 2))}`, 1],
    [/\bthe day before yesterday\b/giu, () => `on ${enDay(addDays(day, -2))}`, -1],
    [/\btomorrow\b/giu, () => `on ${enDay(addDays(day, 1))}`, 1],
    [/\byesterday\b/giu, () => `on ${enDay(addDays(day, -1))}`, -1],
    [/\b(?:today|tonight|this (?:morning|afternoon|evening))\b/giu, () => `on ${enDay(day)}`, 0],
    [
      new RegExp(`\\bnext ${WEEKDAY_SHORT}`, "giu"),
      (_m, w = "") => `on ${enWeekday(addDays(monday(day), 7 + ((weekdayIndex(w) + 6) % 7)))}`,
      1,
    ],
    [
      new RegExp(`\\blast ${WEEKDAY_SHORT}`, "giu"),
      (_m, w = "") => `on ${enWeekday(addDays(day, -(((new Date(day).getUTCDay() - weekdayIndex(w) + 6) % 7) + 1)))}`,
      -1,
    ],
    [
      new RegExp(`\\b(?:this|on|coming) ${WEEKDAY}\\b`, "giu"),
      (_m, w = "") => `on ${enWeekday(addDays(day, (weekdayIndex(w) - new Date(day).getUTCDay() + 7) % 7))}`,
      1,
    ],
    [/\bthis weekend\b/giu, () => `on the weekend of ${enDay(addDays(monday(day), 5))}`, 1],
    [/\bnext weekend\b/giu, () => `on the weekend of ${enDay(addDays(monday(day), 12))}`, 1],
    [/\blast weekend\b/giu, () => `on the weekend of ${enDay(addDays(monday(day), -2))}`, -1],
    [/\bnext week\b/giu, () => `in the week of ${enDay(addDays(monday(day), 7))}`, 1],
    [/\blast week\b/giu, () => `in the week of ${enDay(addDays(monday(day), -7))}`, -1],
    [/\bthis week\b/giu, () => `in the week of ${enDay(monday(day))}`, 0],
    [/\bnext month\b/giu, () => `in ${enMonth(shiftMonth(day, 1))}`, 1],
    [/\blast month\b/giu, () => `in ${enMonth(shiftMonth(day, -1))}`, -1],
    [/\bthis month\b/giu, () => `in ${enMonth(shiftMonth(day, 0))}`, 0],
    [/\bnext year\b/giu, () => `in ${new Date(day).getUTCFullYear() + 1}`, 1],
    [/\blast year\b/giu, () => `in ${new Date(day).getUTCFullYear() - 1}`, -1],
    [/\bthis year\b/giu, () => `in ${new Date(day).getUTCFullYear()}`, 0],
    [
      /\bin (a couple of|a few|a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}) (days?|weeks?|months?|years?)\b/giu,
      (_m, n = "1", u = "") => shifted(day, amount(n), u),
      1,
    ],
    // "about three years ago" is "around 2023", not "about in 2023".
    [
      new RegExp(`\\b(?:about|around|roughly|approximately|almost|nearly|maybe|probably|like) ${AMOUNT} ${UNIT} ago\\b`, "giu"),
      (_m, n = "1", u = "") => `around ${shiftedDate(day, -amount(n), u)}`,
      -1,
    ],
    [
      new RegExp(`\\b(?:over|more than) ${AMOUNT} ${UNIT} ago\\b`, "giu"),
      (_m, n = "1", u = "") => `before ${shiftedDate(day, -amount(n), u)}`,
      -1,
    ],
    [
      /\b(a couple of|a few|a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}) (days?|weeks?|months?|years?) ago\b/giu,
      (_m, n = "1", u = "") => shifted(day, -amount(n), u),
      -1,
    ],
  ];
  return applyRules(text, rules);
}

const ZH_NUM: Record<string, number> = { 一: 1, 两: 2, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };
const zhAmount = (s: string): number => ZH_NUM[s] ?? Number(s);
const zhWeekdayIndex = (c: string): number => (c === "天" ? 0 : ZH_WEEKDAYS.indexOf(c));

/** Chinese relative dates replaced by absolute ones, under the same rules as the English ones. */
export function resolveChineseDates(text: string, ts: number): ResolvedDates {
  const day = startOfDay(ts);
  const year = new Date(day).getUTCFullYear();
  const rules: Rule[] = [
    [/大后天/gu, () => zhDay(addDays(day, 3)), 1],
    [/后天/gu, () => zhDay(addDays(day, 2)), 1],
    [/明天|明晚|明早/gu, () => zhDay(addDays(day, 1)), 1],
    [/前天/gu, () => zhDay(addDays(day, -2)), -1],
    [/昨天|昨晚/gu, () => zhDay(addDays(day, -1)), -1],
    [/今天|今晚|今早/gu, () => zhDay(day), 0],
    [
      /下(?:个)?(?:周|星期|礼拜)([一二三四五六日天])/gu,
      (_m, w = "") => `${zhDay(addDays(monday(day), 7 + ((zhWeekdayIndex(w) + 6) % 7)))}（周${ZH_WEEKDAYS[zhWeekdayIndex(w)]}）`,
      1,
    ],
    [
      /上(?:个)?(?:周|星期|礼拜)([一二三四五六日天])/gu,
      (_m, w = "") => `${zhDay(addDays(monday(day), -7 + ((zhWeekdayIndex(w) + 6) % 7)))}（周${ZH_WEEKDAYS[zhWeekdayIndex(w)]}）`,
      -1,
    ],
    [
      /(?:这|本)(?:个)?(?:周|星期|礼拜)([一二三四五六日天])/gu,
      (_m, w = "") => `${zhDay(addDays(monday(day), (zhWeekdayIndex(w) + 6) % 7))}（周${ZH_WEEKDAYS[zhWeekdayIndex(w)]}）`,
      0,
    ],
    [/(?:这|本)?(?:个)?周末/gu, () => `${zhDay(addDays(monday(day), 5))}那个周末`, 0],
    [/下(?:个)?(?:周|星期|礼拜)/gu, () => `${zhDay(addDays(monday(day), 7))}那一周`, 1],
    [/上(?:个)?(?:周|星期|礼拜)/gu, () => `${zhDay(addDays(monday(day), -7))}那一周`, -1],
    [/下(?:个)?月/gu, () => zhMonth(shiftMonth(day, 1)), 1],
    [/上(?:个)?月/gu, () => zhMonth(shiftMonth(day, -1)), -1],
    [/(?:这|本)(?:个)?月/gu, () => zhMonth(shiftMonth(day, 0)), 0],
    [/明年/gu, () => `${year + 1}年`, 1],
    [/去年/gu, () => `${year - 1}年`, -1],
    [/前年/gu, () => `${year - 2}年`, -1],
    [/今年(?![\d一二两三四五六七八九十]{1,3}岁)/gu, () => `${year}年`, 0],
    [/([一两二三四五六七八九十\d]{1,2})天(?:后|以后|之后)/gu, (_m, n = "1") => zhDay(addDays(day, zhAmount(n))), 1],
    [/([一两二三四五六七八九十\d]{1,2})个月(?:后|以后|之后)/gu, (_m, n = "1") => zhMonth(shiftMonth(day, zhAmount(n))), 1],
    [/([一两二三四五六七八九十\d]{1,2})个月前/gu, (_m, n = "1") => zhMonth(shiftMonth(day, -zhAmount(n))), -1],
  ];
  return applyRules(text, rules);
}
