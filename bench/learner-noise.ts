/**
 * How much of what the offline learner learns from real dialogue is noise: LoCoMo
 * (snap-research/LoCoMo, `data/locomo10.json`, 10 conversations of two people over 19-32 dated
 * sessions), each conversation once per speaker (that speaker is the user, the other the
 * assistant). Each user line goes through `HeuristicFactExtractor` in-process on its own, with the
 * other speaker's line before it as the assistant message, both at the session's time.
 *
 * Printed per half (conversations 0-4 to tune on, 5-9 held out) and per learner (this tree, and
 * the learner of `LEARNER_BASELINE_REF`, default `main`, exported from git and run in the same
 * process): learned facts per user line, and on the labelled sample (one user line in 8 of the tune
 * half, chosen by a hash) the share of learned facts labelled noise. Labels
 * (`bench/data/learning/locomo-noise-labels.json`, made by hand) are keyed by conversation,
 * dialogue id, speaker and a short hash of the learned text, so a text either learner learns is
 * labelled once, and no text of the data set is committed. Noise: a reaction, small talk, advice
 * or an invitation to the other person, a text unreadable without its context (an unresolved "it",
 * "that", "they"), wrong or broken text.
 *
 *   LOCOMO=/path/to/locomo10.json npx tsx bench/learner-noise.ts
 *   LEARNER_BASELINE_REF=none ...   this tree only
 *   --unlabelled                    also print the sampled facts without a label, with their lines (to label them; never commit that output)
 *   VERBOSE=1 ...                   also print this tree's sampled facts with their labels
 *
 * The file is not committed (its licence is non-commercial): fetch it from the LoCoMo repository.
 */
import { existsSync } from "node:fs";
import { HeuristicFactExtractor } from "../src/llm/heuristic-extractor.ts";
import type { FactExtractor } from "../src/memory/ports/llm.ts";
import { readLocomo } from "./support/learning/locomo.ts";
import {
  factKey,
  type LabelTally,
  type LearnedLine,
  learnerOfRef,
  learnView,
  readLabels,
  SAMPLE_EVERY,
  TUNE,
  tallyOf,
} from "./support/learning/learner-noise.ts";

const path = process.env.LOCOMO;
if (!path || !existsSync(path)) {
  console.log(
    "LoCoMo is not here. Get data/locomo10.json from the snap-research/LoCoMo repository on GitHub (non-commercial licence:\n" +
      "do not commit it), then run: LOCOMO=/path/to/locomo10.json npx tsx bench/learner-noise.ts",
  );
  process.exit(0);
}

const ref = process.env.LEARNER_BASELINE_REF ?? "main";
const learners: { label: string; extractor: FactExtractor }[] = [];
if (ref !== "none") {
  const baseline = await learnerOfRef(ref);
  learners.push({ label: `${ref} (${baseline.commit})`, extractor: baseline.extractor });
}
learners.push({ label: "this tree", extractor: new HeuristicFactExtractor() });

const views = readLocomo(path, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
const labels = readLabels();
const results: { label: string; lines: LearnedLine[] }[] = [];
for (const { label, extractor } of learners) {
  const lines: LearnedLine[] = [];
  for (const view of views) lines.push(...(await learnView(extractor, view)));
  results.push({ label, lines });
}

const pct = (n: number, d: number): string => (d === 0 ? "     -" : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
const share = (v: LabelTally): string => `${pct(v.noise, v.labelled)} (${v.noise}/${v.labelled})`.padEnd(18);
const halves = [
  ["tune (0-4)", (c: number) => TUNE.includes(c)],
  ["held-out (5-9)", (c: number) => !TUNE.includes(c)],
] as const;
const tallies = halves.map(([half, inHalf]) => ({
  half,
  rows: results.map(({ label, lines }) => ({
    label,
    t: tallyOf(
      lines.filter((l) => inHalf(l.conversation)),
      labels,
    ),
  })),
}));

const all = results[0]?.lines ?? [];
console.log(
  `LoCoMo: ${views.length / 2} conversations, each speaker as the user: ${all.length} user lines ` +
    `(${all.filter((l) => TUNE.includes(l.conversation)).length} in the tune half 0-4); labelled sample: 1 user line in ${SAMPLE_EVERY} ` +
    `of the tune half (${all.filter((l) => l.sampled).length} lines); ${Object.keys(labels).length} labels\n`,
);
console.log(
  `Learned facts per user line\n${"half".padEnd(16)}${"learner".padEnd(18)}${"lines".padStart(6)} ${"facts".padStart(6)} ${"/line".padStart(6)}`,
);
for (const { half, rows } of tallies) {
  for (const { label, t } of rows)
    console.log(
      `${half.padEnd(16)}${label.padEnd(18)}${String(t.lines).padStart(6)} ${String(t.facts).padStart(6)} ${(t.facts / Math.max(1, t.lines)).toFixed(2).padStart(6)}`,
    );
}
console.log(
  `\nNoise among labelled facts, tune half (held-out: not labelled)\n${"learner".padEnd(18)}` +
    `sampled lines: facts  labelled  noise               lines with an ok fact   every fact of the half: labelled  noise`,
);
for (const { label, t } of tallies[0]?.rows ?? []) {
  // The whole half counts only where every fact is labelled: labels made for another learner are no sample of this one.
  const whole = t.all.labelled === t.all.facts ? share(t.all) : `- (${t.all.labelled} of ${t.all.facts} labelled)`;
  console.log(
    `${label.padEnd(18)}${String(t.sampled.facts).padStart(20)} ${String(t.sampled.labelled).padStart(9)}  ${share(t.sampled)}  ${String(t.linesWithOk).padStart(5)} of ${t.sampledLines}` +
      `${String(t.all.labelled).padStart(36)}  ${whole}`,
  );
}
/** Facts to label: every learner's facts on the sampled lines, and this tree's on the whole tune half. */
const toLabel = (learner: number, line: LearnedLine): boolean =>
  TUNE.includes(line.conversation) && (line.sampled || learner === results.length - 1);
const unlabelled = new Set(
  results.flatMap(({ lines }, i) =>
    lines.flatMap((l) => (toLabel(i, l) ? l.facts.map((f) => factKey(l, f)).filter((k) => !labels[k]) : [])),
  ),
);
if (unlabelled.size > 0) console.log(`\n${unlabelled.size} facts to label have no label yet: run with --unlabelled to see them.`);

if (process.env.VERBOSE === "1") {
  console.log("\nThis tree's facts on the tune half, with their labels:");
  for (const line of results.at(-1)?.lines ?? []) {
    for (const fact of TUNE.includes(line.conversation) ? line.facts : [])
      console.log(`  ${(labels[factKey(line, fact)] ?? "?").padEnd(6)} ${fact}`);
  }
}

if (process.argv.includes("--unlabelled")) {
  console.log("\nFacts to label without a label (key, the assistant's line, the user's line, the fact):");
  const seen = new Set<string>();
  for (const [i, { label, lines }] of results.entries()) {
    for (const line of lines) {
      for (const fact of toLabel(i, line) ? line.facts : []) {
        const key = factKey(line, fact);
        if (labels[key] || seen.has(key)) continue;
        seen.add(key);
        console.log(`\n${key}  [${label}]\n  A: ${line.assistant.slice(0, 200)}\n  U: ${line.text}\n  F: ${fact}`);
      }
    }
  }
}
