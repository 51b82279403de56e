/**
 * CPU per request of context assembly for a 50-message window, from stored token counts (only the
 * labels and the recalled facts are counted). Prints median and p95; asserts nothing.
 *
 *   npx tsx bench/context.ts
 */
import { assembleContext, type ContextInput } from "../src/memory/context/assemble.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../src/memory/options.ts";
import { loadTokenCounter } from "../src/llm/tokenizer.ts";
import type { Fact, RecalledFact, StoredMessage } from "../src/memory/model.ts";
import { toStoredMessage } from "../src/memory/context/window.ts";

const RUNS = 2000;
const counter = await loadTokenCounter();
let id = 0;
const store = (role: StoredMessage["role"], content: string, importance?: number) =>
  toStoredMessage({ role, content, importance }, { counter, now: 0, newId: () => `m${id++}` });

const system = [store("system", "You are a helpful support agent for an online bookshop. Answer briefly and politely.")];
const window = Array.from({ length: 50 }, (_, i) =>
  i % 2 === 0
    ? store("user", `Question ${i}: 我想找一本关于分布式系统的书，最好有中文版，预算 100 元以内。Any suggestions?`, i % 6 === 0 ? 0.2 : 0.6)
    : store(
        "assistant",
        `Answer ${i}: 推荐《数据密集型应用系统设计》，中文版约 89 元。It covers replication, partitioning and consensus in depth.`,
      ),
);
const fact = (text: string, n: number): RecalledFact => {
  const f: Fact = {
    id: `f${n}`,
    text,
    type: "preference",
    importance: 0.7,
    createdAt: 0,
    updatedAt: 0,
    lastAccessedAt: 0,
    accessCount: 2,
    version: 1,
  };
  return { fact: f, similarity: 0.8, relevance: 0.6, score: 0.7 };
};
const facts = [
  fact("用户叫小明，住在上海", 1),
  fact("Prefers Chinese translations of technical books", 2),
  fact("Budget usually under 100 yuan", 3),
];
const summaryText = "用户在找分布式系统方面的书。Earlier the assistant recommended three titles; the user bought one.";
const summary = {
  text: summaryText,
  tokens: counter.count(summaryText),
  version: 4,
  covered: 120,
  method: "llm" as const,
  updatedAt: 0,
  lastRatio: 0.2,
};
const windowTokens = window.reduce((n, m) => n + m.tokens, 0);

function measure(label: string, input: ContextInput): void {
  for (let i = 0; i < 200; i++) assembleContext(input); // warm-up
  const samples: number[] = [];
  let result = assembleContext(input);
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = assembleContext(input);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => (samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]! * 1000).toFixed(0);
  console.log(
    `${label}: median ${at(0.5)} us, p95 ${at(0.95)} us, p99 ${at(0.99)} us ` +
      `(${result.messages.length} messages, ${result.tokens.total} tokens, ${result.omitted.window} window messages left out)`,
  );
}

console.log(`50-message window of ${windowTokens} stored tokens, ${RUNS} runs each`);
const base: ContextInput = { system, summary, window, options: DEFAULT_MEMORY_OPTIONS, counter };
measure("budget 8000, no facts", base);
measure("budget 8000, 3 facts", { ...base, facts });
measure("budget 1500, 3 facts (trimming)", { ...base, facts, budget: 1500 });
