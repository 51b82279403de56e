/**
 * @module A Worker that only relays LangChain's Redis commands (and, for a chat turn, its LLM call):
 * the least a Worker can cost on this machine for the same work, served exactly as Agent Memory is
 * (the deploy bundle on its own socket in local workerd). The peers bench prints it beside the
 * others, so the figures separate what the local hop into workerd costs from what the service adds.
 *
 * - `GET /read?key=K`: `LRANGE K 0 -1`, one pipeline request; with `&query=Q` also a Vector query
 *   for Q in `FACTS_NAMESPACE`, in parallel (LangChain's read with memory added).
 * - `POST /append?key=K` with a JSON array of strings: `LPUSH K ...`, one pipeline request.
 * - `POST /chat?key=K` with the user's text: the read, then the chat completion with the history;
 *   with `&query=1` the text is also the Vector query, and the facts found go in a system message.
 */
interface RelayEnv {
  UPSTASH_REDIS_REST_URL: string;
  UPSTASH_REDIS_REST_TOKEN: string;
  UPSTASH_VECTOR_REST_URL: string;
  UPSTASH_VECTOR_REST_TOKEN: string;
  FACTS_NAMESPACE: string;
  OPENAI_BASE_URL: string;
  OPENAI_API_KEY: string;
}

type Command = (string | number)[];

/** How LangChain's Upstash history stores a message (a JSON string per list entry). */
interface StoredMessage {
  type: string;
  data: { content: string };
}

async function pipeline(env: RelayEnv, commands: Command[]): Promise<{ result?: unknown; error?: string }[]> {
  const res = await fetch(`${env.UPSTASH_REDIS_REST_URL}/pipeline`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.UPSTASH_REDIS_REST_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(commands),
  });
  return (await res.json()) as { result?: unknown; error?: string }[];
}

/** The facts' texts for `data` (none without a query): one query-data request, the index embeds the text. */
async function facts(env: RelayEnv, data: string | null): Promise<string[]> {
  if (data === null || data === "") return [];
  const res = await fetch(`${env.UPSTASH_VECTOR_REST_URL}/query-data/${env.FACTS_NAMESPACE}`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.UPSTASH_VECTOR_REST_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ data, topK: 10, includeMetadata: true }),
  });
  const body = (await res.json()) as { result?: { metadata?: { text?: string } }[] };
  return (body.result ?? []).map((r) => r.metadata?.text ?? "");
}

export default {
  async fetch(request: Request, env: RelayEnv): Promise<Response> {
    const url = new URL(request.url);
    const key = url.searchParams.get("key") ?? "";
    if (url.pathname === "/read") {
      const [history, found] = await Promise.all([pipeline(env, [["LRANGE", key, 0, -1]]), facts(env, url.searchParams.get("query"))]);
      return Response.json({ history, facts: found });
    }
    if (url.pathname === "/append") {
      const values = (await request.json()) as string[];
      return Response.json(await pipeline(env, [["LPUSH", key, ...values]]));
    }
    if (url.pathname === "/chat") {
      const question = await request.text();
      const [[read], found] = await Promise.all([
        pipeline(env, [["LRANGE", key, 0, -1]]),
        facts(env, url.searchParams.get("query") === "1" ? question : null),
      ]);
      const stored = ((read?.result as string[] | undefined) ?? []).map((raw) => JSON.parse(raw) as StoredMessage).reverse();
      const memory = found.length > 0 ? [{ role: "system", content: `What you know about the user:\n${found.join("\n")}` }] : [];
      const messages = [
        ...memory,
        ...stored.map((m) => ({ role: m.type === "human" ? "user" : "assistant", content: m.data.content })),
        { role: "user", content: question },
      ];
      const res = await fetch(`${env.OPENAI_BASE_URL}/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${env.OPENAI_API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "bench-model", messages }),
      });
      return new Response(await res.text(), { headers: { "content-type": "application/json" } });
    }
    return new Response("not found", { status: 404 });
  },
};
