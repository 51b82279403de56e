/** @module The message input schemas shared by the native append API and the OpenAI proxy, and their conversion to the domain. */
import { z } from "@hono/zod-openapi";
import { TOOL_CALL_ID_PATTERN } from "../../memory/ids.ts";
import { MAX_CLOCK_SKEW_MS, metadataProblem } from "../../memory/sessions/index.ts";
import type { IncomingMessage } from "../../memory/model.ts";
import { IdSchema } from "./common.ts";

/**
 * The one message model of both APIs (native append and the OpenAI-compatible proxy), shaped like
 * OpenAI's: `content` is a string, an array of text parts (joined with "\n"), or null beside
 * `tool_calls`. Other part kinds (images, audio, files) are refused: memory stores text. Length
 * limits are the configured ones, applied by the domain on every write, not here.
 */

export const RoleSchema = z.enum(["system", "developer", "user", "assistant", "tool"]);

export const ToolCallSchema = z
  .object({
    id: z.string().regex(TOOL_CALL_ID_PATTERN, "must be 1-128 printable ASCII characters without space, quote or backslash"),
    type: z.literal("function"),
    function: z.object({ name: z.string().min(1).max(128), arguments: z.string() }).strict(),
  })
  .strict();

const TextPart = z.object({ type: z.literal("text"), text: z.string() }).strict();
const AnyPart = z.object({ type: z.string() }).passthrough();

/** String, text parts or null; every other part is refused with its index and kind. */
export const ContentSchema = z
  .union([z.string(), z.null(), z.array(AnyPart)], { error: "must be a string, an array of text parts or null" })
  .superRefine((content, ctx) => {
    if (!Array.isArray(content)) return;
    content.forEach((part, i) => {
      if (!TextPart.safeParse(part).success) {
        const kind = typeof part.type === "string" ? part.type : "unknown";
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `only text parts are stored (got a "${kind}" part): send images and files as text or links`,
        });
      }
    });
  })
  .transform((content): string | null =>
    Array.isArray(content) ? content.map((p) => (typeof p.text === "string" ? p.text : "")).join("\n") : content,
  );

/** Metadata is stored with the message or fact; kept small and shallow so every reader can decode it. */
export const MetadataSchema = z.record(z.string().max(64), z.unknown()).superRefine((m, ctx) => {
  const problem = metadataProblem(m);
  if (problem) ctx.addIssue({ code: "custom", message: problem.replace(/^metadata /, "") });
});

/** The OpenAI fields of a message, shared by both APIs. */
const openAIFields = {
  role: RoleSchema,
  content: ContentSchema.optional(),
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, "may hold A-Z a-z 0-9 _ - only")
    .optional(),
  tool_calls: z.array(ToolCallSchema).min(1).max(128).optional(),
  tool_call_id: z
    .string()
    .regex(TOOL_CALL_ID_PATTERN, "must be 1-128 printable ASCII characters without space, quote or backslash")
    .optional(),
  // What OpenAI puts on an assistant message it returns: accepted so it can be appended as is.
  refusal: z.string().nullable().optional(),
  annotations: z.array(z.unknown()).optional(),
  audio: z.null().optional(),
  function_call: z.null().optional(),
};

interface OpenAIShaped {
  role: z.infer<typeof RoleSchema>;
  content?: string | null | undefined;
  tool_calls?: unknown[] | undefined;
  tool_call_id?: string | undefined;
  refusal?: string | null | undefined;
}

/** The rules a message obeys on both APIs. */
function checkShape(m: OpenAIShaped, ctx: z.core.$RefinementCtx): void {
  const calls = m.role === "assistant" && m.tool_calls !== undefined;
  const text = m.content ?? m.refusal ?? "";
  // Refused content parts leave the array untransformed; that issue is already reported.
  if (typeof text === "string" && text.trim() === "" && !calls) {
    const problem =
      m.content === null ? "may be null only beside tool_calls" : m.content === undefined ? "is required" : "must not be empty";
    ctx.addIssue({ code: "custom", path: ["content"], message: problem });
  }
  if (m.tool_calls && m.role !== "assistant")
    ctx.addIssue({ code: "custom", path: ["tool_calls"], message: "only assistant messages carry tool_calls" });
  if (m.role === "tool" && !m.tool_call_id)
    ctx.addIssue({ code: "custom", path: ["tool_call_id"], message: "is required on a tool message" });
  if (m.tool_call_id && m.role !== "tool")
    ctx.addIssue({ code: "custom", path: ["tool_call_id"], message: "only tool messages carry tool_call_id" });
}

/** A native append's message: the OpenAI fields, plus a client id, `persist`, `importance`, `metadata`, `ts`. */
export const MessageInputSchema = z
  .object({
    id: IdSchema.optional().openapi({ description: "Client id; makes retries idempotent" }),
    ...openAIFields,
    persist: z.boolean().optional().openapi({ description: "Also store a user message as a long-term fact (ignored for other roles)" }),
    importance: z.number().min(0).max(1).optional(),
    metadata: MetadataSchema.optional(),
    ts: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({
        description: `When the message was written, in ms since the epoch (an import, messages queued offline); default the server's time. Relative dates in it ("yesterday") are learned against it. Not before the session's newest message, oldest first within a batch, at most ${MAX_CLOCK_SKEW_MS / 60_000} minutes ahead of the server clock (such a time is stored as the server's).`,
        example: 1683553000000,
      }),
  })
  .strict()
  .superRefine(checkShape)
  .openapi("MessageInput");

/** A message of a proxied request: the OpenAI fields and `persist`; anything else a client adds is ignored. */
export const ProxyMessageSchema = z
  .object({
    ...openAIFields,
    persist: z
      .boolean()
      .optional()
      .openapi({ description: "On the last user message: keep it as a long-term fact as sent (like `X-Memory-Persist: true`)" }),
  })
  .passthrough()
  .superRefine(checkShape);

/** The domain's message: text content, `developer` as `system`, response-only fields dropped. */
export function toIncoming(m: z.infer<typeof ProxyMessageSchema>): IncomingMessage {
  const out: IncomingMessage = { role: m.role === "developer" ? "system" : m.role, content: m.content ?? m.refusal ?? "" };
  if (m.name !== undefined) out.name = m.name;
  if (m.tool_calls !== undefined) {
    out.tool_calls = m.tool_calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.function.name, arguments: c.function.arguments },
    }));
  }
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  return out;
}

/** A native append's message: the OpenAI fields plus its id, `persist`, `importance`, `metadata` and `ts`. */
export function toIncomingNative(m: z.infer<typeof MessageInputSchema>): IncomingMessage {
  const out = toIncoming(m);
  if (m.id !== undefined) out.id = m.id;
  if (m.persist !== undefined) out.persist = m.persist;
  if (m.importance !== undefined) out.importance = m.importance;
  if (m.metadata !== undefined) out.metadata = m.metadata;
  if (m.ts !== undefined) out.ts = m.ts;
  return out;
}

export const AppendBodySchema = z
  .object({
    userId: IdSchema.optional(),
    messages: z.array(MessageInputSchema).min(1),
  })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.messages.forEach((m, i) => {
      if (m.id === undefined) return;
      if (seen.has(m.id)) ctx.addIssue({ code: "custom", path: ["messages", i, "id"], message: "duplicate message id in request" });
      seen.add(m.id);
    });
  })
  .openapi("AppendMessages");
