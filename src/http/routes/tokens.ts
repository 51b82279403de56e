/** @module The POST /v1/tokens route: mints a short-lived user (and session) token for a browser frontend. */
import { z } from "@hono/zod-openapi";
import { MAX_TOKEN_TTL_SECONDS, TOKEN_SCOPES, tokenClaims } from "../../memory/access/index.ts";
import { ApiError } from "../errors.ts";
import { tenantWrite } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { ACCESS_EXAMPLES, TokenAnswerSchema, type TokenAnswer } from "../schemas/access-responses.ts";
import { IdSchema, errors, jsonResponse, security } from "../schemas/common.ts";
import { signToken } from "../tokens.ts";

const TokenBody = z
  .object({
    userId: IdSchema,
    sessionId: IdSchema.optional().openapi({
      description:
        "Bind the token to this session: it then reaches only that session. Without it the token reaches the user's own routes (facts, session list) and every session the user owns, and starts new sessions with a chat turn",
    }),
    scopes: z
      .array(z.enum(TOKEN_SCOPES))
      .min(1)
      .max(TOKEN_SCOPES.length)
      .optional()
      .openapi({ description: "Default: all of read, write, chat" }),
    ttlSeconds: z
      .number()
      .int()
      .min(60)
      .max(MAX_TOKEN_TTL_SECONDS)
      .optional()
      .openapi({ description: "Default 3600; at most 86400 (24 h)" }),
  })
  .strict()
  .openapi("TokenRequest");

const route = defineRoute(
  {
    method: "post",
    path: "/v1/tokens",
    summary: "Mint a short-lived token for one user (and session) for a browser frontend; tenant API keys only",
    security,
    request: { body: { content: { "application/json": { schema: TokenBody } }, required: true } },
    responses: {
      201: jsonResponse(TokenAnswerSchema, "The token (HS256 JWT) and when it expires", ACCESS_EXAMPLES.token),
      ...errors(400, 401, 413, 415, 503),
    },
  },
  {
    // A read key cannot mint: a token with `write` would be more than the key may do.
    access: tenantWrite,
    doc: {
      operationId: "createToken",
      tag: "Access",
      description:
        "Mints a short-lived HS256 token (at most 24 h) for one user, and one session if `sessionId` is given, with scopes `read`, `write`, `chat`. A browser frontend sends it as `Authorization: Bearer <token>`; it reaches only its own user's routes and sessions (with `sessionId`, only that session) and never export, erase, tokens or audit. Needs a full tenant API key and `TOKEN_SECRET`.",
    },
    example: { userId: "xiaoming", sessionId: "reference-demo", scopes: ["read", "chat"], ttlSeconds: 900 },
  },
);

export function tokenRoutes() {
  const app = createRouter();
  app.openapi(route.route, async (c) => {
    const secret = c.get("runtime").config.tokenSecret;
    if (!secret)
      throw new ApiError(503, "tokens_not_configured", "tokens are off: set TOKEN_SECRET (32+ characters)", {
        headers: { "retry-after": "3600" },
      });
    const body = c.req.valid("json");
    const claims = tokenClaims(c.get("tenant"), body, `tk_${crypto.randomUUID()}`, Date.now());
    const token = await signToken(claims, secret);
    c.get("memory").audit(
      "token.mint",
      { userId: body.userId, sessionId: body.sessionId, tokenId: claims.jti },
      { scopes: claims.scp.join(","), expiresAt: claims.exp * 1000 },
    );
    return c.json({ token, expiresAt: claims.exp * 1000, tokenId: claims.jti, scopes: claims.scp } satisfies TokenAnswer, 201);
  });
  return app;
}

/** The routes this module mounts, for the route registry. */
export const tokenRouteDefs: readonly DefinedRoute[] = [route];
