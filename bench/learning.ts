/**
 * What memory learns from conversations: the generated dataset (bench/data/learning/dataset.json,
 * from bench/support/learning/dataset.ts) of eight people, English and Chinese, over several
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
import { readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { HeuristicFactExtractor } from "../src/llm/heuristic-extractor.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { DEV_DENSE_MODEL } from "../tools/upstash-local/vector/config.ts";
import { CueWordExtractor } from "./support/learning/cue-word-extractor.ts";
import { exportRef, startWorker } from "./support/learning/baseline.ts";
import type { DatasetPerson } from "./support/learning/dataset.ts";
import { extractorCpu, inProcess } from "./support/learning/in-process.ts";
import { API_KEY, runPerson, TOP } from "./support/learning/proxy.ts";
import { emptyTally, log, pct } from "./support/learning/score.ts";

const people = (JSON.parse(readFileSync(new URL("./data/learning/dataset.json", import.meta.url), "utf8")) as { people: DatasetPerson[] })
  .people;

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
    cpu.push(await extractorCpu(label, extractor, firstTwo, messages));
  }
  console.log(`\nin-process (extractor alone)      learned  noise            contradictions`);
  console.log(await inProcess("baseline: cue-word extractor", new CueWordExtractor(), people));
  console.log(await inProcess("offline learner", new HeuristicFactExtractor(), people));
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
          `${pct(tally.hits, tally.questions)} (${tally.hits}/${tally.questions})  ${pct(tally.abstained, tally.unrelated)} (${tally.abstained}/${tally.unrelated})  ${pct(tally.newerWins, tally.contradictions)} (${tally.newerWins}/${tally.contradictions})  ${tally.episodes}`,
      );
    }
  } finally {
    await Promise.all([upstash.close(), fake.close()]);
    rmSync(baselineRoot, { recursive: true, force: true });
  }
  console.log(`\nthrough the proxy     learned          noise            hit@${TOP}            abstention       newer wins      episodes`);
  for (const row of rows) console.log(row);
  console.log(`targets              >= 85%           <= 5%            >= 80%                             >= 90%`);
}
