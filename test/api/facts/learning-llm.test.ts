import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import { chatRequests, readSession, resetLlm, turnRequests } from "../support/chat.ts";
import { addFact, exportUser, listAll, listLearned, recall, type FactView } from "../support/facts.ts";
import { promptText, scriptLlm, type LlmRequest, type ScriptedAnswer } from "../support/llm.ts";
import { memoryClient } from "../support/openai.ts";

/** Learning with FACT_EXTRACTION=llm, through the proxy, against a fake LLM whose extraction answers are scripted. */

const LLM = { FACT_EXTRACTION: "llm" };
const MODEL = "fake-model";
/** The first words of the extraction prompt: what tells an extraction call from a chat call. */
const MARKER = "You maintain the long-term memory";
const VERSION = "llm-extract/3";

type Op = { op: string; memory: string; text: string; type: string; importance: number };
const ops = (...operations: Op[]): ScriptedAnswer => ({ text: JSON.stringify({ operations }) });
const add = (text: string, type = "fact", importance = 0.8): Op => ({ op: "add", memory: "", text, type, importance });
const NOTHING = ops();

const extractionCalls = async (): Promise<LlmRequest[]> => (await chatRequests()).filter((r) => promptText(r).includes(MARKER));
const byText = (facts: FactView[]) => new Map(facts.map((f) => [f.text, f]));

beforeEach(resetLlm);
afterEach(resetLlm);

describe("learning through the proxy with FACT_EXTRACTION=llm", () => {
  it("learns a conversation held with the official openai client (one extraction call per non-filler line); a new session of the user recalls it", async () => {
    const uid = uniqueId("learner");
    const first = memoryClient(uniqueId("conv"), uid, { env: LLM });
    const lines = [
      "Hi!",
      "My sister Mia lives in Lisbon and works as an architect.",
      "thanks 🙏",
      "We adopted a rescue greyhound called Biscuit last month.",
      "ok",
      "我老公是做牙医的。",
    ];
    await scriptLlm(MARKER, [
      ops(add("The user's sister Mia lives in Lisbon and works as an architect.", "fact", 0.9)),
      ops(add("The user adopted a rescue greyhound called Biscuit.", "fact", 0.8)),
      ops(add("用户的丈夫是牙医。", "fact", 0.9)),
    ]);
    for (const content of lines) {
      const res = await first.openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content }] });
      expect(res.choices[0]?.message.content).toBe(content);
      await first.drain();
    }
    const calls = await extractionCalls();
    expect(calls).toHaveLength(3);
    const learnedFrom = [lines[1], lines[3], lines[5]];
    calls.forEach((call, i) => {
      const prompt = promptText(call);
      expect(prompt).toContain(`user: ${learnedFrom[i]}`);
      // the assistant's previous reply comes along as context, marked so
      expect(prompt).toContain(`assistant (context only): ${lines[i * 2]}`);
      expect(prompt).toMatch(/\[\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(\w+day\)\] user:/);
    });
    const facts = await listLearned(uid);
    expect(facts.map((f) => f.text).sort()).toEqual(
      [
        "The user's sister Mia lives in Lisbon and works as an architect.",
        "The user adopted a rescue greyhound called Biscuit.",
        "用户的丈夫是牙医。",
      ].sort(),
    );
    for (const f of facts) expect(f.metadata).toEqual({ learnedBy: VERSION });

    // A new session of the same user: the question's chat call carries what was learned.
    await scriptLlm(MARKER, [NOTHING, NOTHING]);
    const second = memoryClient(uniqueId("conv"), uid, { env: LLM });
    for (const [question, expected] of [
      ["What does my sister Mia do for work?", "architect"],
      ["What is the name of the greyhound we adopted?", "Biscuit"],
    ] as const) {
      await second.openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: question }] });
      await second.drain();
      const [turn] = turnRequests(await chatRequests(), question);
      expect(turn, question).toBeDefined();
      expect(promptText(turn!)).toContain(expected);
    }
  });

  it("applies ADD, UPDATE, DELETE (supersede) and NONE as the extractor returns them", async () => {
    const uid = uniqueId("ops");
    const paris = await addFact(uid, { text: "The user lives in Paris.", type: "fact", importance: 0.9 });
    const mia = await addFact(uid, { text: "The user's sister Mia lives in Lisbon.", type: "fact", importance: 0.8 });
    await scriptLlm(MARKER, [
      ops(
        { op: "supersede", memory: paris.id, text: "The user lives in Berlin.", type: "fact", importance: 0.9 },
        {
          op: "update",
          memory: mia.id,
          text: "The user's sister Mia lives in Lisbon and works as an architect.",
          type: "fact",
          importance: 0.9,
        },
        add("The user started learning the cello in March 2026.", "experience", 0.6),
        { op: "none", memory: "", text: "", type: "context", importance: 0 },
      ),
    ]);
    const { openai, drain } = memoryClient(uniqueId("conv"), uid, { env: LLM });
    await openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "I moved to Berlin last week, Mia is an architect now, and I started the cello in March." }],
    });
    await drain();
    expect(await extractionCalls()).toHaveLength(1);

    const facts = await listLearned(uid);
    expect(facts).toHaveLength(4);
    const texts = byText(facts);
    const berlin = texts.get("The user lives in Berlin.")!;
    expect(berlin).toMatchObject({ metadata: { learnedBy: VERSION } });
    expect(berlin.supersededAt).toBeUndefined();
    expect(texts.get("The user lives in Paris.")).toMatchObject({
      id: paris.id,
      supersededAt: expect.any(Number),
      supersededBy: berlin.id,
      version: 2,
    });
    expect(texts.get("The user's sister Mia lives in Lisbon and works as an architect.")).toMatchObject({
      id: mia.id,
      version: 2,
      history: [{ text: "The user's sister Mia lives in Lisbon." }],
    });
    expect(texts.get("The user started learning the cello in March 2026.")).toMatchObject({
      type: "experience",
      metadata: { learnedBy: VERSION },
    });

    // Recall returns the current fact, never the superseded one; the export keeps both.
    const recalled = await recall(uid, "Where does the user live?", { minScore: "0" });
    expect(recalled.map((f) => f.text)).toContain("The user lives in Berlin.");
    expect(recalled.map((f) => f.text)).not.toContain("The user lives in Paris.");
    const exported = byText((await exportUser(uid)).facts);
    expect(exported.get("The user lives in Paris.")).toMatchObject({ supersededAt: expect.any(Number), supersededBy: berlin.id });
    expect(exported.get("The user lives in Berlin.")?.supersededAt).toBeUndefined();
  });

  it("an LLM failing upstream does not stop learning: the offline learner takes the turn", async () => {
    const uid = uniqueId("fallback");
    // The Worker's client tries twice; both extraction attempts fail.
    await scriptLlm(MARKER, [
      { status: 503, message: "overloaded" },
      { status: 503, message: "overloaded" },
    ]);
    const { openai, drain } = memoryClient(uniqueId("conv"), uid, { env: LLM });
    await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "记住，我对花生过敏" }] });
    await drain();
    expect(await extractionCalls()).toHaveLength(2);
    const facts = await listLearned(uid);
    expect(facts.some((f) => f.text.includes("花生过敏"))).toBe(true);
    for (const f of facts) expect(f.metadata?.learnedBy).not.toBe(VERSION);
  });

  it("malformed extractor output changes nothing: asked twice, then dropped whole", async () => {
    const uid = uniqueId("malformed");
    await addFact(uid, { text: "The user's dog is called Rex.", type: "fact" });
    const before = await listAll(uid);
    const valid = add("The user lives in Oslo.");
    // The second answer starts well and then names a memory that was never offered: refused whole.
    await scriptLlm(MARKER, [
      { text: "Sure! Here are the facts: the user lives in Oslo." },
      { text: JSON.stringify({ operations: [valid, { ...valid, op: "update", memory: "m9" }] }) },
    ]);
    const { openai, drain } = memoryClient(uniqueId("conv"), uid, { env: LLM });
    await openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "I live in Oslo now, and Rex is getting old." }],
    });
    await drain();
    expect(await extractionCalls()).toHaveLength(2);
    expect(await listAll(uid)).toEqual(before);
  });
});

describe("the proxy speaks the app's language", () => {
  it("X-Memory-Persist: true keeps the last user message as a fact as sent, without asking the extractor", async () => {
    const uid = uniqueId("persist");
    await scriptLlm(MARKER, [NOTHING, NOTHING, NOTHING]);
    const { openai, drain } = memoryClient(uniqueId("conv"), uid, { env: LLM });
    await openai.chat.completions.create(
      {
        model: MODEL,
        messages: [
          { role: "user", content: "Earlier line." },
          { role: "assistant", content: "Noted." },
          { role: "user", content: "My passport number ends in 4411." },
        ],
      },
      { headers: { "X-Memory-Persist": "true" } },
    );
    // `persist` on the message itself does the same (a field OpenAI's types do not know)
    const flagged = { role: "user", content: "I always fly with carry-on only.", persist: true } as unknown as {
      role: "user";
      content: string;
    };
    await openai.chat.completions.create({ model: MODEL, messages: [flagged] });
    await drain();
    const facts = await listLearned(uid);
    expect(facts.map((f) => f.text).sort()).toEqual(["I always fly with carry-on only.", "My passport number ends in 4411."]);
    expect(await extractionCalls()).toEqual([]);
    // only the last user message: the earlier one was not stored as a fact
    expect(facts.some((f) => f.text === "Earlier line.")).toBe(false);
  });

  it("`user` names the memory user; without X-Memory-Session the session is that user's id", async () => {
    const uid = uniqueId("enduser");
    const sid = uniqueId("conv");
    const withSession = memoryClient(sid, null);
    await withSession.openai.chat.completions.create(
      { model: MODEL, user: uid, messages: [{ role: "user", content: "I am allergic to penicillin." }] },
      { headers: { "X-Memory-Persist": "true" } },
    );
    await withSession.drain();
    expect((await listAll(uid)).map((f) => f.text)).toEqual(["I am allergic to penicillin."]);
    expect((await readSession(sid)).window.map((m) => m.content)).toEqual(["I am allergic to penicillin.", "I am allergic to penicillin."]);

    const noHeaders = memoryClient(null, null);
    await noHeaders.openai.chat.completions.create({
      model: MODEL,
      user: uid,
      messages: [{ role: "user", content: "What am I allergic to?" }],
    });
    await noHeaders.drain();
    const [turn] = turnRequests(await chatRequests(), "What am I allergic to?");
    expect(promptText(turn!)).toContain("penicillin");
    expect((await readSession(uid)).window.map((m) => m.content)).toEqual(["What am I allergic to?", "What am I allergic to?"]);
  });

  it("an SDK's automatic retry after a 502 is the same turn: the user message is stored once", async () => {
    const sid = uniqueId("retry");
    const { openai, drain, served } = memoryClient(sid, uniqueId("u"), { maxRetries: 2 });
    // The Worker's own client tries twice; both fail, so the proxy answers 502 and the SDK retries the request.
    await scriptLlm("", [
      { status: 500, message: "upstream overloaded" },
      { status: 500, message: "upstream overloaded" },
    ]);
    const res = await openai.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Book the 9:40 train." },
      ],
    });
    await drain();
    expect(res.choices[0]?.message.content).toBe("Book the 9:40 train.");
    expect(served()).toBe(2);
    expect((await readSession(sid)).window.map((m) => [m.role, m.content])).toEqual([
      ["user", "Book the 9:40 train."],
      ["assistant", "Book the 9:40 train."],
    ]);
    // The same text sent again after the reply is a new turn, as before.
    await openai.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Book the 9:40 train." },
      ],
    });
    await drain();
    expect((await readSession(sid)).window).toHaveLength(4);
  });
});
