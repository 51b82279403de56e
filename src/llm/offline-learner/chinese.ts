// Chinese statements about the user and their world rewritten as facts about 用户 ("我妹妹在深圳当老师" -> "用户的妹妹在深圳当老师。").
import { resolveChineseDates } from "./dates.ts";
import type { Clause } from "./english.ts";
import { chineseFactKind, chineseNoise } from "./precision-chinese.ts";
import { ZH_DATE } from "./relation-key-chinese.ts";

const OPENER =
  /^(?:(?:你好|您好|嗨|哈喽|hello|hi|对了|顺便说一下|顺便说一句|顺便提一下|另外|还有|其实|嗯+|哦+|啊+|哈+|好的|好吧|是的|对|没错|那个|就是|说起来|跟你说|告诉你|哇塞?|天哪|嘿|对呀|是啊|确实|好呀|好啊|太好了|太棒了|好棒|厉害|所以|然后|那么|那(?=我|俺))[\s，,！!。：:、~～]*)+/iu;
/** A label before the sentence ("第3轮：", "更新："): a few characters and a colon, no speaker. */
const LABEL = /^[^：:，,。！!？?我你]{1,12}[：:]\s*/u;
const EMPHASIS = /^(?:请|麻烦)?(?:记住|记一下|记好|别忘了|别忘|不要忘了|不要忘记|务必记得|一定要记得)(?:哦|啊)?[\s，,：:。！!]*/u;

const QUESTION =
  /[?？]\s*$|[吗呢么]\s*[。.!！~～]?\s*$|你(?:觉得|认为|知道|能|会|可以|有没有|记得)|能不能|可不可以|行不行|是不是|有没有|请问|怎么|怎样|为什么|为啥|什么|哪(?!怕)|谁|几[个点岁号天]|多少|多久|如何|咋/u;
const REQUEST =
  /^(?:请|麻烦|帮我|帮忙|给我|替我|写|讲|说说|讲讲|告诉我|来一|推荐|翻译|总结|解释|介绍|列出|生成|我想让你|我需要你|我要你|你来|你帮|你给|能帮|可以帮)|我想(?:问|知道|了解|请教|听)|我(?:需要|要)(?:一[个首篇份]|些)?(?:建议|推荐|帮助|帮忙)/u;
/** First-person lines that react to the conversation instead of telling something. */
const CHATTER =
  /^我(?:再|先|得|要)?(?:想想|看看|试试|考虑一下)|^我(?:觉得|认为|想想|也是|也觉得|知道了|明白了?|懂了|同意|猜|看看|试试|想一想|考虑一下|就是问问|随便问问|开玩笑|不知道|不确定|回来了|吃过了|吃完了|先走了|去忙了)|^我(?:今天|现在)?(?:好|有点|很|太|超|真)?(?:累|困|饿|无聊|开心|高兴|郁闷|烦)(?:了|啊|呀|死了)?$|^我也(?:是|一样)|^我有(?:一个|个|几个|些)?(?:问题|疑问)|哈哈|呵呵|嘿嘿/u;
const FIRST_PERSON = /我|咱|俺/u;
const SURNAMES =
  "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤欧司上诸";
const SELF_NAME = new RegExp(`^我是([${SURNAMES}][\\p{Script=Han}]{1,2})(?<!老师|医生|同学|经理|总|工|姐|哥)(?=[，,。！!]|$)`, "u");

/** Kin, pets and groups: "我妹妹" reads "用户的妹妹". */
const KIN =
  "妹妹|姐姐|哥哥|弟弟|妈妈|母亲|爸爸|父亲|老公|老婆|丈夫|妻子|太太|先生|男朋友|女朋友|男友|女友|对象|未婚夫|未婚妻|儿子|女儿|孩子|宝宝|朋友|好朋友|闺蜜|同事|老板|领导|上司|室友|邻居|同学|爷爷|奶奶|外公|外婆|姥姥|姥爷|叔叔|阿姨|舅舅|表妹|表姐|表哥|表弟|堂妹|堂姐|堂哥|堂弟|家人|猫|猫咪|狗|狗狗|宠物|公司|团队|小组|部门|学校|老家";

/** Continuations without a subject that start a new fact about the same subject. */
const CONTINUATION =
  /^(?:也|还|最|平时|特别|非常|很|比较)?(?:喜欢|爱|讨厌|不喜欢|不爱|不吃|不喝|住在|在.{1,8}(?:工作|上班|上学|做|当|读|学)|是|当|做|对.{1,8}过敏|会|养了|有)/u;

/** First person about 用户, as facts are written ("我妹妹" -> "用户的妹妹", "我" -> "用户"). */
export function toUser(clause: string): string {
  return clause
    .replace(/(?:我们|咱们|咱)(?:家)(?:的)?/gu, "用户家的")
    .replace(/我家(?:的)?/gu, "用户家的")
    .replace(new RegExp(`(?:我们|咱们)(?:的)?(?=${KIN})`, "gu"), "用户的")
    .replace(new RegExp(`(?:我|俺)(?:的)?(?=${KIN})`, "gu"), "用户的")
    .replace(/我们|咱们|我的|俺的|我|俺/gu, (m) => (m.endsWith("的") ? "用户的" : "用户"))
    .replace(/用户家的(?=[在住是有])/gu, "用户家");
}

/** A piece that only evaluates ("特别好看", "真的很棒啊"). */
const EVALUATION = /^(?:也|都|还|真的?|实在)?(?:特别|非常|很|超级?|真|太|挺|好|蛮|相当|可)[^，。,]{1,6}?(?:了|啊|呀|的|哦)?[。！!~～.…]*$/u;

const finish = (s: string): string => `${s.replace(/[\s，,、；;：:。.!！~～…]+$/u, "")}。`;

/** Whether the clause is a question, a request or chatter rather than a statement about the user's world. */
export function isNotAChineseStatement(sentence: string): boolean {
  const s = sentence.trim();
  return QUESTION.test(s) || REQUEST.test(s) || CHATTER.test(s) || !FIRST_PERSON.test(s);
}

/** Canonical clauses about 用户 of one Chinese sentence; none when it tells nothing about the user. */
export function chineseClauses(sentence: string, ts: number): Clause[] {
  let s = sentence.normalize("NFKC").replace(/\s+/gu, " ").trim();
  let emphasized = false;
  for (let guard = 0; guard < 3; guard++) {
    const before = s;
    s = s.replace(OPENER, "").replace(LABEL, "");
    const emphasis = EMPHASIS.exec(s);
    if (emphasis) {
      emphasized = true;
      s = s.slice(emphasis[0].length);
    }
    if (s === before) break;
  }
  if (s.length < 2 || isNotAChineseStatement(s)) return [];
  // "我是陈浩" names the user when what follows 我是 reads as a name: a common surname and one or two characters.
  s = s.replace(SELF_NAME, "我叫$1");
  // "我叫小明，喜欢蓝色": a comma before a new subject or a continuation starts a new fact.
  const pieces = s
    .split(/[，,；;]/u)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const groups: string[] = [];
  for (const piece of pieces) {
    const last = groups.length - 1;
    const startsNew = /^(?:我|咱|俺)/u.test(piece) || (CONTINUATION.test(piece) && last >= 0 && /^我(?!们|家)/u.test(groups[last] ?? ""));
    // "...，特别好看": a bare evaluation after a fact says how the user found it, not what happened.
    if (last >= 0 && !startsNew && EVALUATION.test(piece)) continue;
    if (last >= 0 && !startsNew) groups[last] = `${groups[last]}，${piece}`;
    else groups.push(startsNew && !/^(?:我|咱|俺)/u.test(piece) ? `我${piece}` : piece);
  }
  const clauses: Clause[] = [];
  for (const group of groups) {
    if (!FIRST_PERSON.test(group) || CHATTER.test(group) || REQUEST.test(group)) continue;
    // Reactions, talk to or about the other person and 它/这/那 with nothing to point at teach nothing.
    if (chineseNoise(group) !== null) continue;
    const dates = resolveChineseDates(group, ts);
    let text = toUser(dates.text);
    // "明天我要去北京" reads "2026年12月2日用户要去北京": the subject goes first, as in every fact.
    const date = ZH_DATE.exec(text);
    const subject = date ? new RegExp(`^用户(?:的|家的|家)?(?:${KIN})?`, "u").exec(text.slice(date[0].length)) : null;
    if (date && subject) text = `${subject[0]}${date[0].replace(/[，,]$/u, "")}${text.slice(date[0].length + subject[0].length)}`;
    // "用户2026年11月搬到上海了" says where the user lives: "用户住在上海（2026年11月搬过去）".
    // "搬到校外和室友合租了" names the place, then who with: "用户住在校外，和室友合租".
    const moved = new RegExp(
      `^用户(${ZH_DATE.source.slice(1)})?搬(?:到|去)了?([^，。,和跟与]{2,8}?)((?:和|跟|与)[^，。,]{1,12}?)?了?$`,
      "u",
    ).exec(text.replace(/[。！!]+$/u, ""));
    if (moved?.[2] && !dates.future) {
      text = `用户住在${moved[2]}${moved[1] ? `（${moved[1].replace(/[，,]$/u, "")}搬过去）` : ""}${moved[3] ? `，${moved[3]}` : ""}`;
    }
    // Only the kinds of fact the learner can be sure of; the rest stays in the episodes.
    if (chineseFactKind(finish(text), dates) === null) continue;
    clauses.push({ text: finish(text), emphasized, dated: dates.dated, future: dates.future });
  }
  return clauses;
}
