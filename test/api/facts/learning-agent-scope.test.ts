import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import { chatRequests, resetLlm } from "../support/chat.ts";
import { addFact, listAll } from "../support/facts.ts";
import { promptText, scriptLlm } from "../support/llm.ts";
import { append } from "../support/sessions.ts";

/**
 * Learning respects agent scope: a turn of no agent reads and supersedes only the shared facts,
 * never a fact an agent wrote for itself. Reads the fake LLM's request log: runs alone.
 */

const MARKER = "You maintain the long-term memory";

beforeEach(resetLlm);
afterEach(resetLlm);

describe("learning sees only what the turn's agent sees", () => {
  it("a plain turn does not supersede a planner's private fact (offline learner)", async () => {
    const uid = uniqueId("scope");
    const oslo = await addFact(uid, { text: "The user lives in Oslo", agentId: "planner" });
    await append(uniqueId("plain"), [{ role: "user", content: "I live in Rome." }], { userId: uid });
    const facts = new Map((await listAll(uid)).map((f) => [f.text, f]));
    expect(facts.get("The user lives in Oslo")).toMatchObject({ id: oslo.id, agentId: "planner" });
    expect(facts.get("The user lives in Oslo")?.supersededAt).toBeUndefined();
    expect(facts.get("The user lives in Rome.")?.supersededAt).toBeUndefined();
  });

  it("a plain turn still supersedes a shared fact of the relation (offline learner)", async () => {
    const uid = uniqueId("scope-shared");
    const paris = await addFact(uid, { text: "The user lives in Paris." });
    await append(uniqueId("plain"), [{ role: "user", content: "I live in Rome." }], { userId: uid });
    const facts = await listAll(uid);
    expect(facts.find((f) => f.id === paris.id)?.supersededAt).toBeTypeOf("number");
  });

  it("the LLM learner is not shown another agent's private fact (FACT_EXTRACTION=llm)", async () => {
    const uid = uniqueId("scope-llm");
    await addFact(uid, { text: "The user lives in Oslo", agentId: "planner" });
    await addFact(uid, { text: "The user lives in Bergen" });
    await scriptLlm(MARKER, [{ text: JSON.stringify({ operations: [] }) }]);
    await append(uniqueId("plain"), [{ role: "user", content: "I live in Rome now." }], { userId: uid, env: { FACT_EXTRACTION: "llm" } });
    const calls = (await chatRequests()).filter((r) => promptText(r).includes(MARKER));
    expect(calls).toHaveLength(1);
    const prompt = promptText(calls[0]!);
    // the shared fact is offered, the planner's is not
    expect(prompt).toContain("The user lives in Bergen");
    expect(prompt).not.toContain("Oslo");
  });
});
