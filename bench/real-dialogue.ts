/**
 * What memory keeps of real multi-session dialogue: LoCoMo (snap-research/LoCoMo, `data/locomo10.json`,
 * 10 conversations of two people over 19-32 dated sessions) sent to the native append API as a
 * chat app would, then asked about in a new session.
 *
 * Each conversation is run twice, once per speaker: that speaker is the memory's user, the other
 * one the assistant, one append per exchange (the user's lines and the replies after them). Then
 * each question whose evidence that user said, and which names them, is asked in first person
 * ("When did Caroline ..." -> "When did I ...") in a new session. Scored: the share of the gold
 * answer's content words found in (a) the top 10 memories of `GET /v1/users/{u}/facts?query=&k=10`,
 * (b) the context `GET /v1/sessions/{new}/context?query=&userId=` returns (what a model would see).
 * Every message carries its time (`ts`: the session's date, as LoCoMo states it), as an app
 * importing past conversations sends them, so relative dates resolve against when they were said.
 *
 * Two arms in the same run, on one Worker (`FACT_EXTRACTION=heuristic`, defaults otherwise): the
 * product as configured ("learner") and the baseline that stores every user line as sent
 * (`persist: true`, "verbatim"). Conversations 0-4 are the half to tune on, 5-9 the held-out half;
 * the figures are printed per half.
 *
 *   LOCOMO=/path/to/locomo10.json npx tsx bench/real-dialogue.ts
 *   LOCOMO_CONVERSATIONS=0,1 ...   only these conversations (default: all ten)
 *   VERBOSE=1 ...                  every question with what each arm found
 *
 * The file is not committed (its licence is non-commercial): fetch it from the LoCoMo repository.
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { DEV_DENSE_MODEL } from "../tools/upstash-local/vector/config.ts";
import { startBenchWorker } from "./support/workers/bench-worker.ts";
import { CATEGORIES, answerShare, readLocomo, type SpeakerView } from "./support/learning/locomo.ts";

const path = process.env.LOCOMO;
if (!path || !existsSync(path)) {
  console.log(
    "LoCoMo is not here. Get data/locomo10.json from the snap-research/LoCoMo repository on GitHub (non-commercial licence:\n" +
      "do not commit it), then run: LOCOMO=/path/to/locomo10.json npx tsx bench/real-dialogue.ts",
  );
  process.exit(0);
}

const API_KEY = "bench-key";
const TOP = 10;
/** Users (speaker views) run at once. */
const PARALLEL = 4;
const TUNE = [0, 1, 2, 3, 4];
const indices = (process.env.LOCOMO_CONVERSATIONS ?? "0,1,2,3,4,5,6,7,8,9").split(",").map(Number);
const verbose = process.env.VERBOSE === "1";

type Arm = "learner" | "verbatim";
const ARMS: readonly Arm[] = ["learner", "verbatim"];

interface Score {
  questions: number;
  top: number;
  context: number;
}
interface ArmTally {
  byCategory: Map<number, Score>;
  userLines: number;
  stored: number;
  /** Of `stored`, the episodes (the user's messages kept as said). */
  episodes: number;
}
const emptyTally = (): ArmTally => ({ byCategory: new Map(), userLines: 0, stored: 0, episodes: 0 });
/** Tallies by half ("tune" / "held-out") and arm. */
const tallies = new Map<string, ArmTally>();
const tallyOf = (half: string, arm: Arm): ArmTally => {
  const key = `${half}/${arm}`;
  let t = tallies.get(key);
  if (!t) tallies.set(key, (t = emptyTally()));
  return t;
};

const upstash = await startUpstashLocal({
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "hybrid", denseModel: DEV_DENSE_MODEL },
});
const worker = await startBenchWorker({ ...upstash.env, API_KEYS: `bench:${API_KEY}`, FACT_EXTRACTION: "heuristic" });
const base = worker.base;
const run = Date.now().toString(36);

async function call<T>(method: string, route: string, body?: unknown): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    // A loaded machine can drop a connection or answer 503: retried a few times, as a client would.
    const res = await fetch(new URL(route, base), {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((err: unknown) => (attempt < 3 ? null : Promise.reject(err)));
    if (res?.ok) return (await res.json()) as T;
    const text = res ? await res.text() : "connection failed";
    if ((!res || res.status >= 500) && attempt < 3) {
      await new Promise((r) => setTimeout(r, 1000 * (attempt + 1)));
      continue;
    }
    throw new Error(`${method} ${route}: HTTP ${res?.status} ${text.slice(0, 300)}`);
  }
}

async function allFacts(userId: string): Promise<{ id: string; text: string; type: string }[]> {
  const facts: { id: string; text: string; type: string }[] = [];
  let cursor = "";
  do {
    const page = await call<{ facts: { id: string; text: string; type: string }[]; nextCursor: string | null }>(
      "GET",
      `/v1/users/${userId}/facts?limit=1000${cursor ? `&cursor=${cursor}` : ""}`,
    );
    facts.push(...page.facts);
    cursor = page.nextCursor ?? "";
  } while (cursor);
  return facts;
}

/**
 * Background work (fact delivery, learning) is done when the user's facts have not changed for
 * `STABLE` polls in a row: one upsert embeds up to 100 texts, which takes seconds on a loaded machine.
 */
async function settle(userId: string): Promise<{ stored: number; episodes: number }> {
  const STABLE = 4;
  let last = -1;
  let same = 0;
  let episodes = 0;
  for (let i = 0; i < 300 && same < STABLE; i++) {
    await new Promise((r) => setTimeout(r, 1500));
    const all = await allFacts(userId);
    same = all.length === last ? same + 1 : 0;
    last = all.length;
    episodes = all.filter((f) => f.type === "episode").length;
  }
  return { stored: last, episodes };
}

/** Runs one speaker view in one arm; answers the number of memories stored and the user's lines. */
async function runView(view: SpeakerView, arm: Arm): Promise<{ stored: number; lines: number }> {
  const half = TUNE.includes(view.conversation) ? "tune" : "held-out";
  const tally = tallyOf(half, arm);
  const userId = `${arm}-${run}-c${view.conversation}-${view.user.replace(/\W/g, "")}`;
  for (const session of view.sessions) {
    const sessionId = `${userId}-s${session.index}`;
    let exchange: { id: string; role: "user" | "assistant"; content: string; ts: number; persist?: boolean }[] = [];
    const flush = async () => {
      if (exchange.length > 0) await call("POST", `/v1/sessions/${sessionId}/messages`, { userId, messages: exchange });
      exchange = [];
    };
    for (const [i, turn] of session.turns.entries()) {
      const role = turn.speaker === view.user ? "user" : "assistant";
      // A new exchange starts with the user's first line after a reply.
      if (role === "user" && exchange.some((m) => m.role === "assistant")) await flush();
      if (role === "user") tally.userLines += 1;
      exchange.push({
        // The dialogue id makes a retried append idempotent.
        id: turn.dia_id.replace(/\W/g, "-"),
        role,
        content: turn.text,
        // When it was said: the session's date, a second per line (history imported with its own time).
        ts: session.startsAt + i * 1000,
        ...(role === "user" && arm === "verbatim" ? { persist: true } : {}),
      });
    }
    await flush();
  }
  const { stored, episodes } = await settle(userId);
  tally.stored += stored;
  tally.episodes += episodes;
  const asked = `${userId}-ask`;
  for (const q of view.questions) {
    const query = encodeURIComponent(q.text);
    const [found, context] = await Promise.all([
      call<{ facts: { text: string }[] }>("GET", `/v1/users/${userId}/facts?query=${query}&k=${TOP}`),
      call<{ messages: { content: string | null }[] }>("GET", `/v1/sessions/${asked}/context?query=${query}&userId=${userId}`),
    ]);
    const topShare = answerShare(q.answer, found.facts.map((f) => f.text).join("\n"));
    const contextShare = answerShare(q.answer, context.messages.map((m) => m.content ?? "").join("\n"));
    if (topShare === null || contextShare === null) continue;
    const score = tally.byCategory.get(q.category) ?? { questions: 0, top: 0, context: 0 };
    score.questions += 1;
    score.top += topShare;
    score.context += contextShare;
    tally.byCategory.set(q.category, score);
    if (verbose && half === "tune")
      console.log(`[${arm}] ${q.text} -> ${q.answer}: top ${topShare.toFixed(2)}, context ${contextShare.toFixed(2)}`);
  }
  return { stored, lines: view.sessions.reduce((n, s) => n + s.turns.filter((t) => t.speaker === view.user).length, 0) };
}

const started = performance.now();
const views = readLocomo(path, indices);
const jobs = views.flatMap((view) => ARMS.map((arm) => ({ view, arm })));
let next = 0;
let done = 0;
await Promise.all(
  Array.from({ length: Math.min(PARALLEL, jobs.length) }, async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const { stored, lines } = await runView(job.view, job.arm);
      done += 1;
      console.log(
        `  ${done}/${jobs.length} conversation ${job.view.conversation}, ${job.view.user} as the user, ${job.arm}: ${stored} memories from ${lines} lines (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
await worker.dispose();
await upstash.close();

const f3 = (n: number): string => n.toFixed(3).replace(/^0/, "");
console.log(
  `\nLoCoMo answer words (share of the gold answer's content words), ${views.length} speaker views; ${seconds.toFixed(0)} s, load average ${loadavg()[0]?.toFixed(1)}`,
);
for (const half of ["tune", "held-out"]) {
  if (!ARMS.some((arm) => tallies.has(`${half}/${arm}`))) continue;
  console.log(`\n${half === "tune" ? "conversations 0-4 (tuned on)" : "conversations 5-9 (held out)"}`);
  console.log(`arm        category       questions   top-${TOP}   context`);
  for (const arm of ARMS) {
    const t = tallyOf(half, arm);
    const all: Score = { questions: 0, top: 0, context: 0 };
    const nonTemporal: Score = { questions: 0, top: 0, context: 0 };
    for (const [category, s] of [...t.byCategory.entries()].sort((a, b) => a[0] - b[0])) {
      console.log(
        `${arm.padEnd(10)} ${CATEGORIES[category]!.padEnd(14)} ${String(s.questions).padStart(9)}   ${f3(s.top / s.questions).padStart(6)}   ${f3(s.context / s.questions).padStart(7)}`,
      );
      for (const sum of category === 2 ? [all] : [all, nonTemporal]) {
        sum.questions += s.questions;
        sum.top += s.top;
        sum.context += s.context;
      }
    }
    for (const [label, s] of [
      ["non-temporal", nonTemporal],
      ["all", all],
    ] as const) {
      if (s.questions > 0)
        console.log(
          `${arm.padEnd(10)} ${label.padEnd(14)} ${String(s.questions).padStart(9)}   ${f3(s.top / s.questions).padStart(6)}   ${f3(s.context / s.questions).padStart(7)}`,
        );
    }
    const perLine = (n: number): string => (n / Math.max(1, t.userLines)).toFixed(2);
    console.log(
      `${arm.padEnd(10)} per user line: ${perLine(t.stored - t.episodes)} facts, ${perLine(t.episodes)} episodes (${t.stored} memories / ${t.userLines} lines)`,
    );
  }
}
