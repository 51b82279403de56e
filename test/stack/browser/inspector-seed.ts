import { expect } from "vitest";

// The data the inspector's browser test shows: sessions, facts and traces written through the API of
// the dev stack the test started (set with `useStack`).

const KEY = "dev-key";
let base = "";

/** Points the seeding calls at the dev stack's origin. */
export function useStack(origin: string): void {
  base = origin;
}

export const USER = "inspector-user";
export const SESSION = "inspector-demo";

export async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

/** A session with a pinned prompt, a summary (and so archived originals), a window, facts and a trace. */
export async function seed(): Promise<void> {
  const topics = [
    "Porto trip in May",
    "green tea",
    "the blue bicycle",
    "a Rust side project",
    "Thursday's dentist appointment",
    "jazz records",
  ];
  const messages = [{ role: "system", content: "You are a concise travel assistant." }];
  topics.forEach((topic, i) => {
    messages.push({ role: "user", content: `Let me tell you about ${topic}, item ${i}.` });
    messages.push({ role: "assistant", content: `Noted: ${topic}.` });
  });
  await api("POST", `/v1/sessions/${SESSION}/messages`, { userId: USER, messages });
  await api("POST", `/v1/sessions/${SESSION}/compress?force=true`);
  await api("POST", `/v1/sessions/${SESSION}/messages`, {
    userId: USER,
    messages: [{ role: "user", content: "What should I pack for Porto?" }],
  });
  await api("POST", `/v1/users/${USER}/facts`, { text: "The user is travelling to Porto in May", type: "context", importance: 0.8 });
  await api("POST", `/v1/users/${USER}/facts`, { text: "The user prefers green tea", type: "preference", importance: 0.6 });
  await api("GET", `/v1/sessions/${SESSION}/context?userId=${USER}&query=${encodeURIComponent("packing for Porto")}`);
}

export const USER2 = "inspector-tools-user";
export const TURNS = 12;

/** A second user with two sessions, one with a tool call and more traced turns than a page shows. */
export async function seedTools(): Promise<void> {
  await api("POST", `/v1/sessions/inspector-other/messages`, {
    userId: USER2,
    messages: [{ role: "user", content: "Nothing to see here." }],
  });
  await api("POST", `/v1/sessions/inspector-tools/messages`, {
    userId: USER2,
    messages: [
      { role: "user", content: "What is the weather in Porto?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_w1", type: "function", function: { name: "get_weather", arguments: '{"city":"Porto"}' } }],
      },
      { role: "tool", tool_call_id: "call_w1", content: "sunny, 24 C" },
      { role: "assistant", content: "It is sunny in Porto." },
    ],
  });
  for (let i = 1; i <= TURNS; i++)
    await api("GET", `/v1/sessions/inspector-tools/context?userId=${USER2}&query=${encodeURIComponent(`question number ${i}`)}`);
}

export const USER3 = "inspector-moving-user";
export const SESSION3 = "inspector-moving";

/** Polls the user's facts until `done` holds (learning lands in the background); throws after 20 s. */
async function factsUntil(userId: string, done: (json: string) => boolean, what: string): Promise<void> {
  const until = Date.now() + 20_000;
  for (;;) {
    const json = JSON.stringify(await api("GET", `/v1/users/${userId}/facts`));
    if (done(json)) return;
    if (Date.now() > until) throw new Error(`${what} never showed in the facts of ${userId}: ${json}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A user whose learned fact a later message supersedes (Berlin, then Munich). */
export async function seedSuperseded(): Promise<void> {
  for (const [content, city] of [
    ["I live in Berlin", "Berlin"],
    ["I live in Munich now", "Munich"],
  ] as const) {
    await api("POST", `/v1/sessions/${SESSION3}/messages`, { userId: USER3, messages: [{ role: "user", content }] });
    // Wait for this message's fact before the next message.
    await factsUntil(USER3, (json) => json.includes(city), city);
  }
  await factsUntil(USER3, (json) => json.includes("supersededAt"), "the superseded Berlin fact");
}
