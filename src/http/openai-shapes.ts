/** @module The OpenAI chat-completions request schema the proxy accepts, and its conversion into the domain's proxied request. */
import { z } from "@hono/zod-openapi";
import type { ProxiedRequest } from "../memory/sessions/index.ts";
import { ProxyMessageSchema, toIncoming } from "./schemas/messages.ts";

/**
 * OpenAI's chat-completions request as the proxy accepts it. What a request stores and recalls is
 * the domain's (`proxiedTurn`); how a recorded reply is answered in OpenAI's shape is in
 * `openai-render.ts`.
 */

/** The OpenAI request: the fields memory reads are checked, every other one passes through as sent. */
export const CompletionBody = z
  .object({
    model: z.string().min(1).max(256),
    messages: z.array(ProxyMessageSchema).min(1),
    stream: z.boolean().optional(),
    user: z.string().max(256).optional(),
  })
  .passthrough()
  .openapi("ChatCompletionRequest");

export type CompletionRequest = z.infer<typeof CompletionBody>;

/** The request in the domain's terms; `persist`: the X-Memory-Persist header. */
export function proxiedRequest(body: CompletionRequest, persist?: boolean): ProxiedRequest {
  const messages = body.messages.map((m) => (m.persist === undefined ? toIncoming(m) : { ...toIncoming(m), persist: m.persist }));
  return { body, messages, persist };
}
