/** @module The requests bench/cpu-profile.ts measures: sessions seeded to a size, and per size a context read, an append, a chat turn and a proxy call (and on the first size a context read with recall). */
import { FACTS, QUESTIONS } from "../../peers/peers-support.ts";

export const API_KEY = "bench-key";
export const AUTH = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };

/** One request to the Worker under test, its status and body. */
export type Call = (path: string, init?: RequestInit) => Promise<{ status: number; text: string }>;

/** A request to profile, as the profiling entry records it. */
export interface ProfiledRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Texts the request hands the token counter (its messages). */
  texts: string[];
}

export interface Spec extends ProfiledRequest {
  name: string;
  /** A fresh body per live request (ids that must not repeat). */
  live: (i: number) => string | undefined;
}

/** Imports the peers bench's 40 facts for `userId` (the user a context read with recall asks for). */
export async function importRecallUser(call: Call, userId: string): Promise<void> {
  const imported = await call(`/v1/users/${userId}/facts/import`, {
    method: "POST",
    headers: AUTH,
    body: JSON.stringify({ facts: FACTS }),
  });
  if (imported.status !== 200 && imported.status !== 201) throw new Error(`import: HTTP ${imported.status} ${imported.text.slice(0, 200)}`);
}

/** A context read of `session` with recall for `userId`: the first of the peers bench's questions. */
export const recallRead = (session: string, userId: string): ProfiledRequest => ({
  method: "GET",
  path: `/v1/sessions/${session}/context?userId=${userId}&query=${encodeURIComponent(QUESTIONS[0]!)}`,
  headers: AUTH,
  texts: [],
});

const messageText = (i: number): string =>
  i % 2 === 0
    ? `Turn ${i}: I am planning a trip to Lisbon in May, budget ${500 + (i % 40) * 10} euros. Any hotel near Alfama?`
    : `Turn ${i}: Try a guesthouse in Alfama around ${60 + (i % 30)} euros a night; trams 28 and 12 stop nearby.`;

async function seed(call: Call, sessionId: string, total: number): Promise<void> {
  await call(`/v1/sessions/${sessionId}/messages`, {
    method: "POST",
    headers: AUTH,
    body: JSON.stringify({ messages: [{ role: "system", content: "You are a travel assistant." }] }),
  });
  for (let start = 0; start < total; start += 100) {
    const messages = Array.from({ length: Math.min(100, total - start) }, (_, j) => ({
      role: (start + j) % 2 === 0 ? "user" : "assistant",
      content: messageText(start + j),
    }));
    const res = await call(`/v1/sessions/${sessionId}/messages`, { method: "POST", headers: AUTH, body: JSON.stringify({ messages }) });
    if (res.status !== 201) throw new Error(`seed: HTTP ${res.status} ${res.text.slice(0, 200)}`);
  }
}

/** Seeds a session of each size (in order) and returns the requests to measure on them. */
export async function buildSpecs(call: Call, sizes: readonly number[], run: string): Promise<Spec[]> {
  const specs: Spec[] = [];
  // The peers bench's user: 40 facts, asked one of its questions (on the smallest session only).
  const recallUser = `r-${run}`;
  await importRecallUser(call, recallUser);
  for (const size of sizes) {
    const session = `prof-${run}-${size}`;
    await seed(call, session, size);
    const pair = (i: number) => [
      { role: "user", content: `Question ${i}: which day suits Sintra best, and should we book the Pena palace ahead?` },
      { role: "assistant", content: `Answer ${i}: a weekday; book the palace online, the morning slots sell out first.` },
    ];
    if (size === sizes[0])
      specs.push({ name: `context read with recall, ${size}`, ...recallRead(session, recallUser), live: () => undefined });
    specs.push({
      name: `context read, ${size}`,
      method: "GET",
      path: `/v1/sessions/${session}/context`,
      headers: AUTH,
      texts: [],
      live: () => undefined,
    });
    specs.push({
      name: `append a pair, ${size}`,
      method: "POST",
      path: `/v1/sessions/${session}/messages`,
      headers: AUTH,
      body: JSON.stringify({ messages: pair(0) }),
      texts: pair(0).map((m) => m.content),
      live: (i) => JSON.stringify({ messages: pair(i) }),
    });
    const chat = (i: number) => ({
      message: `turn ${i}: what should we plan next in Lisbon?`,
      messageId: `c-${run}-${i}`,
      userId: `u-${run}`,
      persist: false,
    });
    specs.push({
      name: `chat turn, ${size}`,
      method: "POST",
      path: `/v1/sessions/${session}/chat`,
      headers: AUTH,
      body: JSON.stringify(chat(0)),
      texts: [chat(0).message, "Noted, thanks for telling me."],
      live: (i) => JSON.stringify(chat(i + 1)),
    });
    const proxy = (i: number) => ({ model: "gpt-4o-mini", messages: [{ role: "user", content: `proxy turn ${i}: and the day after?` }] });
    specs.push({
      name: `proxy, ${size}`,
      method: "POST",
      path: "/v1/chat/completions",
      headers: { ...AUTH, "x-memory-session": session },
      body: JSON.stringify(proxy(0)),
      texts: [proxy(0).messages[0]!.content, "Noted, thanks for telling me."],
      live: (i) => JSON.stringify(proxy(i + 1)),
    });
  }
  return specs;
}
