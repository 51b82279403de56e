import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import { append, putSettings, readSession, type MessageInput } from "../support/sessions.ts";
import { chatRequests, compress, promptText, readHistory, resetLlm, setLlmMode } from "../support/llm.ts";

const SYSTEM = "You are a helpful travel assistant. Answer briefly.";
const KEEP = 4;

/** The chat loop: short user/assistant rounds. */
function round(i: number): [MessageInput, MessageInput] {
  return [
    { id: `u${i}`, role: "user", content: `user turn ${i}: what is the weather like in Kyoto this week?` },
    { id: `a${i}`, role: "assistant", content: `assistant turn ${i}: it should be sunny and mild, around 20 degrees.` },
  ];
}

const ids = (messages: readonly { id?: string }[]): (string | undefined)[] => messages.map((m) => m.id);

beforeEach(async () => {
  await resetLlm();
  await setLlmMode({ mode: "summary" });
});

afterEach(async () => {
  await resetLlm();
});

describe("compression is token-driven, never round-driven", () => {
  it("twenty short rounds under the default 2000 tokens never compress, even when asked every round", async () => {
    const sid = uniqueId("seed-under");
    await append(sid, [{ id: "sys", role: "system", content: SYSTEM }]);
    const sent: MessageInput[] = [];
    for (let i = 0; i < 20; i++) {
      for (const m of round(i)) {
        const res = await append(sid, [m]);
        expect(res.compressionDue).toBe(false);
        sent.push(m);
      }
      const outcome = await compress(sid);
      expect(outcome).toMatchObject({ compressed: false, reason: "below_threshold" });
    }
    const state = await readSession(sid);
    expect(state.summary).toBeNull();
    expect(state.settings.maxTokens).toBe(2000);
    expect(ids(state.window)).toEqual(ids(sent));
    expect(state.stats.windowTokens).toBeLessThanOrEqual(2000);
    const history = await readHistory(sid);
    expect(history.summary).toBeNull();
    expect(history.archived).toEqual([]);
    expect(history.total).toBe(0);
    expect(await chatRequests()).toEqual([]);
  });

  it("the same rounds with maxTokens 300 keep exactly one rolling summary whose version grows", async () => {
    const env = { MEMORY_MAX_TOKENS: "300" };
    const sid = uniqueId("seed-over");
    await append(sid, [{ id: "sys", role: "system", content: SYSTEM }], { env });
    const sent: MessageInput[] = [];
    let version = 0;
    let windowLength = 0;
    for (let i = 0; i < 20; i++) {
      for (const m of round(i)) {
        const res = await append(sid, [m], { env }); // drains the background compression
        sent.push(m);
        expect(res.stats.maxTokens).toBe(300);
        expect(res.compressionDue).toBe(res.stats.windowTokens > 300);
        const state = await readSession(sid, { env });
        if (res.compressionDue) {
          version += 1;
          windowLength = KEEP;
        } else {
          windowLength += 1;
        }
        expect(state.summary === null ? 0 : (state.summary as { version: number }).version).toBe(version);
        // the window is the newest `keep` at the last compression plus what came after it
        expect(ids(state.window)).toEqual(ids(sent.slice(-windowLength)));
        expect(state.system.map((s) => s.content)).toEqual([SYSTEM]);
      }
      const outcome = await compress(sid, { env });
      expect(outcome).toMatchObject({ compressed: false, reason: "below_threshold" });
    }

    expect(version).toBeGreaterThanOrEqual(2);
    const state = await readSession(sid, { env });
    const history = await readHistory(sid, { env });
    expect(history.summary).toEqual(state.summary);
    expect(history.summary).toMatchObject({ version, method: "llm", covered: sent.length - state.window.length });
    expect(history.summary?.text).toMatch(/^Summary: /);
    // nothing lost, nothing duplicated, nothing reordered; the pinned prompt never archived
    expect([...ids(history.archived), ...ids(state.window)]).toEqual(ids(sent));
    expect(history.archived.every((m) => m.role !== "system")).toBe(true);
    expect(state.stats.windowTokens).toBeLessThanOrEqual(300);
    // one summarizer call per compression; the system prompt never sent to it
    const requests = await chatRequests();
    expect(requests).toHaveLength(version);
    for (const r of requests) expect(promptText(r)).not.toContain(SYSTEM);
  });
});

describe("what a compression takes", () => {
  const call1 = { id: "call_1", type: "function" as const, function: { name: "get_weather", arguments: '{"city":"Kyoto"}' } };
  const call2 = { id: "call_2", type: "function" as const, function: { name: "get_time", arguments: '{"city":"Kyoto"}' } };

  it("moves the cut back so a tool call and its result stay together in the window", async () => {
    const sid = uniqueId("tool-back");
    const messages: MessageInput[] = [
      { id: "sys", role: "system", content: SYSTEM },
      { id: "u0", role: "user", content: "Hi, I am planning a trip." },
      { id: "a0", role: "assistant", content: "Great, where to?" },
      { id: "u1", role: "user", content: "Kyoto. How is the weather?" },
      { id: "a1", role: "assistant", content: "", tool_calls: [call1] },
      { id: "t1", role: "tool", tool_call_id: "call_1", content: '{"temp": 21, "sky": "clear"}' },
      { id: "a2", role: "assistant", content: "It is 21 degrees and clear." },
      { id: "u3", role: "user", content: "Perfect." },
      { id: "a3", role: "assistant", content: "Enjoy your trip!" },
    ];
    await append(sid, messages);
    // keep 4 would cut between a1 and t1; the cut moves back, so a1 and t1 both stay
    const outcome = await compress(sid, { force: true });
    expect(outcome).toMatchObject({ compressed: true, reason: "forced", removed: 3, version: 1 });
    const state = await readSession(sid);
    expect(ids(state.window)).toEqual(["a1", "t1", "a2", "u3", "a3"]);
    expect(ids(state.system)).toEqual(["sys"]);
    expect(ids((await readHistory(sid)).archived)).toEqual(["u0", "a0", "u1"]);
  });

  it("moves the cut forward past a whole tool unit only when nothing would go otherwise", async () => {
    const sid = uniqueId("tool-forward");
    await putSettings(sid, { keep: 2 });
    const messages: MessageInput[] = [
      { id: "a1", role: "assistant", content: "", tool_calls: [call1, call2] },
      { id: "t1", role: "tool", tool_call_id: "call_1", content: '{"temp": 21}' },
      { id: "t2", role: "tool", tool_call_id: "call_2", content: '{"time": "09:00"}' },
      { id: "u1", role: "user", content: "Thanks, book the morning train." },
    ];
    await append(sid, messages);
    const outcome = await compress(sid, { force: true });
    expect(outcome).toMatchObject({ compressed: true, removed: 3 });
    expect(ids((await readSession(sid)).window)).toEqual(["u1"]);
    expect(ids((await readHistory(sid)).archived)).toEqual(["a1", "t1", "t2"]);
  });

  it("never compresses pinned system messages: a window of only system messages has nothing to compress", async () => {
    const sid = uniqueId("only-sys");
    await append(sid, [
      { id: "sys1", role: "system", content: SYSTEM },
      { id: "sys2", role: "system", content: "Always answer in English." },
    ]);
    const outcome = await compress(sid, { force: true });
    expect(outcome).toMatchObject({ compressed: false, reason: "nothing_to_compress" });
    const state = await readSession(sid);
    expect(ids(state.system)).toEqual(["sys1", "sys2"]);
    expect(state.summary).toBeNull();
    expect(await chatRequests()).toEqual([]);
  });
});
