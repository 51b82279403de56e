/**
 * @module The learner-noise bench's parts: the offline learner run on each LoCoMo user line, the
 * keys of its learned facts (conversation, dialogue id, speaker, a short hash of the text: never the
 * text, whose licence forbids committing it), the labelled sample, and a git ref's learner loaded
 * beside this tree's.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { StoredMessage } from "../../../src/memory/model.ts";
import type { FactExtractor } from "../../../src/memory/ports/llm.ts";
import type { SpeakerView } from "./locomo.ts";

/** The half labels are made on; 5-9 are held out. */
export const TUNE = [0, 1, 2, 3, 4];
/** One user line in this many (chosen by a hash of its conversation, dialogue id and speaker) is in the labelled sample. */
export const SAMPLE_EVERY = 8;

export const LABELS_PATH = new URL("../../data/learning/locomo-noise-labels.json", import.meta.url);

export type Label = "ok" | "noise";

/** One user line and what a learner learned from it. */
export interface LearnedLine {
  conversation: number;
  diaId: string;
  speaker: string;
  /** The other speaker's line before it in the session ("" at the start of a session). */
  assistant: string;
  text: string;
  sampled: boolean;
  facts: string[];
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A learned fact's label key: conversation, dialogue id, speaker and the first 12 hex digits of the text's SHA-256. */
export const factKey = (line: Pick<LearnedLine, "conversation" | "diaId" | "speaker">, fact: string): string =>
  `c${line.conversation}/${line.diaId}/${line.speaker}/${sha(fact).slice(0, 12)}`;

/** Whether a user line is in the labelled sample (tune half only; deterministic, spread over every conversation). */
export const inSample = (conversation: number, diaId: string, speaker: string): boolean =>
  TUNE.includes(conversation) && Number.parseInt(sha(`${conversation}/${diaId}/${speaker}`).slice(0, 8), 16) % SAMPLE_EVERY === 0;

export function readLabels(): Record<string, Label> {
  if (!existsSync(LABELS_PATH)) return {};
  return (JSON.parse(readFileSync(LABELS_PATH, "utf8")) as { labels: Record<string, Label> }).labels;
}

/**
 * Each user line of a speaker view through `extractor` on its own (no stored facts), as learning
 * sees it: the other speaker's line before it as the assistant message, both at the session's time.
 */
export async function learnView(extractor: FactExtractor, view: SpeakerView): Promise<LearnedLine[]> {
  const out: LearnedLine[] = [];
  for (const session of view.sessions) {
    let assistant = "";
    for (const turn of session.turns) {
      if (turn.speaker !== view.user) {
        assistant = turn.text;
        continue;
      }
      const message = (role: StoredMessage["role"], content: string): StoredMessage => ({
        id: `${turn.dia_id}-${role}`,
        role,
        content,
        tokens: 1,
        importance: 0.5,
        ts: session.startsAt,
      });
      const messages = assistant ? [message("assistant", assistant), message("user", turn.text)] : [message("user", turn.text)];
      const ops = await extractor.extract({ messages, existing: [] });
      out.push({
        conversation: view.conversation,
        diaId: turn.dia_id,
        speaker: view.user,
        assistant,
        text: turn.text,
        sampled: inSample(view.conversation, turn.dia_id, view.user),
        facts: ops.flatMap((op) => (op.op === "add" || op.op === "supersede" || op.op === "update" ? [op.text] : [])),
      });
      assistant = "";
    }
  }
  return out;
}

/** Labelled facts and how many of them are noise. */
export interface LabelTally {
  facts: number;
  labelled: number;
  noise: number;
}

/**
 * Per learner and half: user lines, learned facts, and two views of the labels: on the sampled
 * lines (the same lines for every learner: a before/after on equal terms) and over every labelled
 * fact of the half (all of them when the learner's output on the half is labelled in full). Also
 * the sampled lines from which at least one fact labelled ok was learned (what precision costs).
 */
export interface NoiseTally {
  lines: number;
  facts: number;
  sampledLines: number;
  sampled: LabelTally;
  all: LabelTally;
  linesWithOk: number;
}

export function tallyOf(lines: readonly LearnedLine[], labels: Readonly<Record<string, Label>>): NoiseTally {
  const t: NoiseTally = {
    lines: 0,
    facts: 0,
    sampledLines: 0,
    sampled: { facts: 0, labelled: 0, noise: 0 },
    all: { facts: 0, labelled: 0, noise: 0 },
    linesWithOk: 0,
  };
  for (const line of lines) {
    t.lines += 1;
    t.facts += line.facts.length;
    if (line.sampled) t.sampledLines += 1;
    let ok = false;
    for (const fact of line.facts) {
      const label = labels[factKey(line, fact)];
      for (const view of line.sampled ? [t.all, t.sampled] : [t.all]) {
        view.facts += 1;
        if (label === undefined) continue;
        view.labelled += 1;
        if (label === "noise") view.noise += 1;
      }
      if (label === "ok" && line.sampled) ok = true;
    }
    if (ok) t.linesWithOk += 1;
  }
  return t;
}

/**
 * The offline learner of git ref `ref`: its `src` exported to a temporary directory (sharing this
 * tree's node_modules) and imported, so both learners run in one process on the same lines.
 */
export async function learnerOfRef(ref: string): Promise<{ extractor: FactExtractor; commit: string }> {
  const commit = execFileSync("git", ["rev-parse", "--short", ref], { encoding: "utf8" }).trim();
  const dir = mkdtempSync(join(tmpdir(), "learner-noise-"));
  // The export goes when the process ends (its modules are loaded by then; the link to node_modules is removed, not followed).
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  execFileSync("sh", ["-c", `git archive ${JSON.stringify(ref)} src | tar -x -C ${JSON.stringify(dir)}`]);
  symlinkSync(resolve("node_modules"), join(dir, "node_modules"));
  const module = (await import(pathToFileURL(join(dir, "src/llm/heuristic-extractor.ts")).href)) as {
    HeuristicFactExtractor: new () => FactExtractor;
  };
  return { extractor: new module.HeuristicFactExtractor(), commit };
}
