import { describe, expect, it } from "vitest";
import type { TokenCounter } from "../../../../src/memory/ports/llm.ts";
import { MESSAGE_OVERHEAD_TOKENS } from "../../../../src/memory/context/window.ts";
import { selectWindow } from "../../../../src/memory/context/window-selection.ts";
import type { StoredMessage } from "../../../../src/memory/model.ts";
import { groupUnits } from "../../../../src/memory/context/message-units.ts";
import { toStoredMessage, windowStats } from "../../../../src/memory/context/window.ts";
import { storedMessage, toolExchange } from "../../../support/fakes/messages.ts";

function countingCounter(): TokenCounter & { calls: number } {
  const counter = {
    calls: 0,
    count(text: string) {
      counter.calls += 1;
      return text.length;
    },
  };
  return counter;
}

const ids = (messages: readonly StoredMessage[]) => messages.map((m) => m.id);

describe("toStoredMessage", () => {
  const context = (counter: TokenCounter) => ({ counter, now: 1234, newId: () => "generated" });

  it("counts tokens once, on write: content, name, tool calls and the per-message overhead", () => {
    const counter = countingCounter();
    const stored = toStoredMessage(
      {
        role: "assistant",
        content: "abc",
        name: "bot",
        tool_calls: [{ id: "c1", type: "function", function: { name: "find", arguments: "{}" } }],
      },
      context(counter),
    );
    expect(stored.tokens).toBe(MESSAGE_OVERHEAD_TOKENS + 3 + (1 + 3) + (3 + 4 + 2));
    expect(counter.calls).toBe(4);
    expect(stored.tool_calls?.[0]?.id).toBe("c1");
  });

  it("settles id, timestamp and importance, and drops the persist flag", () => {
    const counter = countingCounter();
    const user = toStoredMessage({ role: "user", content: "hi", persist: true }, context(counter));
    expect(user).toEqual({ id: "generated", role: "user", content: "hi", tokens: MESSAGE_OVERHEAD_TOKENS + 2, importance: 0.5, ts: 1234 });
    expect(toStoredMessage({ id: "mine", role: "user", content: "x" }, context(counter)).id).toBe("mine");
    expect(toStoredMessage({ role: "system", content: "x", importance: 0.2 }, context(counter)).importance).toBe(1);
    expect(toStoredMessage({ role: "user", content: "x", importance: 1.7 }, context(counter)).importance).toBe(1);
    expect(toStoredMessage({ role: "user", content: "x", importance: -3 }, context(counter)).importance).toBe(0);
    expect(toStoredMessage({ role: "user", content: "x", importance: 0.9 }, context(counter)).importance).toBe(0.9);
  });
});

describe("windowStats", () => {
  it("reports counts, stored tokens, utilization and mean importance", () => {
    const system = [storedMessage("system", "rules", { tokens: 50 })];
    const window = [
      storedMessage("user", "a", { tokens: 300, importance: 0.2 }),
      storedMessage("assistant", "b", { tokens: 700, importance: 0.6 }),
    ];
    expect(windowStats({ system, window }, { maxTokens: 2000 })).toEqual({
      messages: 3,
      tokens: 1050,
      windowMessages: 2,
      windowTokens: 1000,
      maxTokens: 2000,
      utilization: 0.5,
      avgImportance: (1 + 0.2 + 0.6) / 3,
    });
  });

  it("is all zeros for an empty session", () => {
    const stats = windowStats({ system: [], window: [] }, { maxTokens: 2000 });
    expect(stats).toMatchObject({ messages: 0, tokens: 0, utilization: 0, avgImportance: 0 });
  });
});

describe("groupUnits", () => {
  it("binds a tool call to its results and marks stray results as orphans", () => {
    const [call, r1, r2] = toolExchange(["a", "b"]);
    const stray = storedMessage("tool", "late", { tool_call_id: "zzz" });
    const units = groupUnits([storedMessage("user", "q"), call!, r1!, r2!, stray, storedMessage("assistant", "done")]);
    expect(units.map((u) => [u.start, u.end, u.orphan])).toEqual([
      [0, 1, false],
      [1, 4, false],
      [4, 5, true],
      [5, 6, false],
    ]);
  });
});

describe("selectWindow", () => {
  const all = { limit: 0, allowance: Number.MAX_SAFE_INTEGER, importanceThreshold: 0.3 };

  it("shows only the last `limit` messages, and drops tool results cut off from their call", () => {
    const window = [storedMessage("user", "q"), ...toolExchange(["a", "b"]), storedMessage("assistant", "answer")];
    const picked = selectWindow(window, { ...all, limit: 3 });
    // the last three are result a, result b, answer: both results lost their call
    expect(ids(picked.messages)).toEqual([window[4]!.id]);
    expect(picked.omitted).toBe(4);
    expect(ids(selectWindow(window, all).messages)).toEqual(ids(window));
  });

  it("drops low-importance messages first (oldest first), then the oldest others", () => {
    const high1 = storedMessage("user", "h1", { tokens: 10, importance: 0.9 });
    const low1 = storedMessage("user", "l1", { tokens: 10, importance: 0.1 });
    const high2 = storedMessage("assistant", "h2", { tokens: 10, importance: 0.5 });
    const low2 = storedMessage("user", "l2", { tokens: 10, importance: 0.2 });
    const newest = storedMessage("user", "n", { tokens: 10, importance: 0.1 });
    const window = [high1, low1, high2, low2, newest];

    expect(ids(selectWindow(window, { ...all, allowance: 40 }).messages)).toEqual(ids([high1, high2, low2, newest]));
    expect(ids(selectWindow(window, { ...all, allowance: 30 }).messages)).toEqual(ids([high1, high2, newest]));
    // then the oldest other one, and the newest message survives although it is unimportant
    expect(ids(selectWindow(window, { ...all, allowance: 20 }).messages)).toEqual(ids([high2, newest]));
    expect(ids(selectWindow(window, { ...all, allowance: 10 }).messages)).toEqual(ids([newest]));
    expect(selectWindow(window, { ...all, allowance: 9 }).messages).toEqual([]);
  });

  it("keeps or drops a tool call and its results together, never leaving an orphan", () => {
    const exchange = toolExchange(["a", "b"], 10, { importance: 0.9 });
    const before = storedMessage("user", "q", { tokens: 10, importance: 0.9 });
    const after = storedMessage("assistant", "done", { tokens: 10 });
    const window = [before, ...exchange, after];

    for (let allowance = 0; allowance <= 60; allowance++) {
      const kept = selectWindow(window, { ...all, allowance }).messages;
      const keptIds = new Set(ids(kept));
      const exchangeKept = exchange.filter((m) => keptIds.has(m.id)).length;
      expect([0, exchange.length]).toContain(exchangeKept);
      expect(kept.reduce((n, m) => n + m.tokens, 0)).toBeLessThanOrEqual(allowance);
    }
    // 40 tokens: the 30-token exchange fits with the newest message only if the older question goes
    expect(ids(selectWindow(window, { ...all, allowance: 40 }).messages)).toEqual(ids([...exchange, after]));
    expect(ids(selectWindow(window, { ...all, allowance: 39 }).messages)).toEqual(ids([after]));
  });

  it("treats the newest tool exchange as the unit kept last", () => {
    const window = [storedMessage("user", "q", { tokens: 10 }), ...toolExchange(["a"], 10)];
    expect(ids(selectWindow(window, { ...all, allowance: 20 }).messages)).toEqual(ids(window.slice(1)));
  });

  it("keeps chronological order and reports the kept tokens", () => {
    const window = [1, 2, 3, 4, 5].map((n) => storedMessage("user", `m${n}`, { tokens: n, importance: n % 2 === 0 ? 0.1 : 0.8 }));
    const nine = selectWindow(window, { ...all, allowance: 9 });
    expect(ids(nine.messages)).toEqual(ids([window[0]!, window[2]!, window[4]!]));
    expect(nine.tokens).toBe(9);
    expect(nine.omitted).toBe(2);
    const eight = selectWindow(window, { ...all, allowance: 8 });
    expect(ids(eight.messages)).toEqual(ids([window[2]!, window[4]!]));
    expect(eight.tokens).toBe(8);
    expect(eight.omitted).toBe(3);
  });
});
