/** @module The learning bench without a Worker: the extractors alone on the dataset, for what they learn and their CPU per line. */
import type { Fact, StoredMessage } from "../../../src/memory/model.ts";
import type { FactExtractor } from "../../../src/memory/ports/llm.ts";
import type { DatasetLine, DatasetPerson } from "./dataset.ts";
import { emptyTally, learnedIn, log, pct } from "./score.ts";

/** CPU time of this process since `from` (user + system), µs: waiting for a busy machine's cores does not count. */
const cpuMicros = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from);
  return used.user + used.system;
};

/** The extractors alone on the dataset: learned lines, stored noise, contradictions met with a supersede. */
export async function inProcess(label: string, extractor: FactExtractor, people: readonly DatasetPerson[]): Promise<string> {
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

/**
 * CPU per user line: first `firstLines` (regular expressions compile on first use, as in a cold
 * isolate), then every line once to warm, then every line repeated.
 */
export async function extractorCpu(
  label: string,
  extractor: FactExtractor,
  firstLines: readonly StoredMessage[],
  messages: readonly StoredMessage[],
): Promise<string> {
  const first = process.cpuUsage();
  for (const m of firstLines) await extractor.extract({ messages: [m], existing: [] });
  const cold = cpuMicros(first);
  for (const m of messages) await extractor.extract({ messages: [m], existing: [] });
  const rounds = 20;
  const t0 = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const m of messages) await extractor.extract({ messages: [m], existing: [] });
  return `${label.padEnd(34)} ${(cpuMicros(t0) / (rounds * messages.length)).toFixed(0)} µs per line warm (${rounds * messages.length} lines); first two lines of the process ${(cold / 1000).toFixed(1)} ms`;
}
