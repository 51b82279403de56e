import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { chatRequests, readSession, resetLlm, setLlmMode, textOf, turnRequests } from "../support/chat.ts";
import { memoryClient } from "../support/openai.ts";

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const SYSTEM = "You are a terse assistant.";
const MODEL = "fake-model";

const pairs = (messages: { role: string; content: string }[]) => messages.map((m) => [m.role, m.content]);

describe("POST /v1/chat/completions with the official openai client", () => {
  beforeEach(async () => {
    await resetLlm();
    await setLlmMode({ mode: "echo", chunkDelayMs: 1 });
  });
  afterEach(resetLlm);

  it("answers a non-streaming completion and stores the turn", async () => {
    const sid = uniqueId("oa");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    const { data, response } = await openai.chat.completions
      .create({
        model: MODEL,
        messages: [
          { role: "system", content: SYSTEM },
          { role: "user", content: "hello there" },
        ],
      })
      .withResponse();
    await drain();

    expect(data.object).toBe("chat.completion");
    expect(data.choices[0]?.message.role).toBe("assistant");
    expect(data.choices[0]?.message.content).toBe("hello there");
    expect(data.choices[0]?.finish_reason).toBe("stop");
    expect(response.headers.get("x-memory-session")).toBe(sid);

    const session = await readSession(sid);
    expect(pairs(session.system)).toEqual([["system", SYSTEM]]);
    expect(pairs(session.window)).toEqual([
      ["user", "hello there"],
      ["assistant", "hello there"],
    ]);
  });

  it("streams chunks that end, then stores the whole reply", async () => {
    const sid = uniqueId("oa-stream");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    const message = "stream this answer back to me please";
    const stream = await openai.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: "user", content: message }] });

    const contents: string[] = [];
    const finishes: (string | null)[] = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk");
      const choice = chunk.choices[0];
      if (choice?.delta.content) contents.push(choice.delta.content);
      finishes.push(choice?.finish_reason ?? null);
    }
    await drain();

    expect(contents.length).toBeGreaterThanOrEqual(2);
    expect(contents.join("")).toBe(message);
    expect(finishes.at(-1)).toBe("stop");
    expect(finishes.slice(0, -1).every((f) => f === null)).toBe(true);

    const session = await readSession(sid);
    expect(pairs(session.window)).toEqual([
      ["user", message],
      ["assistant", message],
    ]);
  });

  it("pins the system message once and stores only each call's last user message across a conversation", async () => {
    const sid = uniqueId("oa-conv");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    const history: Message[] = [{ role: "system", content: SYSTEM }];
    const questions = ["first question", "second question", "third question"];
    for (const [i, question] of questions.entries()) {
      history.push({ role: "user", content: question });
      let answer: string;
      if (i === questions.length - 1) {
        const stream = await openai.chat.completions.create({ model: MODEL, stream: true, messages: history });
        answer = "";
        for await (const chunk of stream) answer += chunk.choices[0]?.delta.content ?? "";
      } else {
        const completion = await openai.chat.completions.create({ model: MODEL, messages: history });
        answer = completion.choices[0]?.message.content ?? "";
      }
      await drain();
      expect(answer).toBe(question);
      history.push({ role: "assistant", content: answer });
    }

    const session = await readSession(sid);
    expect(pairs(session.system)).toEqual([["system", SYSTEM]]);
    expect(pairs(session.window)).toEqual(
      questions.flatMap((q) => [
        ["user", q],
        ["assistant", q],
      ]),
    );

    // The LLM saw the conversation from memory, each message once.
    const [last] = turnRequests(await chatRequests(), "third question");
    expect((last?.body.messages ?? []).map((m) => [m.role, textOf(m.content)])).toEqual([
      ["system", SYSTEM],
      ...questions.slice(0, 2).flatMap((q) => [
        ["user", q],
        ["assistant", q],
      ]),
      ["user", "third question"],
    ]);
  });

  it("a changed system prompt replaces the pinned one instead of piling up", async () => {
    const sid = uniqueId("oa-persona");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    await openai.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "hello" },
      ],
    });
    await drain();
    const NEW_SYSTEM = "You are a pirate.";
    await openai.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: NEW_SYSTEM },
        { role: "user", content: "hello" },
        { role: "assistant", content: "hello" },
        { role: "user", content: "who are you?" },
      ],
    });
    await drain();
    const session = await readSession(sid);
    expect(pairs(session.system)).toEqual([["system", NEW_SYSTEM]]);
    const [turn] = turnRequests(await chatRequests(), "who are you?");
    const systems = (turn?.body.messages ?? []).filter((m) => m.role === "system").map((m) => textOf(m.content));
    expect(systems).toEqual([NEW_SYSTEM]);
    // switching back pins the first prompt again (its id is free once it was replaced)
    await openai.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "again" },
      ],
    });
    await drain();
    expect(pairs((await readSession(sid)).system)).toEqual([["system", SYSTEM]]);
  });

  it("a retry with the same Idempotency-Key stores the turn once and answers from storage", async () => {
    const sid = uniqueId("oa-retry");
    const { openai, drain, served } = memoryClient(sid, uniqueId("u"));
    const messages: Message[] = [
      { role: "system", content: SYSTEM },
      { role: "user", content: "same question" },
    ];
    const headers = { "Idempotency-Key": "retry-1" };
    const first = await openai.chat.completions.create({ model: MODEL, messages }, { headers });
    const second = await openai.chat.completions.create({ model: MODEL, messages }, { headers }).withResponse();
    await drain();

    expect(served()).toBe(2);
    expect(first.choices[0]?.message.content).toBe("same question");
    expect(second.data.choices[0]?.message.content).toBe("same question");
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expect(turnRequests(await chatRequests(), "same question")).toHaveLength(1);
    const session = await readSession(sid);
    expect(pairs(session.system)).toEqual([["system", SYSTEM]]);
    expect(pairs(session.window)).toEqual([
      ["user", "same question"],
      ["assistant", "same question"],
    ]);
  });

  it("surfaces an LLM failure to the client as an error, stream or not; with the same key the user message is stored once", async () => {
    const sid = uniqueId("oa-fail");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    await setLlmMode({ mode: "error", status: 500 });
    const messages: Message[] = [{ role: "user", content: "will this work" }];
    const headers = { "Idempotency-Key": "fail-1" };

    const plain = await openai.chat.completions.create({ model: MODEL, messages }, { headers }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(plain).toBeInstanceOf(OpenAI.APIError);
    expect((plain as InstanceType<typeof OpenAI.APIError>).status).toBe(502);

    const streamed = async (): Promise<string> => {
      let text = "";
      const stream = await openai.chat.completions.create({ model: MODEL, stream: true, messages }, { headers });
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      return text;
    };
    await expect(streamed()).rejects.toThrow();
    await drain();

    expect(pairs((await readSession(sid)).window)).toEqual([["user", "will this work"]]);
  });

  it("takes the session from the request's user field when there is no header", async () => {
    const sid = uniqueId("oa-user");
    const res = await call<OpenAI.Chat.Completions.ChatCompletion>("POST", "/v1/chat/completions", {
      body: { model: MODEL, user: sid, messages: [{ role: "user", content: "who am I" }] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.choices[0]?.message.content).toBe("who am I");
    expect(res.headers.get("x-memory-session")).toBe(sid);
    expect(pairs((await readSession(sid)).window)).toEqual([
      ["user", "who am I"],
      ["assistant", "who am I"],
    ]);
  });
});
