/**
 * @module Agent Memory's context read with no HTTP layer: the Worker's own runtime and the domain's
 * context read, called directly and answered as JSON. No routing, authentication, validation,
 * observation or rendering: what the read costs in a Worker when everything around the use case
 * is taken away. The peers bench adds it as a column with `PEERS_DOMAIN=1`, to show how much of
 * Agent Memory's time over the relay Worker is its HTTP layer and how much the read itself.
 *
 * - `GET /context/{sessionId}`: tenant `bench`, no user, no query; `{messages, tokens}`.
 */
import { createRuntime } from "../../src/worker/request-runtime.ts";

interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

export default {
  async fetch(request: Request, env: object, ctx: WaitUntil): Promise<Response> {
    const sessionId = /^\/context\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (!sessionId) return new Response("not found", { status: 404 });
    const memory = createRuntime(env, ctx).memory("bench", { kind: "key", id: "bench" });
    const context = await memory.context(sessionId, {});
    return Response.json({ messages: context.messages, tokens: context.tokens });
  },
};
