import { describe, expect, it } from "vitest";
import { HeuristicFactExtractor } from "../../../../src/llm/heuristic-extractor.ts";
import { resolveChineseDates, resolveEnglishDates } from "../../../../src/llm/offline-learner/dates.ts";
import { keyOf, relationKey } from "../../../../src/llm/offline-learner/relation-key.ts";
import { isFiller } from "../../../../src/memory/facts/salience.ts";
import type { Fact, StoredMessage } from "../../../../src/memory/model.ts";

/** 2026-12-01, a Tuesday, noon UTC. */
const NOW = Date.UTC(2026, 11, 1, 12);
const user = (content: string, ts = NOW): StoredMessage => ({ id: "m", role: "user", content, tokens: 1, importance: 0.5, ts });
const fact = (id: string, text: string, createdAt = 0): Fact => ({
  id,
  text,
  type: "fact",
  importance: 0.8,
  createdAt,
  updatedAt: createdAt,
  lastAccessedAt: 0,
  accessCount: 0,
  version: 1,
});
const learner = new HeuristicFactExtractor();
const learn = async (line: string, existing: Fact[] = []) => learner.extract({ messages: [user(line)], existing });
const added = async (line: string) => (await learn(line)).flatMap((o) => (o.op === "add" ? [[o.text, o.type]] : []));

describe("the offline learner on what people say", () => {
  it("learns statements about the user's family, pets, partner and team in the third person", async () => {
    expect(await added("My sister Mia lives in Lisbon and works as an architect.")).toEqual([
      ["The user's sister Mia lives in Lisbon.", "fact"],
      ["The user's sister Mia works as an architect.", "fact"],
    ]);
    expect(await added("We adopted a rescue greyhound called Biscuit last month.")).toEqual([
      ["The user adopted a rescue greyhound called Biscuit in November 2026.", "fact"],
    ]);
    expect(await added("My husband Karim is a paramedic and works nights.")).toEqual([
      ["The user's husband Karim is a paramedic.", "fact"],
      ["The user's husband Karim works nights.", "fact"],
    ]);
    expect(await added("Our team switched the backend from Django to FastAPI.")).toEqual([
      ["The user's team switched the backend from Django to FastAPI.", "fact"],
    ]);
  });

  it("learns Chinese statements about the user's world", async () => {
    expect(await added("我妹妹在深圳当小学老师。")).toEqual([["用户的妹妹在深圳当小学老师。", "fact"]]);
    expect(await added("我们家的猫叫团子，三岁了。")).toEqual([["用户家的猫叫团子，三岁了。", "fact"]]);
    expect(await added("我老公是做牙医的。")).toEqual([["用户的老公是做牙医的。", "fact"]]);
    expect(await added("我是陈浩，在北京做前端开发。")).toEqual([
      ["用户叫陈浩。", "fact"],
      ["用户在北京做前端开发。", "fact"],
    ]);
  });

  it("stores the clause that carries the fact, without the greeting, and types a name as a fact", async () => {
    expect(await learn("Hi! I'm Sam.")).toEqual([{ op: "add", text: "The user's name is Sam.", type: "fact", importance: 0.85 }]);
    expect(await learn("My name is Ada and I love sailing")).toEqual([
      { op: "add", text: "The user's name is Ada.", type: "fact", importance: 0.85 },
      { op: "add", text: "The user loves sailing.", type: "preference", importance: 0.7 },
    ]);
    expect(await added("你好，我叫林晓。")).toEqual([["用户叫林晓。", "fact"]]);
    // a nationality is not a name
    expect(await added("I'm Canadian.")).toEqual([["The user is Canadian.", "fact"]]);
  });

  it("resolves relative dates against the message's time and files plans as context", async () => {
    expect(await learn("I'm flying to Tokyo next Friday.")).toEqual([
      { op: "add", text: "The user is flying to Tokyo on Friday 11 December 2026.", type: "context", importance: 0.65 },
    ]);
    expect(await added("明天我要去北京出差。")).toEqual([["用户2026年12月2日要去北京出差。", "context"]]);
    expect(await added("下个月我要考英语六级。")).toEqual([["用户2027年1月要考英语六级。", "context"]]);
    expect(await added("We visited my parents last weekend.")).toEqual([
      ["The user visited the user's parents on the weekend of 28 November 2026.", "experience"],
    ]);
  });

  it("learns nothing from questions, requests, greetings, thanks or small talk", async () => {
    const lines = [
      "Can you recommend a podcast?",
      "Let me tell you about green tea, item 1.",
      "What is my hobby?",
      "Do you know a good pizza place?",
      "Write me a poem about the sea.",
      "Tell me a joke.",
      "I'd like a short answer please.",
      "Could you summarize that?",
      "The weather is nice today",
      "lol that's funny",
      "Thanks, that's really helpful!",
      "Good morning!",
      "I think you're right about that.",
      "I'm not sure about that.",
      "I'll think about it.",
      "Nice, I love that idea.",
      "Hi there!",
      "Honestly, I have no idea.",
      "That's my favourite movie!",
      "Can I ask you something?",
      "I need a recipe for lasagna.",
      "I wonder if it will rain.",
      "你觉得哪本书适合入门？",
      "帮我写一首关于秋天的诗。",
      "今天天气真不错。",
      "谢谢你的建议！",
      "哈哈哈，太好笑了",
      "我觉得你说得有道理。",
      "我再想想。",
      "我叫什么名字来着？",
      "推荐几部好看的电影。",
      "你好",
      "我有一个问题",
      "你能帮我订个餐厅吗",
      "我今天好累啊",
      "好吧，我知道了",
    ];
    for (const line of lines)
      expect(
        (await learn(line)).map((o) => o.op),
        line,
      ).toEqual(["skip"]);
  });

  it("never learns from filler", async () => {
    for (const line of ["ok", "Thanks!", "👍", "好的", "嗯嗯", "Remember that.", "记住这个", "yes please", "hello"]) {
      expect(isFiller(line), line).toBe(true);
      expect(
        (await learn(line)).filter((o) => o.op !== "skip"),
        line,
      ).toEqual([]);
    }
  });
});

describe("supersession by subject and relation", () => {
  const keyText = (text: string) => {
    const key = relationKey(text);
    return key ? keyOf(key) : null;
  };

  it("derives one key from the learner's own text and from what the user said", () => {
    expect(keyText("The user lives in Paris.")).toBe("user:home");
    expect(keyText("The user moved to Berlin in November 2026.")).toBe("user:home");
    expect(keyText("The user's name is Ada.")).toBe("user:name");
    expect(keyText("The user's sister Mia works as an architect.")).toBe("user.sister:job");
    expect(keyText("The user's sister Mia lives in Lisbon.")).toBe("user.sister:home");
    expect(keyText("The user adopted a rescue greyhound called Biscuit in November 2026.")).toBe("user.dog:name");
    expect(keyText("The user loves coffee.")).toBe("user:likes:coffee");
    expect(keyText("The user doesn't like coffee anymore.")).toBe("user:likes:coffee");
    expect(keyText("The user is allergic to peanuts.")).toBe("user:allergy:peanuts");
    expect(keyText("The user's team switched the backend from Django to FastAPI.")).toBe("user.team:uses:backend");
    expect(keyText("用户住在杭州。")).toBe("user:home");
    expect(keyText("用户2026年11月搬到上海了。")).toBe("user:home");
    expect(keyText("用户的妹妹在深圳当小学老师。")).toBe("user.sister:job");
    expect(keyText("用户家的猫叫团子，三岁了。")).toBe("user.cat:name");
    expect(keyText("用户现在不喜欢喝咖啡了，改喝茶。")).toBe("user:likes:咖啡");
    // a statement of no known relation has no key and never supersedes
    expect(keyText("The user watches birds every weekend.")).toBeNull();
  });

  it("supersedes the stored fact of the same subject and relation", async () => {
    expect(await learn("I moved to Berlin", [fact("paris", "The user lives in Paris.")])).toEqual([
      // a move says where the user lives now
      { op: "supersede", id: "paris", text: "The user lives in Berlin.", type: "fact", importance: 0.8 },
    ]);
    expect(await learn("I live in Berlin now", [fact("paris", "The user lives in Paris.")])).toEqual([
      { op: "supersede", id: "paris", text: "The user lives in Berlin now.", type: "fact", importance: 0.8 },
    ]);
    // a fact stored as the user said it (persisted, or written through the API) is read the same way
    expect((await learn("我叫小刚", [fact("old", "我叫小明，喜欢蓝色")]))[0]).toMatchObject({
      op: "supersede",
      id: "old",
      text: "用户叫小刚。",
    });
    expect((await learn("I don't like coffee anymore", [fact("c", "The user loves coffee.")]))[0]).toMatchObject({
      op: "supersede",
      id: "c",
    });
    expect((await learn("我上个月搬到上海了。", [fact("hz", "用户住在杭州。")]))[0]).toMatchObject({
      op: "supersede",
      id: "hz",
      text: "用户住在上海（2026年11月搬过去）。",
    });
    expect((await learn("我搬到校外和室友合租了。", [fact("dorm", "用户住在学校宿舍。")]))[0]).toMatchObject({
      op: "supersede",
      id: "dorm",
      text: "用户住在校外，和室友合租。",
    });
    expect((await learn("We moved to Lisbon last month.", [fact("paris", "The user lives in Paris.")]))[0]).toMatchObject({
      op: "supersede",
      id: "paris",
      text: "The user lives in Lisbon (moved there in November 2026).",
    });
  });

  it("adds beside facts of another subject or relation, and of relations that hold several values", async () => {
    const existing = [
      fact("home", "The user lives in Paris."),
      fact("sis", "The user's sister Mia lives in Lisbon."),
      fact("nuts", "The user is allergic to peanuts."),
    ];
    expect((await learn("My brother lives in Rome.", existing)).map((o) => o.op)).toEqual(["add"]);
    expect((await learn("I work as a nurse.", existing)).map((o) => o.op)).toEqual(["add"]);
    expect((await learn("I'm allergic to shellfish.", existing)).map((o) => o.op)).toEqual(["add"]);
    // a move still ahead is a plan, not the end of the current home
    expect(await learn("I'm moving to Lisbon next year.", existing)).toEqual([
      { op: "add", text: "The user is moving to Lisbon in 2027.", type: "context", importance: 0.65 },
    ]);
    expect((await learn("我下个月搬到北京。", [fact("hz", "用户住在杭州。")]))[0]).toMatchObject({ op: "add", type: "context" });
  });

  it("keeps the later of two clauses of one key within a batch", async () => {
    const ops = await learner.extract({ messages: [user("I live in Paris."), user("Actually I live in Lyon.")], existing: [] });
    expect(ops).toEqual([
      { op: "skip", text: "The user lives in Paris." },
      { op: "add", text: "The user lives in Lyon.", type: "fact", importance: 0.8 },
    ]);
  });
});

describe("relative dates", () => {
  it("resolves English and Chinese relative dates in UTC, once each", () => {
    expect(resolveEnglishDates("I start tomorrow", NOW)).toEqual({ text: "I start on 2 December 2026", dated: true, future: true });
    expect(resolveEnglishDates("next Friday and this Friday", NOW).text).toBe("on Friday 11 December 2026 and on Friday 4 December 2026");
    expect(resolveEnglishDates("three weeks ago", NOW)).toEqual({ text: "around 10 November 2026", dated: true, future: false });
    expect(resolveEnglishDates("in a couple of months", NOW).text).toBe("in February 2027");
    expect(resolveEnglishDates("nothing relative here", NOW)).toEqual({ text: "nothing relative here", dated: false, future: false });
    expect(resolveChineseDates("下周五", NOW).text).toBe("2026年12月11日（周五）");
    expect(resolveChineseDates("去年", NOW).text).toBe("2025年");
    expect(resolveChineseDates("后天", NOW)).toEqual({ text: "2026年12月3日", dated: true, future: true });
    // an age is not a date
    expect(resolveChineseDates("今年八岁", NOW).text).toBe("今年八岁");
  });
});
