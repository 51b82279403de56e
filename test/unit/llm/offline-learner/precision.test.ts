import { describe, expect, it } from "vitest";
import { HeuristicFactExtractor } from "../../../../src/llm/heuristic-extractor.ts";
import { resolveEnglishDates } from "../../../../src/llm/offline-learner/dates.ts";
import { keyOf, relationKey } from "../../../../src/llm/offline-learner/relation-key.ts";
import type { StoredMessage } from "../../../../src/memory/model.ts";

/** 2026-12-01, a Tuesday, noon UTC. */
const NOW = Date.UTC(2026, 11, 1, 12);
const message = (role: StoredMessage["role"], content: string): StoredMessage => ({
  id: role,
  role,
  content,
  tokens: 1,
  importance: 0.5,
  ts: NOW,
});
const learner = new HeuristicFactExtractor();
/** The texts the learner adds for one user line (with the other speaker's line before it, as in a real exchange). */
const learned = async (line: string, before = "That sounds great! What else is new?") =>
  (await learner.extract({ messages: [message("assistant", before), message("user", line)], existing: [] })).flatMap((o) =>
    o.op === "add" ? [o.text] : [],
  );
const keyText = (text: string) => {
  const key = relationKey(text);
  return key ? keyOf(key) : null;
};

describe("the precise offline learner: clauses that teach nothing", () => {
  it("learns nothing from a round of small talk about topics, in English or Chinese", async () => {
    for (const round of [3, 7, 12, 20])
      expect(await learned(`第${round}轮：我们聊聊天气、旅行和美食，话题很多很多。`), `round ${round}`).toEqual([]);
    for (const line of [
      "Let's chat about the weather, travel and food today",
      "Round 3: we chat about the weather, travel and food, lots of topics.",
      "We talked about the weather, travel and food for hours.",
      "I love talking about the weather and food with you.",
      "今天我们聊点轻松的吧。",
      "我想和你聊聊旅行。",
    ])
      expect(await learned(line), line).toEqual([]);
  });

  it("learns nothing from reactions, agreement, greetings and farewells", async () => {
    for (const line of [
      "I am as well.",
      "I really do.",
      "I totally agree, it's so important.",
      "I'm so happy for you, Caroline.",
      "I'm excited and kinda nervous.",
      "I feel great.",
      "I can't wait to see your pottery project.",
      "Got it Nate, I'll see you soon.",
      "Thanks, I'll let you know. Talk to you soon!",
      "I'm off to bake some cakes. Talk to you soon!",
      "I seriously admire what you do.",
      "Your words mean a lot to me.",
      "我也是。",
      "我太开心了！",
      "我觉得这个主意不错。",
      "我先去忙了，回头聊。",
      "晚安，我要睡了。",
    ])
      expect(await learned(line), line).toEqual([]);
  });

  it("learns nothing from advice or invitations to the other person, or from talk that includes them", async () => {
    for (const line of [
      "You should come down and join me on the trails sometime.",
      "You should try yoga, it helped me a lot.",
      "If you need any help, let me know!",
      "We can do so much together!",
      "We'll keep pushing each other on this path.",
      "We all have unique paths.",
      "你应该试试瑜伽。",
      "我建议你早点睡。",
      "有空来我家玩呀！",
      "我们一起去爬山吧。",
    ])
      expect(await learned(line), line).toEqual([]);
  });

  it("learns nothing from a clause whose it, that, they or there points outside it", async () => {
    for (const line of [
      "It inspired me to make some art.",
      "Thanks! It was made for a local church and shows time changing our lives.",
      "I made it to show my own journey as a transgender woman.",
      "They were scared but we reassured them.",
      "I first watched it about three years ago.",
      "I've been there before and loved it!",
      "I'll add it to my list.",
      "I snapped that pic on my trip last year.",
      "I'm determined to make this studio work.",
      "我真的很喜欢它。",
      "这个我也喜欢。",
      "我在那里住了三年。",
      "他们都很支持我。",
    ])
      expect(await learned(line), line).toEqual([]);
  });

  it("learns nothing from vague statements: resolutions, light verbs, nothing said after the verb", async () => {
    for (const line of [
      "I won't give up!",
      "I'm gonna keep going no matter what.",
      "We got this!",
      "I had a great time last weekend.",
      "It was close, but in the end I won.",
      "I'm working on something exciting.",
      "Success is almost here.",
      "Painting's a fun way to express my feelings.",
    ])
      expect(await learned(line), line).toEqual([]);
  });
});

describe("the precise offline learner: what it still learns", () => {
  it("learns the profile: name, likes, relatives, home, job, health, identity", async () => {
    expect(await learned("我叫小明，喜欢蓝色")).toEqual(["用户叫小明。", "用户喜欢蓝色。"]);
    expect(await learned("My sister lives in Lisbon")).toEqual(["The user's sister lives in Lisbon."]);
    expect(await learned("Hey Mel! I'm a transgender woman and I work as a nurse.")).toEqual([
      "The user is a transgender woman.",
      "The user works as a nurse.",
    ]);
    expect(await learned("Unfortunately, I'm allergic to most reptiles and animals with fur.")).toEqual([
      "The user is allergic to most reptiles and animals with fur.",
    ]);
    expect(await learned("My birthday is on 5 May.")).toEqual(["The user's birthday is on 5 May."]);
    expect(await learned("我的血型是A型。")).toEqual(["用户的血型是A型。"]);
    expect(await learned("我会弹吉他。")).toEqual(["用户会弹吉他。"]);
    expect(await learned("我老家在东北。")).toEqual(["用户的老家在东北。"]);
    expect(await learned("我们家狗狗叫旺财，它特别调皮。")).toEqual(["用户家的狗狗叫旺财，它特别调皮。"]);
  });

  it("keeps the fact of a line and drops the reaction, comment or greeting around it", async () => {
    expect(await learned("Hey Mel! A lot's happened since we last chatted - I just joined a new LGBTQ activist group last Tues.")).toEqual([
      "The user just joined a new LGBTQ activist group on Tuesday 24 November 2026.",
    ]);
    expect(
      await learned("Last weekend I joined a mentorship program for LGBTQ youth - it's really rewarding to help the community."),
    ).toEqual(["The user joined a mentorship program for LGBTQ youth on the weekend of 28 November 2026."]);
    expect(await learned("I went to a LGBTQ support group yesterday and it was so powerful.")).toEqual([
      "The user went to a LGBTQ support group on 30 November 2026.",
    ]);
    expect(await learned("Thanks Maria! I'm now part of the fire-fighting brigade.")).toEqual([
      "The user is now part of the fire-fighting brigade.",
    ]);
    expect(await learned("我昨天去看了一场电影，特别好看。")).toEqual(["用户2026年11月30日去看了一场电影。"]);
  });

  it("learns habits, plans and dated events with the user as subject", async () => {
    expect(await learned("I go hiking every weekend.")).toEqual(["The user goes hiking every weekend."]);
    expect(await learned("Max and I went camping in Ohio last week.")).toEqual([
      "The user and Max went camping in Ohio in the week of 23 November 2026.",
    ]);
    expect(await learned("I'm gonna stay in Galway next month.")).toEqual(["The user is gonna stay in Galway in January 2027."]);
    expect(await learned("我每天早上跑步五公里。")).toEqual(["用户每天早上跑步五公里。"]);
    expect(await learned("我最近在学日语。")).toEqual(["用户最近在学日语。"]);
  });
});

describe("the offline learner's grammar", () => {
  it("skips adverbs before the verb and leaves past forms as they are", async () => {
    expect(await learned("I first watched Frozen about three years ago.")).toEqual(["The user first watched Frozen around 2023."]);
    expect(await learned("I heard a talk by an elderly veteran named Samuel last week.")).toEqual([
      "The user heard a talk by an elderly veteran named Samuel in the week of 23 November 2026.",
    ]);
    expect(await learned("I held a benefit basketball game last week.")).toEqual([
      "The user held a benefit basketball game in the week of 23 November 2026.",
    ]);
    expect(await learned("I retook the aptitude test last week.")).toEqual([
      "The user retook the aptitude test in the week of 23 November 2026.",
    ]);
    // a verb that ends in "ed" is not always past
    expect(await learned("We feed the ducks at the lake every Sunday.")).toEqual(["The user feeds the ducks at the lake every Sunday."]);
  });

  it("gives every verb of a list the user's person, and puts the subject first", async () => {
    expect(await learned("I usually watch movies, hike, and have game nights at my place.")).toEqual([
      "The user usually watches movies, hikes, and has game nights at the user's place.",
    ]);
    expect(await learned("In 2019, I moved to Rome.")).toEqual(["The user lives in Rome (moved there in 2019)."]);
    expect(await learned("Next Wednesday I start at Google.")).toEqual(["The user starts at Google on Wednesday 9 December 2026."]);
  });

  it("writes dates said with an approximation or a possessive as dates", () => {
    expect(resolveEnglishDates("about three years ago", NOW).text).toBe("around 2023");
    expect(resolveEnglishDates("over two years ago", NOW).text).toBe("before 2024");
    expect(resolveEnglishDates("last Tues", NOW).text).toBe("on Tuesday 24 November 2026");
    expect(resolveEnglishDates("yesterday's yoga class", NOW).text).toBe("30 November 2026's yoga class");
    // after a preposition of its own, a date takes none ("for next month", "until next Friday")
    expect(resolveEnglishDates("a trip for next month", NOW).text).toBe("a trip for January 2027");
    expect(resolveEnglishDates("until next Friday", NOW).text).toBe("until Friday 11 December 2026");
  });
});

describe("relation keys read only what they name", () => {
  it("keys a home, an employer, a study and an origin, and not what only looks like them", () => {
    expect(keyText("The user is staying positive.")).toBeNull();
    expect(keyText("The user is staying in Galway.")).toBe("user:home");
    expect(keyText("The user joined a book club.")).toBeNull();
    expect(keyText("The user joined Google in 2020.")).toBe("user:employer");
    expect(keyText("The user is keen on counseling.")).toBe("user:likes:counseling");
    expect(keyText("用户不太会做饭。")).toBeNull();
    expect(keyText("用户的妈妈做的红烧肉特别好吃。")).toBeNull();
    expect(keyText("用户在一家游戏公司做策划。")).toBe("user:job");
    expect(keyText("用户在武汉大学读化学专业。")).toBe("user:study");
    expect(keyText("用户的老家在东北。")).toBe("user:origin");
  });
});
