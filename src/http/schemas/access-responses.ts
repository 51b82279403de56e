/** @module Zod response schemas and examples of the access routes: a minted token and a page of the audit log. */
import { z } from "@hono/zod-openapi";
import { TOKEN_SCOPES } from "../../memory/access/index.ts";

/** What the access routes (tokens, audit log) answer. */

export const TokenAnswerSchema = z
  .object({
    token: z.string().openapi({ description: "HS256 JWT: send it as `Authorization: Bearer <token>`" }),
    expiresAt: z.number().int().openapi({ description: "Epoch ms" }),
    tokenId: z.string().openapi({ description: "Names the token in the audit log" }),
    scopes: z.array(z.enum(TOKEN_SCOPES)),
  })
  .openapi("Token");

export type TokenAnswer = z.infer<typeof TokenAnswerSchema>;

const ActorSchema = z.union([
  z.object({ kind: z.literal("key"), id: z.string() }),
  z.object({ kind: z.literal("token"), id: z.string(), userId: z.string() }),
  z.object({ kind: z.literal("anonymous") }),
]);

const AuditEntrySchema = z.object({
  id: z.string(),
  ts: z.number().int().openapi({ description: "Epoch ms" }),
  actor: ActorSchema,
  action: z.enum([
    "user.erase",
    "user.export",
    "token.mint",
    "fact.update",
    "fact.delete",
    "session.settings",
    "access.denied",
    "auth.failed",
  ]),
  target: z.object({
    userId: z.string().optional(),
    sessionId: z.string().optional(),
    factId: z.string().optional(),
    tokenId: z.string().optional(),
  }),
  details: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .openapi({ description: "Counts, receipt ids, reasons: never contents" }),
});

export const AuditPageSchema = z
  .object({
    entries: z.array(AuditEntrySchema).openapi({ description: "Oldest first" }),
    nextSince: z.number().int().nullable().openapi({ description: "Pass as `since` for the next page; null at the end" }),
  })
  .openapi("AuditPage");

export type AuditPage = z.infer<typeof AuditPageSchema>;

export const ACCESS_EXAMPLES = {
  token: {
    token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl",
    expiresAt: 1764594000000,
    tokenId: "tk_5c0e",
    scopes: ["read" as const, "write" as const, "chat" as const],
  },
  audit: {
    entries: [
      {
        id: "1764590400000-0",
        ts: 1764590400000,
        actor: { kind: "key" as const, id: "k_3f9a0c1b2d4e" },
        action: "user.erase" as const,
        target: { userId: "xiaoming" },
        details: { receiptId: "er_3b1f0c2a9d" },
      },
    ],
    nextSince: null,
  },
};
