/**
 * @module Importing past conversations through the native append API: messages per second with
 * learning on (`FACT_EXTRACTION=heuristic`), measured until background learning has settled, for
 * messages that carry their own `ts` and, as the baseline, the same messages without it.
 *
 * The history is synthetic and seeded (the same on every run): `IMPORT_SESSIONS` sessions of
 * `IMPORT_EXCHANGES` exchanges (a user line, an assistant reply), spread over `IMPORT_USERS`
 * users. Dated, each session is a week after the one before, in 2023, its exchanges 3 minutes
 * apart. The user lines mix statements with relative dates ("yesterday I visited ..."), lasting
 * facts, questions and filler, like a chat log. Each user's sessions are sent in order, one append
 * of `IMPORT_BATCH` exchanges at a time (awaited: one user's learning turns run one at a time
 * anyway); the users in parallel. Timed from the first append to the moment every user's facts
 * stopped changing (background learning settled); the append phase alone is printed beside it.
 * Each arm imports under its own users, on one Worker and one pair of emulators (the dev stack's
 * hybrid index, embedding in this process), with no added upstream latency.
 *
 *   npx tsx bench/import-history.ts
 *   IMPORT_BATCH=30 ...      exchanges per append (default 1: one append per exchange)
 *   IMPORT_SESSIONS=20 IMPORT_EXCHANGES=30 IMPORT_USERS=5 IMPORT_ROUNDS=3 ...   the defaults
 *
 * Each round imports the history once per arm (the order alternating); the medians are printed last.
 */
import { loadavg } from "node:os";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { DEV_DENSE_MODEL } from "../tools/upstash-local/vector/config.ts";
import { startBenchWorker } from "./support/workers/bench-worker.ts";
import { prng } from "../test/support/prng.ts";

const API_KEY = "bench-key";
const int = (name: string, fallback: number): number => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
};
const SESSIONS = int("IMPORT_SESSIONS", 20);
const EXCHANGES = int("IMPORT_EXCHANGES", 30);
const USERS = Math.min(int("IMPORT_USERS", 5), SESSIONS);
const BATCH = int("IMPORT_BATCH", 1);
const ROUNDS = int("IMPORT_ROUNDS", 3);
/** The first session's first message: 2 January 2023, 09:00 UTC. */
const HISTORY_START = Date.UTC(2023, 0, 2, 9);
const WEEK = 7 * 86_400_000;
/** Settled: every user's fact count unchanged over this many polls, `POLL_MS` apart. */
const STABLE_POLLS = 8;
const POLL_MS = 250;

const PLACES = ["museum", "Louvre", "botanical garden", "science center", "old harbour", "night market", "zoo", "aquarium"];
const PEOPLE = ["sister", "brother", "mother", "father", "cousin", "best friend", "colleague", "neighbour"];
const NAMES = ["Mia", "Leo", "Ana", "Tomas", "Yuki", "Omar", "Lena", "Ravi"];
const CITIES = ["Lisbon", "Berlin", "Osaka", "Toronto", "Prague", "Seville", "Utrecht", "Porto"];
const FOODS = ["ramen", "dark chocolate", "green tea", "tapas", "sourdough bread", "spicy curry"];
const SKILLS = ["the cello", "Spanish", "pottery", "rock climbing", "watercolor painting", "chess"];
const JOBS = ["nurse", "data analyst", "carpenter", "teacher", "pilot", "architect"];
const WHEN = ["yesterday", "last week", "two days ago", "last month", "three weeks ago"];

/** One user line of a chat log: about a third carry a relative date. */
function userLine(pick: <T>(list: readonly T[]) => T): string {
  const templates: (() => string)[] = [
    () => `I went to the ${pick(PLACES)} ${pick(WHEN)} with my ${pick(PEOPLE)}.`,
    () => `My ${pick(PEOPLE)} ${pick(NAMES)} visited me ${pick(WHEN)}.`,
    () => `I started learning ${pick(SKILLS)} ${pick(WHEN)}.`,
    () => `My ${pick(PEOPLE)} ${pick(NAMES)} lives in ${pick(CITIES)}.`,
    () => `I work as a ${pick(JOBS)} in ${pick(CITIES)}.`,
    () => `I really love ${pick(FOODS)}.`,
    () => `Can you recommend something to do in ${pick(CITIES)}?`,
    () => `What do you think about ${pick(SKILLS)}?`,
    () => "thanks!",
    () => "ok, sounds good",
  ];
  return pick(templates)();
}

const REPLIES = ["That sounds lovely! How was it?", "Good to know.", "Here is an idea: start small and keep at it.", "Tell me more!"];

interface Exchange {
  user: string;
  reply: string;
  ts: number;
}
interface SessionHistory {
  user: number;
  index: number;
  exchanges: Exchange[];
}

/** The whole synthetic history: session `s` belongs to user `s % USERS`. */
function history(): SessionHistory[] {
  const random = prng(20230102);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: SESSIONS }, (_, s) => ({
    user: s % USERS,
    index: s,
    exchanges: Array.from({ length: EXCHANGES }, (_, i) => ({
      user: userLine(pick),
      reply: pick(REPLIES),
      ts: HISTORY_START + s * WEEK + i * 180_000,
    })),
  }));
}

const upstash = await startUpstashLocal({
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "hybrid", denseModel: DEV_DENSE_MODEL },
});
const worker = await startBenchWorker({ ...upstash.env, API_KEYS: `bench:${API_KEY}`, FACT_EXTRACTION: "heuristic" });
const run = Date.now().toString(36);

async function call<T>(method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(new URL(route, worker.base), {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as T;
}

async function factTexts(userId: string): Promise<string[]> {
  const texts: string[] = [];
  let cursor = "";
  do {
    const page = await call<{ facts: { text: string }[]; nextCursor: string | null }>(
      "GET",
      `/v1/users/${userId}/facts?limit=1000${cursor ? `&cursor=${cursor}` : ""}`,
    );
    texts.push(...page.facts.map((f) => f.text));
    cursor = page.nextCursor ?? "";
  } while (cursor);
  return texts;
}

/**
 * When background learning settled: the time of the poll that first showed the final fact counts
 * (unchanged for {@link STABLE_POLLS} polls after it), so the idle polls are not counted.
 */
async function settled(users: readonly string[]): Promise<number> {
  let last = "";
  let since = performance.now();
  for (let same = 0; same < STABLE_POLLS; ) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const counts = (await Promise.all(users.map(factTexts))).map((t) => t.length).join(",");
    if (counts === last) same += 1;
    else [last, same, since] = [counts, 0, performance.now()];
  }
  return since;
}

type Arm = "with ts" | "without ts";

interface ArmResult {
  messages: number;
  appendSeconds: number;
  settledSeconds: number;
  facts: string[];
}

/** Imports the whole history under fresh users; times the appends and the settling of learning. */
async function importArm(arm: Arm, tag: string, sessions: readonly SessionHistory[]): Promise<ArmResult> {
  const users = Array.from({ length: USERS }, (_, u) => `imp-${run}-${tag}-u${u}`);
  let messages = 0;
  const started = performance.now();
  await Promise.all(
    users.map(async (userId, u) => {
      for (const session of sessions.filter((s) => s.user === u)) {
        const sessionId = `${userId}-s${session.index}`;
        for (let i = 0; i < session.exchanges.length; i += BATCH) {
          const batch = session.exchanges.slice(i, i + BATCH).flatMap((e, j) => {
            const n = i + j;
            const dated = arm === "with ts";
            return [
              { id: `u${n}`, role: "user", content: e.user, ...(dated ? { ts: e.ts } : {}) },
              { id: `a${n}`, role: "assistant", content: e.reply, ...(dated ? { ts: e.ts + 20_000 } : {}) },
            ];
          });
          await call("POST", `/v1/sessions/${sessionId}/messages`, { userId, messages: batch });
          messages += batch.length;
        }
      }
    }),
  );
  const appended = performance.now();
  const done = await settled(users);
  const facts = (await Promise.all(users.map(factTexts))).flat();
  return { messages, appendSeconds: (appended - started) / 1000, settledSeconds: (Math.max(done, appended) - started) / 1000, facts };
}

const MONTH_YEAR = /\b(?:January|February|March|April|May|June|July|August|September|October|November|December) (\d{4})\b/u;

function report(arm: Arm, r: ArmResult): string {
  const dated = r.facts.map((t) => MONTH_YEAR.exec(t)?.[1]).filter((y): y is string => y !== undefined);
  // the history runs through 2023; a relative date early in January lands in December 2022
  const inHistory = dated.filter((y) => y === "2022" || y === "2023").length;
  return (
    `${arm.padEnd(10)}  ${(r.messages / r.settledSeconds).toFixed(0).padStart(5)} messages/s until learning settled ` +
    `(${r.settledSeconds.toFixed(1)} s), ${(r.messages / r.appendSeconds).toFixed(0).padStart(5)}/s for the appends alone ` +
    `(${r.appendSeconds.toFixed(1)} s); ${r.facts.length} facts, ${dated.length} dated, ${inHistory} of them in the history's time (2022-2023)`
  );
}

const sessions = history();
console.log(
  `${SESSIONS} sessions x ${EXCHANGES} exchanges (${SESSIONS * EXCHANGES * 2} messages) over ${USERS} users, ` +
    `${BATCH} exchange${BATCH === 1 ? "" : "s"} per append, FACT_EXTRACTION=heuristic, ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}`,
);
// Warm-up (not measured): the Worker's isolate, the rank table, the dense model.
await importArm("with ts", "warm", sessions.slice(0, Math.min(USERS, 2)));
const rates: Record<Arm, number[]> = { "with ts": [], "without ts": [] };
for (let round = 0; round < ROUNDS; round++) {
  // the order alternates, so neither arm always runs on a machine the other just warmed
  const arms: Arm[] = round % 2 === 0 ? ["without ts", "with ts"] : ["with ts", "without ts"];
  for (const arm of arms) {
    const result = await importArm(arm, `r${round}${arm === "with ts" ? "d" : "n"}`, sessions);
    rates[arm].push(result.messages / result.settledSeconds);
    console.log(`round ${round + 1}  ${report(arm, result)}`);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
console.log(
  `median until learning settled: with ts ${median(rates["with ts"]).toFixed(0)} messages/s, ` +
    `without ts ${median(rates["without ts"]).toFixed(0)} messages/s; load average ${loadavg()[0]?.toFixed(1)}`,
);
await worker.dispose();
await upstash.close();
