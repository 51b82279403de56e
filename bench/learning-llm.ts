/**
 * LLM learning through the proxy (`FACT_EXTRACTION=llm`), in the real Worker (local workerd) on
 * upstash-local, with a scripted OpenAI-compatible server in place of the model: chat calls get a
 * fixed reply, extraction calls the scripted decisions for the user line they carry.
 *
 * A 36-line conversation of one user over two sessions (English and Chinese; filler, facts,
 * questions to the assistant, refinements and contradictions) goes through `/v1/chat/completions`
 * with the official `openai` client. Prints:
 * - the share of non-filler user lines that reached an extraction call, and how many calls each got;
 * - filler lines that reached one (should be none);
 * - extraction calls per turn, prompt tokens per call, and the cost of a two-call design estimated
 *   from the same prompts;
 * - decisions applied exactly once: the stored facts compared with the scripted decisions;
 * - beside it, the baseline: how many of the non-filler lines the previous cue-word gate
 *   (`isSalient`) would have let through to the extractor.
 *
 * Run with `npx tsx bench/learning-llm.ts`. Prints figures only.
 */
import OpenAI from "openai";
import { EXTRACTION_INSTRUCTIONS } from "../src/llm/extraction-prompt.ts";
import { loadTokenCounter } from "../src/llm/tokenizer.ts";
import { isFiller, isSalient } from "../src/memory/facts/salience.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { startBenchWorker } from "./support/workers/bench-worker.ts";
import { SESSIONS, type Line } from "./support/learning/llm-conversation.ts";
import { startScriptedLlm, type ExtractionCall } from "./support/learning/scripted-llm.ts";

const API_KEY = "bench-key";
const REPLY = "Got it.";
const MARKER = EXTRACTION_INSTRUCTIONS.slice(0, 40);

const script = new Map(SESSIONS.flat().flatMap((l) => (l.decisions ? [[l.text, l.decisions] as const] : [])));
const upstash = await startUpstashLocal({
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "hybrid" },
});
const llm = await startScriptedLlm({ marker: MARKER, script, reply: REPLY });
const worker = await startBenchWorker({
  ...upstash.env,
  OPENAI_BASE_URL: llm.baseURL,
  OPENAI_API_KEY: "bench",
  API_KEYS: `bench:${API_KEY}`,
  FACT_EXTRACTION: "llm",
  MEMORY_MAX_TOKENS: "1000000",
});
const { base } = worker;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const userId = `ada-${Date.now().toString(36)}`;

interface StoredFact {
  id: string;
  text: string;
  type: string;
  version: number;
  history?: { text: string }[];
  supersededAt?: number;
  supersededBy?: string;
  metadata?: Record<string, unknown>;
}

async function listFacts(): Promise<StoredFact[]> {
  const out: StoredFact[] = [];
  let cursor = "";
  do {
    const res = await fetch(new URL(`/v1/users/${userId}/facts?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, base), {
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    const page = (await res.json()) as { facts: StoredFact[]; nextCursor: string | null };
    out.push(...page.facts);
    cursor = page.nextCursor ?? "";
  } while (cursor !== "");
  return out;
}

/** Waits until the extraction call for `line` has been answered and its writes are visible (the fact count settles). */
async function settle(line: Line): Promise<void> {
  const until = Date.now() + 8000;
  if (!line.filler) {
    while (!llm.calls.some((c) => c.lines.includes(line.text)) && Date.now() < until) await sleep(20);
  }
  let previous = -1;
  for (;;) {
    await sleep(line.filler ? 30 : 120);
    const count = JSON.stringify(await listFacts()).length;
    if (count === previous || Date.now() > until) return;
    previous = count;
  }
}

let turns = 0;
for (const [s, lines] of SESSIONS.entries()) {
  const openai = new OpenAI({
    baseURL: new URL("/v1", base).toString(),
    apiKey: API_KEY,
    maxRetries: 0,
    defaultHeaders: { "X-Memory-Session": `${userId}-s${s}`, "X-Memory-User": userId },
  });
  for (const line of lines) {
    await openai.chat.completions.create({ model: "bench-model", messages: [{ role: "user", content: line.text }] });
    turns += 1;
    await settle(line);
  }
}

// --- what reached the extractor
const all = SESSIONS.flat();
const nonFiller = all.filter((l) => !l.filler);
const fillers = all.filter((l) => l.filler);
const callsFor = (l: Line): number => llm.calls.filter((c) => c.lines.includes(l.text)).length;
const reached = nonFiller.filter((l) => callsFor(l) >= 1).length;
const exactlyOnce = nonFiller.filter((l) => callsFor(l) === 1).length;
const fillerReached = fillers.filter((l) => callsFor(l) > 0).length;
const classifierDisagrees = all.filter((l) => isFiller(l.text) !== (l.filler === true)).map((l) => l.text);
const cueGate = nonFiller.filter((l) => isSalient(l.text).salient).length;
const pct = (a: number, b: number) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(1)}%`);

// --- cost
const counter = await loadTokenCounter();
const tokens = (c: ExtractionCall) => counter.count(c.prompt);
const perCall = llm.calls.map(tokens);
const total = perCall.reduce((a, b) => a + b, 0);
// Two calls per turn, as some memory layers do: (1) instructions + messages -> facts, (2) instructions +
// stored memories + the extracted facts -> decisions. Each call keeps the full instructions (both
// halves of the task need the rules on what a memory is and its types) - an estimate from these prompts.
const twoCall = llm.calls.map((c) => {
  const facts = c.answered.flatMap((a) => ("text" in a.decision ? [a.decision.text] : [])).join("\n");
  return counter.count(c.system) * 2 + counter.count(c.messages) + counter.count(c.memories) + counter.count(facts);
});
const twoCallTotal = twoCall.reduce((a, b) => a + b, 0);

// --- decisions applied exactly once: replay the scripted decisions on a model, compare with what is stored
interface Expected {
  current: boolean;
  history: string[];
}
const expected = new Map<string, Expected>();
const issued = llm.calls.flatMap((c) => c.answered);
let notIssuable = 0;
let decisions = 0;
for (const { decision, alias } of issued) {
  if (decision.op === "none") continue;
  decisions += 1;
  if (decision.op === "add") expected.set(decision.text, { current: true, history: [] });
  else if (alias === "") notIssuable += 1;
  else if (decision.op === "update") {
    const old = expected.get(decision.target);
    expected.delete(decision.target);
    expected.set(decision.text, { current: true, history: [...(old?.history ?? []), decision.target] });
  } else {
    const old = expected.get(decision.target);
    expected.set(decision.target, { current: false, history: old?.history ?? [] });
    expected.set(decision.text, { current: true, history: [] });
  }
}
const memories = await listFacts(); // episodes (the user's lines as said) are counted apart
const stored = memories.filter((f) => f.type !== "episode");
let applied = 0;
const problems: string[] = [];
for (const { decision, alias } of issued) {
  if (decision.op === "none" || (decision.op !== "add" && alias === "")) continue;
  // The fact a decision wrote holds its text, or, when a later update changed it, keeps it in history.
  const holders = stored.filter((f) => f.text === decision.text || (f.history ?? []).some((h) => h.text === decision.text));
  let ok = holders.length === 1 && holders[0]!.metadata?.learnedBy !== undefined;
  const holder = holders[0];
  if (ok && holder && decision.op === "update")
    ok = (holder.history ?? []).some((h) => h.text === decision.target) && stored.every((f) => f.text !== decision.target);
  if (ok && holder && decision.op === "supersede") {
    const old = stored.filter((f) => f.text === decision.target);
    ok = old.length === 1 && old[0]!.supersededAt !== undefined && old[0]!.supersededBy === holder.id;
  }
  // a fact that is expected current is not superseded, and the other way round
  if (ok && holder) ok = expected.get(holder.text)?.current === (holder.supersededAt === undefined);
  if (ok) applied += 1;
  else problems.push(`${decision.op}: ${decision.text}`);
}
const unexpected = stored.filter((f) => !expected.has(f.text)).map((f) => f.text);
const wrongState = stored
  .filter((f) => expected.has(f.text) && expected.get(f.text)!.current !== (f.supersededAt === undefined))
  .map((f) => f.text);
const formats = [...new Set(llm.calls.map((c) => c.format ?? "none"))];

console.log(
  `learning-llm: ${all.length} user lines in ${SESSIONS.length} sessions (${nonFiller.length} non-filler, ${fillers.length} filler), ${turns} proxy turns, FACT_EXTRACTION=llm`,
);
console.log(
  `  non-filler lines that reached an extraction call: ${reached}/${nonFiller.length} (${pct(reached, nonFiller.length)}); exactly one call each: ${exactlyOnce}/${nonFiller.length}`,
);
console.log(`  filler lines that reached an extraction call: ${fillerReached}/${fillers.length}`);
console.log(
  `  baseline, the previous cue-word gate (isSalient): ${cueGate}/${nonFiller.length} non-filler lines would have reached the extractor (${pct(cueGate, nonFiller.length)})`,
);
if (classifierDisagrees.length > 0)
  console.log(`  lines isFiller classifies otherwise than the script: ${classifierDisagrees.join(" | ")}`);
console.log(
  `  extraction calls: ${llm.calls.length} for ${turns} turns (${(llm.calls.length / turns).toFixed(2)} per turn, at most one per turn: ${llm.calls.length <= turns}); chat calls: ${llm.chatCalls()}; response_format: ${formats.join(", ")}`,
);
console.log(`  prompt tokens per extraction call: median ${perCall.sort((a, b) => a - b)[Math.floor(perCall.length / 2)]}, total ${total}`);
console.log(
  `  two-call design, estimated from the same prompts: ${llm.calls.length * 2} calls, ${twoCallTotal} prompt tokens (${(twoCallTotal / Math.max(1, total)).toFixed(2)}x)`,
);
console.log(
  `  decisions (add/update/supersede) scripted: ${decisions}; not issuable (target not among the offered memories): ${notIssuable}`,
);
console.log(`  decisions applied exactly once: ${applied}/${decisions - notIssuable} (${pct(applied, decisions - notIssuable)})`);
console.log(
  `  stored facts: ${stored.length} (${stored.filter((f) => f.supersededAt !== undefined).length} superseded); unexpected: ${unexpected.length}; wrong current/superseded state: ${wrongState.length}; episodes beside them: ${memories.length - stored.length}`,
);
for (const { decision, alias } of issued) {
  if ((decision.op === "update" || decision.op === "supersede") && alias === "")
    console.log(
      `    not issuable: ${decision.op} of "${decision.target}" (not among the memories offered for "${llm.calls.find((c) => c.answered.some((a) => a.decision === decision))?.lines.join(" / ")}")`,
    );
}
for (const p of [...problems, ...unexpected.map((t) => `unexpected: ${t}`), ...wrongState.map((t) => `wrong state: ${t}`)])
  console.log(`    ${p}`);

await worker.dispose();
await llm.close();
await upstash.close();
