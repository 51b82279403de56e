import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import { append, readContext, readSession, type MessageInput } from "../support/sessions.ts";
import { chatRequests, compress, readHistory, resetLlm, setLlmMode, type SummaryView } from "../support/llm.ts";

/** No LLM configured at all: the Worker falls back to the extractive summarizer. */
const env = { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined, MEMORY_MAX_TOKENS: "300" };
const KEEP = 4;

const ids = (messages: readonly { id?: string }[]): (string | undefined)[] => messages.map((m) => m.id);

function turn(i: number): MessageInput {
  return i % 2 === 0
    ? { id: `u${i}`, role: "user", content: `Note ${i}: my flight to Porto leaves at ${8 + (i % 10)}:15 from gate B${i}.` }
    : { id: `a${i}`, role: "assistant", content: `Got it, gate B${i - 1} at ${8 + ((i - 1) % 10)}:15. Anything else?` };
}

beforeEach(async () => {
  await resetLlm();
  await setLlmMode({ mode: "summary" }); // would answer if anything asked it
});

afterEach(async () => {
  await resetLlm();
});

describe("compression without an LLM", () => {
  it("still bounds the window, with an extractive summary, and never calls the LLM", async () => {
    const sid = uniqueId("offline");
    await append(sid, [{ id: "sys", role: "system", content: "You are a travel assistant." }], { env });
    const sent: MessageInput[] = [];
    let compressions = 0;
    for (let i = 0; i < 60; i++) {
      const m = turn(i);
      const res = await append(sid, [m], { env }); // drains the background compression
      sent.push(m);
      if (res.compressionDue) compressions += 1;
      const state = await readSession(sid, { env });
      expect(state.stats.windowTokens).toBeLessThanOrEqual(300);
      if (res.compressionDue) expect(ids(state.window)).toEqual(ids(sent.slice(-KEEP)));
    }
    expect(compressions).toBeGreaterThanOrEqual(2);

    const state = await readSession(sid, { env });
    const summary = state.summary as SummaryView;
    expect(summary).toMatchObject({ method: "extractive", version: compressions, covered: sent.length - state.window.length });
    expect(summary.text).toMatch(/^user: /m);
    expect(summary.tokens).toBeGreaterThan(0);
    expect(summary.tokens).toBeLessThanOrEqual(500); // SUMMARY_MAX_TOKENS default
    const history = await readHistory(sid, { env });
    expect([...ids(history.archived), ...ids(state.window)]).toEqual(ids(sent));
    expect(ids(state.system)).toEqual(["sys"]);

    // forced, too (keeping 2, so something goes even right after a compression kept 4)
    const forced = await compress(sid, { force: true, env: { ...env, MEMORY_KEEP: "2" } });
    expect(forced).toMatchObject({ compressed: true, method: "extractive", version: compressions + 1, removed: state.window.length - 2 });
    const ctx = await readContext(sid, "", { env });
    expect(ctx.messages[0]?.content).toBe("You are a travel assistant.");
    expect(ctx.messages[1]?.content).toContain(((await readSession(sid, { env })).summary as SummaryView).text);

    expect(await chatRequests()).toEqual([]);
  });
});
