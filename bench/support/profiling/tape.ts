/**
 * The profiling Worker's upstream calls (see entry.ts): `live` passes them through,
 * `record` passes them through and keeps each kind's first reply on the tape, `replay` answers
 * from the tape without the network. Installed over `globalThis.fetch` on import.
 */

export interface Recorded {
  /** The request asked for base64 strings (`Upstash-Encoding: base64`). */
  base64: boolean;
  status: number;
  headers: [string, string][];
  body: string;
}

const realFetch = globalThis.fetch.bind(globalThis);

/** What the profiling door switches between requests. */
export const upstream: {
  mode: "live" | "record" | "replay";
  tape: Map<string, Recorded>;
  /** Calls in replay mode whose reply was not recorded (the profile says so: a figure would be wrong). */
  misses: number;
  /** Set by the `until LLM` phase: the LLM call fails at once, so the request ends where the LLM would start. */
  failLlm: boolean;
} = { mode: "live", tape: new Map(), misses: 0, failLlm: false };

/** The command and script of each command in a Redis REST body (one command, or a pipeline of them). */
function commandsOf(body: string): string[] {
  const heads = body.startsWith("[[")
    ? body.matchAll(/(?:^\[|\],)\["([A-Za-z]+)"(?:,"([0-9a-f]{40})")?/g)
    : body.matchAll(/^\["([A-Za-z]+)"(?:,"([0-9a-f]{40})")?/g);
  return [...heads].map((m) => `${(m[1] ?? "").toLowerCase()}${m[2] && /^evalsha$/i.test(m[1] ?? "") ? ` ${m[2]}` : ""}`);
}

/** Commands of the metrics batch, whose replies are never read. */
const COUNTER_WRITES = new Set(["hincrby", "hincrbyfloat", "zincrby", "incrby", "expire", "pfadd", "lpush", "ltrim"]);

/** A pipeline of nothing but metrics writes. */
const isCounterWrite = (body: string): boolean => body.startsWith("[[") && commandsOf(body).every((c) => COUNTER_WRITES.has(c));

/** What identifies an upstream call across repeats: the endpoint and, for Redis, the commands and scripts. */
function tapeKey(url: string, body: string): string {
  const u = new URL(url);
  return body.startsWith("[") ? `${u.host}${u.pathname} ${commandsOf(body).join(",")}` : `${u.host}${u.pathname}`;
}

globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  if (upstream.mode === "live") return realFetch(input, init);
  const request = new Request(input, init);
  const body = typeof init?.body === "string" ? init.body : await request.clone().text();
  const key = tapeKey(request.url, body);
  if (upstream.mode === "record") {
    const res = await realFetch(request);
    const text = await res.text();
    const headers: [string, string][] = [];
    res.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "content-encoding") headers.push([name, value]);
    });
    // the first reply of a kind is kept: a repeat replays what the request saw first
    if (!upstream.tape.has(key))
      upstream.tape.set(key, { base64: request.headers.get("upstash-encoding") === "base64", status: res.status, headers, body: text });
    return new Response(text, { status: res.status, headers });
  }
  // a 400 is not retried: the request ends at once where the LLM call would have started
  if (upstream.failLlm && new URL(request.url).pathname.endsWith("/chat/completions"))
    return Response.json({ error: { message: "profile: LLM call cut", type: "invalid_request_error" } }, { status: 400 });
  const hit = upstream.tape.get(key);
  if (!hit && isCounterWrite(body)) {
    // metrics writes: their batch follows what the request counted (a turn cut at its LLM call
    // counts less than the recorded one), and nobody reads their replies
    return Response.json(commandsOf(body).map(() => ({ result: 0 })));
  }
  if (!hit) {
    upstream.misses++;
    return new Response(JSON.stringify({ error: `not recorded: ${key}` }), { status: 500 });
  }
  return new Response(hit.body, { status: hit.status, headers: hit.headers });
};
