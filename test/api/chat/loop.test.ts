import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MEMORY_OPTIONS } from "../../../src/memory/options.ts";
import { uniqueId } from "../support/helpers.ts";
import {
  appendMessages,
  chatRequests,
  chatTurn,
  putSettings,
  readHistory,
  readSession,
  resetLlm,
  textOf,
  transcript,
  turnRequests,
  type ChatReplyBody,
  type LlmRequest,
} from "../support/chat.ts";

/**
 * The thin manager's chat loop, one turn per request: add the user message, build the context
 * (recalling facts), ask the LLM, add the reply, compress in the background when due.
 */

const SYSTEM = "你是客服小M，回答简短。";
const FACT = "我叫小明，喜欢蓝色";
const COLOR_QUESTION = "用户喜欢什么颜色?";
const NAME_QUESTION = "用户叫什么名字?";
const FILLER = [
  "今天上海下雨了",
  "帮我查一下明天的航班",
  "第三季度的报表做完了吗",
  "会议改到下午三点",
  "请把文件发到邮箱",
  "周末有什么安排",
  "订单号是 A1024",
  "快递到哪里了",
  "这个问题怎么解决",
  "请再解释一遍",
  "价格是多少",
  "可以打折吗",
  "发票抬头写公司",
  "谢谢你的帮助",
  "还有别的选项吗",
  "先这样吧",
  "稍等一下",
];
const MESSAGES = [FACT, ...FILLER, COLOR_QUESTION, NAME_QUESTION];
const MAX_TOKENS = 60;
const KEEP = 4;
const FACTS_LABEL = DEFAULT_MEMORY_OPTIONS.factsLabel;

const systemTexts = (request: LlmRequest): string[] =>
  (request.body.messages ?? []).filter((m) => m.role === "system").map((m) => textOf(m.content));

describe("the chat loop through POST /chat", () => {
  beforeAll(resetLlm);
  afterAll(resetLlm);

  it("20 turns: every reply stored once in order, compression when due, recalled facts reach the LLM and never the window", async () => {
    expect(MESSAGES).toHaveLength(20);
    const sid = uniqueId("loop");
    const user = uniqueId("xiaoming");
    await putSettings(sid, { maxTokens: MAX_TOKENS, keep: KEEP });
    await appendMessages(sid, [{ id: "persona", role: "system", content: SYSTEM }], user);

    const turns: ChatReplyBody[] = [];
    let last: Awaited<ReturnType<typeof chatTurn>> | undefined;
    for (const [i, message] of MESSAGES.entries()) {
      last = await chatTurn(sid, { message, messageId: `turn-${i}`, userId: user, persist: i === 0 });
      expect(last.json.reply).toEqual({ id: `turn-${i}.reply`, role: "assistant", content: message });
      turns.push(last.json);
    }

    // Stored: each user message and its reply once, in order, across the archive and the window.
    const stored = await transcript(sid);
    expect(stored.map((m) => [m.id, m.role, m.content])).toEqual(
      MESSAGES.flatMap((message, i) => [
        [`turn-${i}`, "user", message],
        [`turn-${i}.reply`, "assistant", message],
      ]),
    );

    // Compression happened when due: one rolling summary, archived originals, a bounded window.
    const session = await readSession(sid);
    const history = await readHistory(sid);
    expect(session.summary).not.toBeNull();
    expect(session.summary?.version ?? 0).toBeGreaterThanOrEqual(1);
    expect(history.archived.length).toBeGreaterThan(0);
    expect(history.summary?.covered).toBe(history.archived.length);
    const windowTokens = session.window.reduce((total, m) => total + m.tokens, 0);
    expect(
      windowTokens <= MAX_TOKENS || session.window.length <= KEEP,
      `window of ${session.window.length} messages, ${windowTokens} tokens`,
    ).toBe(true);
    expect(turns.some((t) => t.memory.compressionDue)).toBe(true);
    // Later turns were built on the summary the earlier turns made due.
    expect(turns.at(-1)?.memory.summaryVersion ?? 0).toBeGreaterThanOrEqual(1);
    expect(turns.at(-1)?.memory.contextTokens.summary ?? 0).toBeGreaterThan(0);

    // The persona stays pinned: first in every turn's prompt, never summarized.
    expect(session.system.map((m) => m.content)).toEqual([SYSTEM]);
    const requests = await chatRequests();
    for (const message of MESSAGES) {
      const [request, ...again] = turnRequests(requests, message);
      expect(again, `LLM calls for "${message}"`).toHaveLength(0);
      expect(request?.body.messages?.[0]).toEqual({ role: "system", content: SYSTEM });
    }

    // Recall reached the LLM: a facts section naming 小明 / 蓝色 for the two questions.
    for (const [question, expected] of [
      [NAME_QUESTION, "小明"],
      [COLOR_QUESTION, "蓝色"],
    ] as const) {
      const [request] = turnRequests(requests, question);
      expect(request, question).toBeDefined();
      const facts = systemTexts(request as LlmRequest).filter((text) => text.startsWith(FACTS_LABEL));
      expect(facts, `system messages sent for "${question}"`).toHaveLength(1);
      expect(facts[0]).toContain(expected);
    }
    const final = turns.at(-1) as ChatReplyBody;
    const recalled = final.memory.recalled.find((r) => r.text.includes("小明"));
    expect(recalled, JSON.stringify(final.memory.recalled)).toBeDefined();

    // ... and never the stored memory: no facts section anywhere, the fact text only as the original message.
    const everything = [...session.system, ...stored].map((m) => m.content);
    expect(everything.filter((text) => text.includes(FACTS_LABEL))).toEqual([]);
    expect(stored.filter((m) => m.content.includes(FACT)).map((m) => m.id)).toEqual(["turn-0", "turn-0.reply"]);

    // The response headers say what was injected.
    const headers = (last as Awaited<ReturnType<typeof chatTurn>>).headers;
    expect(headers.get("x-memory-session")).toBe(sid);
    expect(headers.get("x-memory-recalled")).toContain(recalled?.id ?? "<none>");
    expect(headers.get("x-memory-summary-version")).toBe(String(final.memory.summaryVersion));
    expect(headers.get("x-memory-context-tokens")).toBe(String(final.memory.contextTokens.total));
  });

  it("forwards the turn's model, temperature and maxTokens to the LLM and reports its usage", async () => {
    const sid = uniqueId("params");
    const res = await chatTurn(sid, { message: "short answer please", model: "tiny-model", temperature: 0.3, maxTokens: 77 });
    const [request] = turnRequests(await chatRequests(), "short answer please");
    expect(request?.body).toMatchObject({ model: "tiny-model", temperature: 0.3, max_tokens: 77 });
    expect(res.json.model).toBe("tiny-model");
    expect(res.json.usage?.totalTokens ?? 0).toBeGreaterThan(0);
  });
});
