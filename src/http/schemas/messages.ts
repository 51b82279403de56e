import { z } from "@hono/zod-openapi";
import { metadataProblem } from "../../memory/message-rules.ts";
import { IdSchema } from "./common.ts";

export const RoleSchema = z.enum(["system", "user", "assistant", "tool"]);

export const ToolCallSchema = z
  .object({
    id: z.string().min(1).max(128),
    type: z.literal("function"),
    function: z.object({ name: z.string().min(1).max(128), arguments: z.string().max(100_000) }),
  })
  .strict();

/** Metadata is stored with the message or fact; kept small and shallow so every reader can decode it. */
export const MetadataSchema = z.record(z.string().max(64), z.unknown()).superRefine((m, ctx) => {
  const problem = metadataProblem(m);
  if (problem) ctx.addIssue({ code: "custom", message: problem.replace(/^metadata /, "") });
});

export const MessageInputSchema = z
  .object({
    id: IdSchema.optional().openapi({ description: "Client id; makes retries idempotent" }),
    role: RoleSchema,
    content: z.string(),
    name: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "name may hold A-Z a-z 0-9 _ -").optional(),
    tool_calls: z.array(ToolCallSchema).min(1).max(32).optional(),
    tool_call_id: z.string().min(1).max(128).optional(),
    persist: z.boolean().optional().openapi({ description: "Also store a user message as a long-term fact (ignored for other roles)" }),
    importance: z.number().min(0).max(1).optional(),
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.content.trim() === "" && !(m.role === "assistant" && m.tool_calls)) {
      ctx.addIssue({ code: "custom", path: ["content"], message: "content must not be empty" });
    }
    if (m.tool_calls && m.role !== "assistant") {
      ctx.addIssue({ code: "custom", path: ["tool_calls"], message: "only assistant messages carry tool_calls" });
    }
    if (m.role === "tool" && !m.tool_call_id) {
      ctx.addIssue({ code: "custom", path: ["tool_call_id"], message: "a tool message needs tool_call_id" });
    }
    if (m.tool_call_id && m.role !== "tool") {
      ctx.addIssue({ code: "custom", path: ["tool_call_id"], message: "only tool messages carry tool_call_id" });
    }
  })
  .openapi("MessageInput");

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
