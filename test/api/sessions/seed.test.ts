/** @module Twenty rounds with a system prompt through the sessions API, and how a context fits its budget (age, importance, tool pairs). */
import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import {
  append,
  readContext,
  readSession,
  sessionPath,
  sum,
  type ChatMessageView,
  type ContextResponse,
  type MessageInput,
} from "../support/sessions.ts";

const SYSTEM = "You are a helpful travel assistant. Answer briefly.";

/** Asks for contexts with growing budgets until the window may use at least `need` tokens. */
async function contextWithAvailable(sessionId: string, need: number): Promise<ContextResponse> {
  for (let budget = need; budget < need * 2 + 10; budget++) {
    const ctx = await readContext(sessionId, `budget=${budget}`);
    if (ctx.budget.available - ctx.tokens.system >= need) return ctx;
  }
  throw new Error(`no budget gives ${need} tokens to the window`);
}

/** No tool result without the assistant message that called it, right before it. */
function expectNoOrphanTool(messages: readonly ChatMessageView[]): void {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant") {
      open.clear();
      for (const c of m.tool_calls ?? []) open.add(c.id);
    } else if (m.role === "tool") {
      expect(open.has(m.tool_call_id ?? "")).toBe(true);
    } else {
      open.clear();
    }
  }
}

describe("acceptance: twenty rounds with a system prompt", () => {
  it("keeps the system prompt first, stores exactly what was sent, and does not compress", async () => {
    const sid = uniqueId("seed");
    await append(sid, [{ id: "sys", role: "system", content: SYSTEM }]);
    const sent: MessageInput[] = [];
    for (let round = 0; round < 20; round++) {
      for (const role of ["user", "assistant"] as const) {
        const m: MessageInput = {
          id: `r${round}-${role}`,
          role,
          content: `${role} turn ${round}: ${role === "user" ? "where next?" : "try Kyoto."}`,
        };
        const res = await append(sid, [m]);
        expect(res.added).toEqual([{ id: m.id, tokens: expect.any(Number), duplicate: false }]);
        expect(res.compressionDue).toBe(false);
        sent.push(m);
      }
      const ctx = await readContext(sid);
      expect(ctx.messages[0]).toEqual({ role: "system", content: SYSTEM });
      expect(ctx.messages).toHaveLength(1 + sent.length);
      const state = await readSession(sid);
      expect(state.system.map((m) => [m.id, m.role, m.content])).toEqual([["sys", "system", SYSTEM]]);
    }

    const state = await readSession(sid);
    expect(state.window.map((m) => ({ id: m.id, role: m.role, content: m.content }))).toEqual(sent);
    expect(state.summary).toBeNull();
    expect(state.stats.messages).toBe(41);

    const ctx = await readContext(sid);
    expect(ctx.messages).toEqual([{ role: "system", content: SYSTEM }, ...sent.map((m) => ({ role: m.role, content: m.content }))]);
    expect(ctx.omitted.window).toBe(0);
    expect(ctx.summary).toBeNull();
  });

  it("fits a small budget by leaving out the oldest window messages, which stay stored", async () => {
    const sid = uniqueId("budget");
    await append(sid, [{ id: "sys", role: "system", content: SYSTEM }]);
    const sent: MessageInput[] = [];
    for (let i = 0; i < 20; i++) {
      const m: MessageInput = {
        id: `m${i}`,
        role: i % 2 === 0 ? "user" : "assistant",
        content: `message ${i} about the weather in Lisbon`,
      };
      await append(sid, [m]);
      sent.push(m);
    }
    const state = await readSession(sid);
    const budget = 60;
    const ctx = await readContext(sid, `budget=${budget}`);

    expect(ctx.tokens.total).toBeLessThanOrEqual(budget);
    expect(ctx.messages[0]).toEqual({ role: "system", content: SYSTEM });
    expect(ctx.omitted.window).toBeGreaterThan(0);
    const shown = ctx.messages.slice(1);
    expect(shown.length + ctx.omitted.window).toBe(20);
    // the newest messages, in order: a suffix of the stored window
    expect(shown).toEqual(sent.slice(20 - shown.length).map((m) => ({ role: m.role, content: m.content })));
    expect(ctx.tokens.window).toBe(sum(state.window.slice(20 - shown.length).map((m) => m.tokens)));
    // and no more could have fit: the next older message would overflow what the budget leaves
    const nextOlder = state.window[20 - shown.length - 1];
    expect(nextOlder).toBeDefined();
    expect(ctx.tokens.total + (nextOlder?.tokens ?? 0)).toBeGreaterThan(ctx.budget.available);

    const after = await readSession(sid);
    expect(after.window.map((m) => m.id)).toEqual(sent.map((m) => m.id));
  });

  it("never drops the system prompt, even when it alone exceeds the budget", async () => {
    const sid = uniqueId("oversys");
    const longSystem = `${SYSTEM} ${"Always be polite and precise. ".repeat(10)}`.trim();
    await append(sid, [
      { id: "sys", role: "system", content: longSystem },
      ...[0, 1, 2].map((i) => ({ id: `m${i}`, role: "user" as const, content: `hello ${i}` })),
    ]);
    const ctx = await readContext(sid, "budget=20");
    expect(ctx.messages).toEqual([{ role: "system", content: longSystem }]);
    expect(ctx.tokens.window).toBe(0);
    expect(ctx.omitted.window).toBe(3);
    expect(ctx.budget.overBudget).toBe(true);
    expect((await readSession(sid)).window).toHaveLength(3);
  });

  it("leaves low-importance messages out before older, more important ones", async () => {
    const sid = uniqueId("importance");
    const messages: MessageInput[] = [
      { id: "old", role: "user", content: "My flight to Osaka leaves on Friday morning at nine." },
      { id: "chit", role: "assistant", content: "Nice, sounds fun!", importance: 0.1 },
      { id: "mid", role: "user", content: "Find me a hotel near the station." },
      { id: "new", role: "assistant", content: "Here are three hotels near Shin-Osaka." },
    ];
    const res = await append(sid, messages);
    const tokens = res.added.map((a) => a.tokens);
    const total = sum(tokens);
    const chitTokens = tokens[1] ?? 0;
    expect(chitTokens).toBeLessThan(tokens[0] ?? 0); // dropping by age alone would pick "old" and also fit
    const ctx = await contextWithAvailable(sid, total - chitTokens);
    expect(ctx.budget.available).toBeLessThan(total);
    expect(ctx.messages.map((m) => m.content)).toEqual([messages[0], messages[2], messages[3]].map((m) => m?.content));
    expect(ctx.omitted.window).toBe(1);
  });

  it("keeps or drops a tool call and its result together, and never shows an orphan tool result", async () => {
    const sid = uniqueId("tools");
    const call1 = { id: "call_1", type: "function" as const, function: { name: "get_weather", arguments: '{"city":"Paris"}' } };
    // A result whose call is not stored is refused on write.
    const ghost = await call("POST", `${sessionPath(sid)}/messages`, {
      body: { messages: [{ id: "ghost", role: "tool", tool_call_id: "call_0", content: "orphan" }] },
    });
    expect(ghost.status).toBe(400);
    const messages: MessageInput[] = [
      { id: "u1", role: "user", content: "What is the weather in Paris today?" },
      { id: "a1", role: "assistant", content: "", tool_calls: [call1] },
      { id: "t1", role: "tool", tool_call_id: "call_1", content: '{"temp": 18, "sky": "cloudy", "wind": "light breeze from the west"}' },
      { id: "a2", role: "assistant", content: "It is 18 degrees and cloudy in Paris." },
      { id: "u2", role: "user", content: "Thanks!" },
    ];
    const res = await append(sid, messages);
    const total = sum(res.added.map((a) => a.tokens));
    const stored = await readSession(sid);
    expect(stored.window.map((m) => m.id)).toEqual(messages.map((m) => m.id));

    let sawPair = false;
    let sawWithoutPair = false;
    for (let budget = 5; budget <= total + 20; budget++) {
      const ctx = await readContext(sid, `budget=${budget}`);
      expectNoOrphanTool(ctx.messages);
      expect(ctx.tokens.total).toBeLessThanOrEqual(budget);
      const hasCall = ctx.messages.some((m) => m.tool_calls?.[0]?.id === "call_1");
      const hasResult = ctx.messages.some((m) => m.role === "tool" && m.tool_call_id === "call_1");
      expect(hasResult).toBe(hasCall);
      expect(ctx.messages.some((m) => m.tool_call_id === "call_0")).toBe(false);
      if (hasCall) sawPair = true;
      else if (ctx.messages.length > 0) sawWithoutPair = true;
    }
    expect(sawPair).toBe(true);
    expect(sawWithoutPair).toBe(true);
    expect((await readSession(sid)).window.map((m) => m.id)).toEqual(messages.map((m) => m.id));
  });
});
