/**
 * What memory learns from conversations: the generated dataset (bench/data/learning/dataset.json,
 * from bench/support/learning-dataset.ts) of eight people, English and Chinese, over several
 * sessions each - fact-bearing lines (first and third person, plans with dates, later lines that
 * contradict earlier ones) mixed with small talk and questions to the assistant - is sent line by
 * line through the proxy (`POST /v1/chat/completions`, the official `openai` client, with
 * `X-Memory-Session` and `X-Memory-User`) to the real Worker in local workerd over upstash-local
 * and a fake OpenAI-compatible LLM, with `FACT_EXTRACTION=heuristic`. After each session the
 * bench waits for background learning, then reads the user's facts; at the end it asks each
 * person's questions in a new session (`GET /v1/sessions/{new}/context?query=...&userId=...`).
 *
 * Two Workers run side by side on the same emulators: this tree (the offline learner) and a
 * baseline built from another git ref (default `main`: the cue-word extractor behind the
 * salience gate), so both figures come from the same run.
 *
 * Printed per Worker: lines learned (every keyword of a fact line in a fact stored by the end of
 * its session, or before a later line superseded it), stored noise (stored facts whose source message is small talk or a question),
 * new-session hit@3 (an expected answer in one of the top 3 recalled facts), abstention (unrelated
 * questions that recall nothing), and newer-wins (for each contradicted fact, the newer one is
 * recalled in the top 3 and no fact holding the older answer ranks above it).
 *
 *   npx tsx bench/learning.ts                    both Workers (LEARNING_BASELINE_REF=main)
 *   npx tsx bench/learning.ts --in-process       the extractors alone, no Worker (fast; no recall figures)
 *   VERBOSE=1 ...                                every stored fact and every miss
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import OpenAI from "openai";
import { unstable_startWorker } from "wrangler";
import { HeuristicFactExtractor } from "../src/llm/heuristic-extractor.ts";
import type { FactExtractor } from "../src/memory/ports/llm.ts";
import type { Fact } from "../src/memory/model.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { DEV_DENSE_MODEL } from "../tools/upstash-local/vector/config.ts";
import { CueWordExtractor } from "./support/cue-word-extractor.ts";
import type { DatasetLine, DatasetPerson } from "./support/learning-dataset.ts";

const VERBOSE = process.env.VERBOSE === "1";
const API_KEY = "bench-key";
const TOP = 3;
const people = (JSON.parse(readFileSync(new URL("./data/learning/dataset.json", import.meta.url), "utf8")) as { people: DatasetPerson[] })
  .people;
const log = (...parts: unknown[]): void => {
  if (VERBOSE) console.log(...parts);
};

interface StoredFact {
  id: string;
  text: string;
  type: string;
  sourceSession?: string;
  sourceMessage?: string;
}

interface Tally {
  factLines: number;
  learned: number;
  stored: number;
  noise: number;
  questions: number;
  hits: number;
  unrelated: number;
  abstained: number;
  contradictions: number;
  newerWins: number;
}

const emptyTally = (): Tally => ({
  factLines: 0,
  learned: 0,
  stored: 0,
  noise: 0,
  questions: 0,
  hits: 0,
  unrelated: 0,
  abstained: 0,
  contradictions: 0,
  newerWins: 0,
});
const has = (text: string, word: string): boolean => text.toLowerCase().includes(word.toLowerCase());
const learnedIn = (line: DatasetLine, texts: readonly string[]): boolean =>
  (line.keywords ?? []).every((k) => texts.some((t) => has(t, k)));
/** CPU time of this process since `from` (user + system), µs: waiting for a busy machine's cores does not count. */
const cpuMicros = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from);
  return used.user + used.system;
};
const pct = (n: number, d: number): string => (d === 0 ? "  n/a" : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

/** A Worker serving this tree, or the tree of `ref` exported to a temporary directory (sharing node_modules). */
async function startWorker(root: string, vars: Record<string, string>) {
  const worker = await unstable_startWorker({
    config: join(root, "wrangler.toml"),
    entrypoint: join(root, "src/index.ts"),
    bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }])),
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, persist: false, watch: false, logLevel: "error" },
  });
  await worker.ready;
  return { worker, base: await worker.url };
}

function exportRef(ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), "learning-baseline-"));
  execFileSync("sh", [
    "-c",
    `git archive ${JSON.stringify(ref)} src scripts wrangler.toml package.json tsconfig.json | tar -x -C ${JSON.stringify(dir)}`,
  ]);
  symlinkSync(resolve("node_modules"), join(dir, "node_modules"));
  if (existsSync("public")) symlinkSync(resolve("public"), join(dir, "public"));
  // Refs whose Worker bundles binary rank tables need them written, as the build step does.
  if (existsSync(join(dir, "scripts/rank-binaries.ts")))
    execFileSync(process.execPath, ["--import", "tsx", "scripts/rank-binaries.ts"], { cwd: dir });
  return dir;
}

/** One person's conversations through the proxy, then the questions in a new session. */
async function runPerson(base: URL, person: DatasetPerson, run: string, tally: Tally): Promise<void> {
  const client = new OpenAI({ baseURL: new URL("/v1", base).toString(), apiKey: API_KEY, maxRetries: 0 });
  const userId = `${run}-${person.id}`;
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(new URL(path, base), { headers: { authorization: `Bearer ${API_KEY}` } });
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const listFacts = async (): Promise<StoredFact[]> => (await api<{ facts: StoredFact[] }>(`/v1/users/${userId}/facts?limit=100`)).facts;
  /** Background learning is done when the user's facts stop changing. */
  const settle = async (): Promise<StoredFact[]> => {
    let last = "";
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 400));
      const facts = await listFacts();
      const now = facts
        .map((f) => `${f.id}:${f.text}`)
        .sort()
        .join("|");
      if (now === last) return facts;
      last = now;
    }
    return listFacts();
  };

  const seen = new Map<string, StoredFact>();
  const lineOfMessage = new Map<string, DatasetLine>();
  for (const [s, session] of person.sessions.entries()) {
    const sessionId = `${userId}-s${s}`;
    for (const line of session.lines) {
      // The fact a line contradicts is read before it may be superseded, so it counts as learned.
      if (line.contradicts) for (const f of await settle()) seen.set(f.id, f);
      await client.chat.completions.create(
        { model: "gpt-4o-mini", messages: [{ role: "user", content: line.text }] },
        { headers: { "X-Memory-Session": sessionId, "X-Memory-User": userId } },
      );
    }
    for (const f of await settle()) seen.set(f.id, f);
    const facts = [...seen.values()];
    const window = (await api<{ window: { id: string; role: string; content: string }[] }>(`/v1/sessions/${sessionId}`)).window;
    for (const m of window) {
      const line = session.lines.find((l) => m.role === "user" && l.text === m.content);
      if (line) lineOfMessage.set(m.id, line);
    }
    for (const line of session.lines.filter((l) => l.kind === "fact")) {
      tally.factLines += 1;
      if (
        learnedIn(
          line,
          facts.map((f) => f.text),
        )
      )
        tally.learned += 1;
      else log(`  [${person.id}] not learned: ${line.text}`);
    }
  }
  for (const f of seen.values()) {
    tally.stored += 1;
    const source = f.sourceMessage ? lineOfMessage.get(f.sourceMessage) : undefined;
    if (source?.kind === "noise") tally.noise += 1;
    log(`  [${person.id}] ${source?.kind === "noise" ? "NOISE " : ""}${f.type}: ${f.text}`);
  }

  const asked = `${userId}-new`;
  const recall = async (query: string): Promise<string[]> =>
    (await api<{ recalled: { text: string }[] }>(`/v1/sessions/${asked}/context?${new URLSearchParams({ query, userId })}`)).recalled.map(
      (r) => r.text,
    );
  for (const q of person.questions) {
    const recalled = await recall(q.text);
    const top = recalled.slice(0, TOP);
    const hit = top.findIndex((t) => q.expect.some((e) => has(t, e)));
    tally.questions += 1;
    if (hit >= 0) tally.hits += 1;
    else log(`  [${person.id}] miss: ${q.text} -> ${JSON.stringify(top)}`);
    if (q.stale) {
      tally.contradictions += 1;
      const staleAt = recalled.findIndex((t) => q.stale?.some((w) => has(t, w)) && !q.expect.some((e) => has(t, e)));
      if (hit >= 0 && (staleAt < 0 || staleAt > hit)) tally.newerWins += 1;
      else log(`  [${person.id}] older wins: ${q.text} -> ${JSON.stringify(recalled)}`);
    }
  }
  for (const text of person.unrelated) {
    tally.unrelated += 1;
    const recalled = await recall(text);
    if (recalled.length === 0) tally.abstained += 1;
    else log(`  [${person.id}] no abstention: ${text} -> ${JSON.stringify(recalled)}`);
  }
}

/** The extractors alone on the dataset: learned lines, stored noise, contradictions met with a supersede. */
async function inProcess(label: string, extractor: FactExtractor): Promise<string> {
  const tally = emptyTally();
  for (const person of people) {
    const facts: (Fact & { line: DatasetLine; gone?: boolean })[] = [];
    for (const session of person.sessions) {
      for (const line of session.lines) {
        const ops = await extractor.extract({
          messages: [{ id: line.id, role: "user", content: line.text, tokens: 1, importance: 0.5, ts: session.startedAt }],
          existing: facts.filter((f) => !f.gone),
        });
        for (const op of ops) {
          if (op.op === "skip") continue;
          if (op.op === "supersede" || op.op === "update") {
            const old = facts.find((f) => f.id === op.id);
            if (old) old.gone = true;
            if (old && line.contradicts && old.line.id === line.contradicts) tally.newerWins += 1;
          }
          facts.push({
            id: `f${facts.length}`,
            text: op.text,
            type: op.type,
            importance: op.importance,
            createdAt: session.startedAt,
            updatedAt: session.startedAt,
            lastAccessedAt: 0,
            accessCount: 0,
            version: 1,
            line,
          });
          log(`  [${person.id}] ${line.kind === "noise" ? "NOISE " : ""}${op.op} ${op.type}: ${op.text}`);
        }
        if (line.kind !== "fact") continue;
        tally.factLines += 1;
        if (line.contradicts) tally.contradictions += 1;
        if (
          learnedIn(
            line,
            facts.filter((f) => !f.gone).map((f) => f.text),
          )
        )
          tally.learned += 1;
        else log(`  [${person.id}] not learned: ${line.text}`);
      }
    }
    tally.stored += facts.length;
    tally.noise += facts.filter((f) => f.line.kind === "noise").length;
  }
  return `${label.padEnd(34)} ${pct(tally.learned, tally.factLines)}   ${pct(tally.noise, tally.stored)} (${tally.noise}/${tally.stored})   superseded ${pct(tally.newerWins, tally.contradictions)}`;
}

const lines = people.flatMap((p) => p.sessions.flatMap((s) => s.lines));
console.log(
  `dataset: ${people.length} people (${people.filter((p) => p.lang === "zh").length} Chinese), ${lines.filter((l) => l.kind === "fact").length} fact lines ` +
    `(${lines.filter((l) => l.contradicts).length} contradicting an earlier one), ${lines.filter((l) => l.kind === "noise").length} small-talk / question lines, ` +
    `${people.reduce((n, p) => n + p.questions.length, 0)} questions, ${people.reduce((n, p) => n + p.unrelated.length, 0)} unrelated questions`,
);

if (process.argv.includes("--in-process")) {
  // CPU per user line. First the first two lines the process sees (an English and a Chinese one):
  // regular expressions compile on first use, as in a cold isolate; the learner goes first, the
  // cue-word extractor then finds the shared sentence helpers compiled. Then every dataset line, repeated.
  const messages = lines.map((l) => ({
    id: l.id,
    role: "user" as const,
    content: l.text,
    tokens: 1,
    importance: 0.5,
    ts: Date.UTC(2026, 11, 1),
  }));
  const firstTwo = [
    messages.find((m) => !/\p{Script=Han}/u.test(m.content)),
    messages.find((m) => /\p{Script=Han}/u.test(m.content)),
  ].filter((m) => m !== undefined);
  const cpu: string[] = [];
  for (const [label, extractor] of [
    ["offline learner", new HeuristicFactExtractor()],
    ["baseline: cue-word extractor", new CueWordExtractor()],
  ] as const) {
    const first = process.cpuUsage();
    for (const m of firstTwo) await extractor.extract({ messages: [m], existing: [] });
    const cold = cpuMicros(first);
    for (const m of messages) await extractor.extract({ messages: [m], existing: [] });
    const rounds = 20;
    const t0 = process.cpuUsage();
    for (let r = 0; r < rounds; r++) for (const m of messages) await extractor.extract({ messages: [m], existing: [] });
    cpu.push(
      `${label.padEnd(34)} ${(cpuMicros(t0) / (rounds * messages.length)).toFixed(0)} µs per line warm (${rounds * messages.length} lines); first two lines of the process ${(cold / 1000).toFixed(1)} ms`,
    );
  }
  console.log(`\nin-process (extractor alone)      learned  noise            contradictions`);
  console.log(await inProcess("baseline: cue-word extractor", new CueWordExtractor()));
  console.log(await inProcess("offline learner", new HeuristicFactExtractor()));
  console.log(`\nCPU time of the process (this machine, load average ${loadavg()[0]?.toFixed(1)})`);
  for (const row of cpu) console.log(row);
} else {
  const ref = process.env.LEARNING_BASELINE_REF || "main";
  // The dev stack's index: hybrid, the sentence model for English and hashing for Chinese, plus BM25.
  const upstash = await startUpstashLocal({
    redisPort: 0,
    vectorPort: 0,
    redisUrl: process.env.REDIS_URL || undefined,
    vector: { kind: "hybrid", denseModel: DEV_DENSE_MODEL },
  });
  const fake = await startFakeOpenAI({ port: 0 });
  fake.setMode({ mode: "fixed", text: "Got it." });
  const vars = {
    ...upstash.env,
    OPENAI_BASE_URL: `${fake.url}/v1`,
    OPENAI_API_KEY: "bench",
    API_KEYS: `bench:${API_KEY}`,
    FACT_EXTRACTION: "heuristic",
    MEMORY_MAX_TOKENS: "1000000",
  };
  const baselineRoot = exportRef(ref);
  const rows: string[] = [];
  try {
    for (const [label, root] of [
      [`baseline (${ref})`, baselineRoot],
      ["this tree", resolve(".")],
    ] as const) {
      const { worker, base } = await startWorker(root, vars);
      const tally = emptyTally();
      const run = `learn-${label.startsWith("baseline") ? "base" : "tree"}-${Date.now().toString(36)}`;
      try {
        log(`\n${label}`);
        for (const person of people) await runPerson(base, person, run, tally);
      } finally {
        await worker.dispose();
      }
      rows.push(
        `${label.padEnd(20)} ${pct(tally.learned, tally.factLines)} (${tally.learned}/${tally.factLines})  ${pct(tally.noise, tally.stored)} (${tally.noise}/${tally.stored})  ` +
          `${pct(tally.hits, tally.questions)} (${tally.hits}/${tally.questions})  ${pct(tally.abstained, tally.unrelated)} (${tally.abstained}/${tally.unrelated})  ${pct(tally.newerWins, tally.contradictions)} (${tally.newerWins}/${tally.contradictions})`,
      );
    }
  } finally {
    await Promise.all([upstash.close(), fake.close()]);
    rmSync(baselineRoot, { recursive: true, force: true });
  }
  console.log(`\nthrough the proxy     learned          noise            hit@${TOP}            abstention       newer wins`);
  for (const row of rows) console.log(row);
  console.log(`targets              >= 85%           <= 5%            >= 80%                             >= 90%`);
}
