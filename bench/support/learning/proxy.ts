/** @module One person of the learning dataset through the Worker's proxy: their sessions line by line, then their questions in a new session. */
import OpenAI from "openai";
import type { DatasetLine, DatasetPerson } from "./dataset.ts";
import { has, learnedIn, log, type Tally } from "./score.ts";

export const API_KEY = "bench-key";
/** Recalled facts that count for hit@TOP. */
export const TOP = 3;

interface StoredFact {
  id: string;
  text: string;
  type: string;
  sourceSession?: string;
  sourceMessage?: string;
}

/** One person's conversations through the proxy, then the questions in a new session. */
export async function runPerson(base: URL, person: DatasetPerson, run: string, tally: Tally): Promise<void> {
  const client = new OpenAI({ baseURL: new URL("/v1", base).toString(), apiKey: API_KEY, maxRetries: 0 });
  const userId = `${run}-${person.id}`;
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(new URL(path, base), { headers: { authorization: `Bearer ${API_KEY}` } });
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const listFacts = async (): Promise<StoredFact[]> => (await api<{ facts: StoredFact[] }>(`/v1/users/${userId}/facts?limit=1000`)).facts;
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
          // a line is learned when a learned fact says it; its episode alone does not count
          facts.filter((f) => f.type !== "episode").map((f) => f.text),
        )
      )
        tally.learned += 1;
      else log(`  [${person.id}] not learned: ${line.text}`);
    }
  }
  for (const f of seen.values()) {
    // Episodes keep every line as said, small talk too: the learner's noise is in its facts.
    if (f.type === "episode") {
      tally.episodes += 1;
      continue;
    }
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
