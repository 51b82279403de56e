/**
 * @module The relation key of a Chinese canonical fact ("用户的妹妹在深圳当小学老师。" -> user.sister:job).
 */
import { DIET, FUTURE, HEALTH, RELATIVES, type RelationKey } from "./relation-vocabulary.ts";

const ZH_RELATIVE_WORDS = Object.keys(RELATIVES)
  .filter((w) => !/^[a-z]/u.test(w))
  .sort((a, b) => b.length - a.length)
  .join("|");

const ZH_POSSESSED_RELATIVE = new RegExp(`^用户(?:的|家的|家)(?:[^，。]{0,4}?)(${ZH_RELATIVE_WORDS})(.*)$`);

/** A date as the Chinese date rules write it. */
export const ZH_DATE = /^\d{4}年(?:\d{1,2}月)?(?:\d{1,2}日)?(?:（周.）)?(?:那个周末|那一周)?[，,]?/u;

export function chineseKey(text: string): RelationKey | null {
  // "用户的老家在东北": 老家 is where the user is from, not a relative.
  const t = text.replace(/[。！!]+$/u, "").replace(/^用户的(?=老家)/u, "用户");
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
  if (/^的?(?:来自|老家在|老家是|出生在|出生于|在.{1,6}长大)/u.test(rest)) return { subject, relation: "origin", kind: "origin" };
  if (
    // "在深圳当老师", "是做牙医的", "做会计"; not "做饭", "做的红烧肉".
    /^(?:在[^，。]{1,12}?)?(?:当|做(?!饭|菜|的|得|了|过|完|作业|运动|瑜伽|梦|家务)|是做|是一名|是个|是一个|职业是|工作是|从事|转行做|升职为|成为了?)|^是.{0,8}(?:师|员|生|家|医|警|工|手|长|经理|老板|总监|博士|护士|司机|会计|律师|厨师|记者)/u.test(
      rest,
    )
  ) {
    return { subject, relation: "job", kind: "job" };
  }
  if (/^在.{1,12}(?:工作|上班|实习|任职)|^(?:入职|加入|跳槽到|去了).{1,12}/u.test(rest))
    return { subject, relation: "employer", kind: "employer" };
  if (/^在.{1,12}(?:读|念|上学|留学|学习)|^(?:在读|读研|读博|读大[一二三四])/u.test(rest))
    return { subject, relation: "study", kind: "study" };
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
