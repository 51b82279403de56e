import { beforeAll, describe, expect, it } from "vitest";
import { compressionRatio, planCompression } from "../../../../src/memory/compression/plan.ts";
import { buildSummaryPrompt } from "../../../../src/memory/compression/summary-prompt.ts";
import type { TokenCounter } from "../../../../src/memory/ports/llm.ts";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import type { StoredMessage, Summary } from "../../../../src/memory/model.ts";
import { toStoredMessage } from "../../../../src/memory/context/window.ts";
import { storedMessage, toolExchange } from "../../../support/fakes/messages.ts";

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

const policy = { maxTokens: 2000, keep: 4 };

function rounds(n: number, filler = ""): StoredMessage[] {
  let id = 0;
  const context = () => ({ counter, now: 0, newId: () => `r${id++}` });
  return Array.from({ length: n }, (_, i) => [
    toStoredMessage({ role: "user", content: `第${i + 1}轮：今天天气怎么样？${filler}` }, context()),
    toStoredMessage({ role: "assistant", content: `第${i + 1}轮回答：晴天，适合出门。${filler}` }, context()),
  ]).flat();
}

describe("planCompression", () => {
  it("is not due after 20 short rounds under the 2000-token threshold (token-driven, not round-driven)", () => {
    const window = rounds(20);
    const tokens = window.reduce((n, m) => n + m.tokens, 0);
    expect(tokens).toBeLessThan(2000);
    expect(planCompression({ window, summary: null }, policy)).toEqual({ due: false, reason: "below_threshold", windowTokens: tokens });
  });

  it("is due once the window is over the threshold, even after a few rounds; the prefix is all but `keep`", () => {
    const window = rounds(3, "很长的补充说明。".repeat(120));
    const plan = planCompression({ window, summary: null }, policy);
    expect(plan.due).toBe(true);
    if (!plan.due) return;
    expect(plan.reason).toBe("over_threshold");
    expect(plan.keepFrom).toBe(window.length - 4);
    expect(plan.prefix.map((m) => m.id)).toEqual(window.slice(0, 2).map((m) => m.id));
    expect(plan.tokensBefore).toBe(window[0]!.tokens + window[1]!.tokens);
  });

  it("counts the previous summary into tokensBefore", () => {
    const window = Array.from({ length: 6 }, () => storedMessage("user", "x", { tokens: 500 }));
    const previous: Summary = { text: "s", tokens: 120, version: 2, covered: 9, method: "llm", updatedAt: 0, lastRatio: 0.2 };
    const plan = planCompression({ window, summary: previous }, policy);
    expect(plan.due && plan.tokensBefore).toBe(120 + 1000);
  });

  it("moves the cut back so a tool call and its results stay together", () => {
    const head = [storedMessage("user", "a", { tokens: 600 }), storedMessage("assistant", "b", { tokens: 600 })];
    const exchange = toolExchange(["t1", "t2", "t3"], 300); // call + 3 results
    const tail = [storedMessage("assistant", "c", { tokens: 300 }), storedMessage("user", "d", { tokens: 300 })];
    const window = [...head, ...exchange, ...tail];
    // keep 4 would cut between result t1 and result t2
    const plan = planCompression({ window, summary: null }, policy);
    expect(plan.due).toBe(true);
    if (!plan.due) return;
    expect(plan.keepFrom).toBe(2);
    expect(plan.prefix.map((m) => m.id)).toEqual(head.map((m) => m.id));
  });

  it("moves the cut forward over a tool exchange only when nothing would go otherwise", () => {
    const exchange = toolExchange(["t1", "t2", "t3", "t4"], 600);
    const window = [...exchange, storedMessage("user", "next", { tokens: 10 })];
    const plan = planCompression({ window, summary: null }, policy);
    expect(plan.due && plan.keepFrom).toBe(5);

    const only = toolExchange(["t1", "t2", "t3", "t4", "t5"], 600);
    expect(planCompression({ window: only, summary: null }, policy)).toMatchObject({ due: false, reason: "nothing_to_compress" });
  });

  it("never splits a tool pair for any keep", () => {
    const window = [
      storedMessage("user", "a", { tokens: 500 }),
      ...toolExchange(["x", "y"], 500),
      storedMessage("user", "b", { tokens: 500 }),
      ...toolExchange(["z"], 500),
      storedMessage("assistant", "c", { tokens: 500 }),
    ];
    for (let keep = 0; keep <= window.length; keep++) {
      const plan = planCompression({ window, summary: null }, { maxTokens: 100, keep });
      if (!plan.due) continue;
      const first = window[plan.keepFrom];
      expect(first?.role).not.toBe("tool");
      expect(plan.prefix.at(-1)?.tool_calls).toBeUndefined();
    }
  });

  it("has nothing to compress when the window is not longer than `keep`", () => {
    const window = [storedMessage("user", "a", { tokens: 5000 })];
    expect(planCompression({ window, summary: null }, policy)).toMatchObject({ due: false, reason: "nothing_to_compress" });
  });

  it("can be forced under the threshold", () => {
    const window = rounds(5);
    const plan = planCompression({ window, summary: null }, policy, { force: true });
    expect(plan).toMatchObject({ due: true, reason: "forced", keepFrom: 6 });
  });
});

describe("buildSummaryPrompt", () => {
  const previous: Summary = { text: "用户叫小明。", tokens: 5, version: 1, covered: 4, method: "llm", updatedAt: 0, lastRatio: 0.5 };

  it("merges the evicted messages into the existing summary within the token limit", () => {
    const messages = [
      storedMessage("user", "我喜欢蓝色，请记住。"),
      ...toolExchange(["w1"]),
      storedMessage("assistant", "好的，已记住：蓝色。"),
    ];
    const prompt = buildSummaryPrompt(previous, messages, 300);
    expect(prompt.map((m) => m.role)).toEqual(["system", "user"]);
    const [system, user] = prompt.map((m) => m.content);
    expect(system).toContain("under 300 tokens");
    expect(system).toMatch(/language the conversation is held in/);
    expect(system).toMatch(/preferences/);
    expect(system).toMatch(/open questions/);
    expect(system).toMatch(/names, numbers/);
    expect(user).toContain("用户叫小明。");
    expect(user).toContain("user: 我喜欢蓝色，请记住。");
    expect(user).toContain('[calls lookup({"q":"w1"})]');
    expect(user).toContain("tool result: result w1");
  });

  it("asks only to condense when there are no messages", () => {
    const prompt = buildSummaryPrompt(previous, [], 100);
    expect(prompt[0]?.content).toMatch(/shorten/);
    expect(prompt[1]?.content).toContain("Summary to shorten");
    expect(prompt[1]?.content).not.toContain("<messages>");
  });

  it("clips a huge message so one paste cannot crowd out the rest", () => {
    const prompt = buildSummaryPrompt(null, [storedMessage("user", "x".repeat(50_000))], 500);
    expect(prompt[1]!.content.length).toBeLessThan(5000);
    expect(prompt[1]!.content).toContain("(none yet)");
  });
});

describe("compressionRatio", () => {
  it("is after / before, and 1 with nothing before", () => {
    expect(compressionRatio(200, 1000)).toBe(0.2);
    expect(compressionRatio(5, 0)).toBe(1);
  });
});

describe("planCompression over a head read", () => {
  const head = (messages: StoredMessage[]) => ({ window: messages, summary: null, windowCount: 500, windowTokens: 50_000 });

  it("folds the messages before the lookahead, judged by the whole window's tokens", () => {
    const messages = Array.from({ length: 6 }, (_, i) => storedMessage(i % 2 === 0 ? "user" : "assistant", `message ${i}`, { tokens: 10 }));
    const plan = planCompression(head(messages), policy);
    expect(plan).toMatchObject({ due: true, keepFrom: 5, windowTokens: 50_000 });
    expect(plan.due && plan.prefix.map((m) => m.id)).toEqual(messages.slice(0, 5).map((m) => m.id));
  });

  it("keeps a tool call whole when its results continue past the head", () => {
    const user = storedMessage("user", "look it up", { tokens: 10 });
    const [call, first, second] = toolExchange(["a", "b"]);
    // the head ends inside the exchange: `second` is the lookahead
    const plan = planCompression(head([user, call!, first!, second!]), policy);
    expect(plan.due && plan.prefix.map((m) => m.id)).toEqual([user.id]);
  });

  it("is below the threshold when the whole window is, whatever the head holds", () => {
    const messages = Array.from({ length: 4 }, () => storedMessage("user", "x", { tokens: 1000 }));
    expect(planCompression({ window: messages, summary: null, windowCount: 500, windowTokens: 1500 }, policy)).toMatchObject({
      due: false,
      reason: "below_threshold",
    });
  });
});
