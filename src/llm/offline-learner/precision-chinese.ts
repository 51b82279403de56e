/**
 * @module What makes a Chinese clause a fact the offline learner can be sure of: the two gates of
 * precision.ts for Chinese. `chineseNoise` reads the clause as said (first person): anything said
 * to the other person (你/您), talk about the conversation (聊聊天气、旅行和美食), reactions,
 * agreement and farewells, suggestions to do something together, and 它/这/那 or 他/她 with nothing
 * to point at teach nothing. `chineseFactKind` reads the canonical clause (用户...): a relation the
 * learner can key, the user's relatives and pets, who the user is, what they can do or own, a dated
 * or life event, a plan, a habit.
 */
import { chineseKey } from "./relation-key-chinese.ts";
import { RELATIVES } from "./relation-vocabulary.ts";

const KIN = Object.keys(RELATIVES)
  .filter((w) => !/^[a-z]/u.test(w))
  .concat([
    "孩子们",
    "父母",
    "爸妈",
    "家里人",
    "全家",
    "老师",
    "同学们",
    "朋友们",
    "室友",
    "猫咪",
    "狗狗",
    "兔子",
    "鹦鹉",
    "乌龟",
    "仓鼠",
    "鱼",
  ])
  .sort((a, b) => b.length - a.length)
  .join("|");

/** Time words that may stand before the subject ("明天我要去北京"). */
const TIME_LEAD =
  /^[\d年月日号周星期礼拜天一二三四五六七八九十两今明昨前后上下这本个去每最近刚才现在以前之前之后以后小时候平时末春夏秋冬早晚午当时那年，,\s]{0,12}?(?=我|俺)/u;

const SECOND_PERSON = /你|您/u;
/** Talk about the conversation: chatting, discussing, topics. */
const TALK = /聊|谈谈|谈一谈|说说|讲讲|讨论|唠嗑|话题|闲扯/u;
/** Reactions, agreement, feelings of the moment. */
const REACTION =
  /^(?:我们?|俺)(?:也|真|真的|很|好|太|超|超级|特别|非常|有点|有些|挺|蛮|都|还|就|已经|现在|今天|实在|确实|简直|又)*(?:开心|高兴|快乐|激动|兴奋|期待|感动|感谢|谢谢|佩服|羡慕|嫉妒|同意|赞同|赞成|理解|明白|懂|放心|担心|紧张|害怕|难过|伤心|失望|抱歉|不好意思|荣幸|幸运|骄傲|自豪|累|困|饿|无聊|郁闷|烦|忙|好奇|爱死|服了|笑死|感觉|觉得|认为|相信|希望|猜|以为|知道|记得|支持|同感|一样|也是|没事|还好|不错|可以的|行的|在呢|来了|回来了|好了|没问题|当然|确定|肯定|保证)/u;
const FAREWELL =
  /^(?:我们?)?(?:先|要|得|该)?(?:走了|撤了|下了|睡了|去忙了|去睡了|下线了|溜了)|回头聊|下次(?:再)?聊|改天(?:再)?聊|晚安|拜拜|再见|先这样/u;
/** Suggestions to do something together ("我们一起去吧", "咱们..."): about the listener too. */
const TOGETHER = /(?:吧|呗)[。！!~～]*$|咱们|^(?:我们)(?!全家|家|俩|夫妻|两口子)[^，。]{0,6}一起|大家/u;

const DEMONSTRATIVE = /[这那](?!么|周末|(?:个)?(?:周|星期|礼拜|月|学期))/u;
const THING = /(?:车|房子|房|公寓|店|公司|手机|电脑|书|礼物|包|衣服|项目|工作|作品|画|歌|电影|游戏)/u;
const KIN_WORD = new RegExp(KIN, "u");
const THING_OR_KIN = new RegExp(`${KIN}|${THING.source}`, "u");

/**
 * Why a Chinese clause with a first-person word teaches nothing, or null when it may state a fact.
 * `clause` is the clause as said (first person), before dates are resolved.
 */
export function chineseNoise(clause: string): string | null {
  const c = clause.trim();
  if (SECOND_PERSON.test(c)) return "addressed to the other person";
  if (!TIME_LEAD.test(c)) return "not about the user";
  const own = c.replace(TIME_LEAD, "");
  if (REACTION.test(own) || FAREWELL.test(own)) return "reaction";
  if (TALK.test(c)) return "talk about the conversation";
  if (TOGETHER.test(c)) return "together";
  if (DEMONSTRATIVE.test(c)) return "unresolved reference";
  // "他" inside 吉他 (guitar) and 其他 (other) is no pronoun.
  const pronoun = /它们?|(?<![吉其])他们?|她们?/u.exec(c);
  if (pronoun) {
    const before = c.slice(0, pronoun.index);
    const antecedent = pronoun[0].startsWith("它") ? THING_OR_KIN : KIN_WORD;
    if (!antecedent.test(before)) return "unresolved reference";
  }
  return null;
}

/** One of the user's own particulars and its value ("用户的生日是5月5日", "用户的血型是A型"). */
const ATTRIBUTE =
  /^用户的(?:生日|地址|家庭住址|邮箱|电子邮箱|电话|电话号码|手机号|手机号码|血型|身高|体重|星座|密码|微信号|QQ号?|网名|昵称|小名|英文名|母语|籍贯)(?:是|为)[^，。]+/u;
const RELATIVE_SUBJECT = new RegExp(`^用户(?:的|家的|家)(?:[^，。]{0,4}?)(?:${KIN})(.*)$`, "u");
/** Ongoing activities ("用户最近在学日语", "正在准备考研"). */
const ACTIVITY = /^用户(?:最近|现在|目前|正在|一直|也|还)*(?:在|正在)(?:学|练|准备|写|读|考|找|做|装修|备孕|健身|减肥)/u;
const HABIT =
  /每天|天天|每周|每个?月|每年|每逢|经常|常常|总是|平时|一直|通常|每(?:个)?(?:周|星期|礼拜)[一二三四五六日天]|每个?(?:周末|早上|晚上)/u;
const EVENT =
  /搬|结婚|离婚|毕业|入职|辞职|离职|加入|开了|买了|卖了|养了|领养|生了|考上|考了|拿到|获得|赢了|参加了|去了|去过|学了|学会|开始|换了|升职|退休|出国|回国|报名|怀孕|分手|订婚|住院|受伤|拿了|得了|出生|长大|读完|读过|当过|做过|住过|工作过|创业|开店|转行/u;
const PLAN = /打算|准备|计划|要去|想去|将要|会去|要搬|要结婚|要出差|要参加|要考/u;
const IDENTITY =
  /^用户(?:是|算是)(?:个|一个|一名|一位)?(?:[^，。]{1,6}人|独生子|独生女|单身|已婚|素食者|左撇子|基督徒|穆斯林|佛教徒|妈妈|爸爸|宝妈|老人)/u;
const ABILITY =
  /^用户(?:也|还|不太|不|很|特别|比较)*(?:会|不会|能|不能|不太能|没法)(?:说|讲|弹|拉|打|游|开|做|吃|喝|画|唱|跳|写|骑|滑|下|修|编|织)/u;
const POSSESSION = new RegExp(
  `^用户(?:家)?(?:也|还)?有(?:一|两|三|四|五|六|七|八|九|十|\\d|几)?(?:个|只|条|辆|套|位|名|家)?[^，。]{0,4}?(?:${KIN}|车|房|房子|公寓|店|公司|工作室|博客|频道|乐队)`,
  "u",
);

/**
 * The kind of fact a canonical Chinese clause (用户...) states, or null when it is none the learner
 * can be sure of. `dated`/`future`: a relative date was resolved in it / one of its dates lies ahead.
 */
export function chineseFactKind(text: string, extra: { dated: boolean; future: boolean }): string | null {
  if (chineseKey(text)) return "relation";
  if (ATTRIBUTE.test(text)) return "attribute";
  const relative = RELATIVE_SUBJECT.exec(text);
  if (relative) {
    // "用户的猫很可爱" says how the user finds the cat, not something about it.
    return /^(?:也|都|还)?(?:很|真|太|超|特别|非常|挺|好|蛮|可)/u.test(relative[1] ?? "") ? null : "relative";
  }
  if (extra.future || PLAN.test(text)) return "plan";
  if (extra.dated) return "dated event";
  if (HABIT.test(text)) return "habit";
  if (ACTIVITY.test(text)) return "activity";
  if (IDENTITY.test(text)) return "identity";
  if (ABILITY.test(text)) return "ability";
  if (POSSESSION.test(text)) return "possession";
  if (EVENT.test(text)) return "event";
  return null;
}
