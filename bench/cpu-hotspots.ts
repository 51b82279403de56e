/**
 * The functions a request spends its CPU in, sampled by V8's profiler inside workerd: one
 * scenario of bench/cpu-profile.ts (a context read, an append, a chat turn or the proxy on a
 * session of N messages; `recall` is the context read with a question for a user of 40 facts on
 * a hybrid index, as the peers bench asks it) is recorded once and replayed N times while the inspector samples.
 * Prints the top functions by self time and by total time (bundle names; a guide to what to cut,
 * the figures to quote come from cpu-profile.ts).
 *
 *   node --import tsx bench/cpu-hotspots.ts [read|recall|append|chat|proxy] [messages=1000] [repeats=300]
 */
import { createServer } from "node:net";
import WebSocket from "ws";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { API_KEY, AUTH, importRecallUser, recallRead, type ProfiledRequest } from "./support/profiling/specs.ts";
import { startBenchWorker } from "./support/workers/bench-worker.ts";

const [kind = "read", sizeArg = "1000", repeatsArg = "300"] = process.argv.slice(2);
const SIZE = Number(sizeArg);
const REPEATS = Number(repeatsArg);
/** The recall scenario's user: the peers bench's 40 facts, asked the first of its questions. */
const RECALL_USER = "hot-user";

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });

const upstash = await startUpstashLocal({
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  // The recall scenario reads a hybrid index, the default `VECTOR_INDEX`, with Worker fusion.
  vector: kind === "recall" ? { kind: "hybrid" } : { kind: "dense" },
});
const fake = await startFakeOpenAI({ port: 0 });
fake.setMode({ mode: "fixed", text: "Noted, thanks for telling me." });
const inspectorPort = await freePort();
const worker = await startBenchWorker(
  {
    ...upstash.env,
    VECTOR_INDEX: kind === "recall" ? "hybrid" : "dense",
    API_KEYS: `bench:${API_KEY}`,
    OPENAI_BASE_URL: `${fake.url}/v1`,
    OPENAI_API_KEY: "bench",
    MEMORY_MAX_TOKENS: "1000000",
  },
  { entrypoint: "bench/support/profiling/entry.ts", inspectorPort },
);
const { base } = worker;

const call = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(new URL(path, base), init);
  return { status: res.status, text: await res.text() };
};

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

try {
  const session = `hot-${Date.now().toString(36)}`;
  await call(`/v1/sessions/${session}/messages`, {
    method: "POST",
    headers: AUTH,
    body: JSON.stringify({ messages: [{ role: "system", content: "You are a travel assistant." }] }),
  });
  if (kind === "recall") await importRecallUser(call, RECALL_USER);
  for (let start = 0; start < SIZE; start += 100) {
    const messages = Array.from({ length: Math.min(100, SIZE - start) }, (_, j) => ({
      role: (start + j) % 2 === 0 ? "user" : "assistant",
      content: `Turn ${start + j}: a message about Lisbon, trams 28 and 12, budget ${start + j} euros.`,
    }));
    await call(`/v1/sessions/${session}/messages`, { method: "POST", headers: AUTH, body: JSON.stringify({ messages }) });
  }
  const specs: Record<string, ProfiledRequest> = {
    read: { method: "GET", path: `/v1/sessions/${session}/context`, headers: AUTH, texts: [] },
    recall: recallRead(session, RECALL_USER),
    append: {
      method: "POST",
      path: `/v1/sessions/${session}/messages`,
      headers: AUTH,
      body: JSON.stringify({
        messages: [
          { role: "user", content: "Which day suits Sintra best?" },
          { role: "assistant", content: "A weekday; book ahead." },
        ],
      }),
      texts: [],
    },
    chat: {
      method: "POST",
      path: `/v1/sessions/${session}/chat`,
      headers: AUTH,
      body: JSON.stringify({ message: "what next?", messageId: "c1", userId: "u1" }),
      texts: [],
    },
    proxy: {
      method: "POST",
      path: "/v1/chat/completions",
      headers: { ...AUTH, "x-memory-session": session },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "and then?" }] }),
      texts: [],
    },
  };
  const spec = specs[kind];
  if (!spec) throw new Error(`unknown scenario ${kind}`);
  const rec = await call("/__profile/record", { method: "POST", body: JSON.stringify({ name: kind, ...spec }) });
  if (rec.status !== 200) throw new Error(rec.text);
  await call("/__profile/run", { method: "POST", body: JSON.stringify({ scenario: kind, phase: "request", n: 50 }) });

  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
    webSocketDebuggerUrl: string;
    title?: string;
  }[];
  const target = targets.find((t) => !/proxy/i.test(t.title ?? "")) ?? targets[0];
  if (!target) throw new Error("no inspector target");
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r, j) => {
    ws.once("open", r);
    ws.once("error", j);
  });
  let nextId = 1;
  const pending = new Map<number, (v: unknown) => void>();
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result);
  });
  const send = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 50 });
  await send("Profiler.start");
  const res = await call("/__profile/run", {
    method: "POST",
    body: JSON.stringify({ scenario: kind, phase: "request+background", n: REPEATS }),
  });
  const { profile } = (await send("Profiler.stop")) as {
    profile: { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };
  };
  ws.close();
  if (res.status !== 200) throw new Error(res.text);

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const total = profile.samples.length;
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / total;
  const name = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").slice(-1)[0]}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const walk = (id: number, stack: Set<string>): number => {
    const node = byId.get(id)!;
    const key = name(node);
    let hits = node.hitCount ?? 0;
    self.set(key, (self.get(key) ?? 0) + hits);
    const inner = new Set(stack).add(key);
    for (const child of node.children ?? []) hits += walk(child, inner);
    if (!stack.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + hits);
    return hits;
  };
  walk(profile.nodes[0]!.id, new Set());
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
  const perRequest = (hits: number) => ((hits * msPerSample) / REPEATS).toFixed(3);
  console.log(
    `${kind}, ${SIZE} messages, ${REPEATS} replayed requests (with background work), ${total} samples; ms per request (wall time of samples)`,
  );
  console.log("-- self --");
  for (const [k, v] of top(self, 35)) console.log(perRequest(v).padStart(8), k);
  console.log("-- total --");
  for (const [k, v] of top(inclusive, 45)) console.log(perRequest(v).padStart(8), k);
} finally {
  await worker.dispose();
  await fake.close();
  await upstash.close();
}
