/**
 * Who may do what: pure rules over the three kinds of credential. A tenant key with the full role
 * may do everything in its tenant; a read key may only read; a token (minted by a full key for a
 * browser frontend) reaches only its own user's data, within its scopes: a token bound to a session
 * only that session, a user token (bound to none) every session its user owns. Operations nobody
 * classified are closed to tokens (default deny).
 */

/** What a token may be granted. */
export const TOKEN_SCOPES = ["read", "write", "chat"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** The longest a token may live, seconds. */
export const MAX_TOKEN_TTL_SECONDS = 86_400;
/** A token's lifetime when the request names none, seconds. */
export const DEFAULT_TOKEN_TTL_SECONDS = 3_600;

export type KeyRole = "full" | "read";

/** A caller, as authentication established it. */
export type Principal =
  | { kind: "key"; tenant: string; keyId: string; role: KeyRole }
  | { kind: "token"; tenant: string; tokenId: string; userId: string; sessionId: string | null; scopes: readonly TokenScope[] };

/**
 * What an operation needs. `need`: `read` / `write` / `chat` (a token needs that scope; a read key
 * only `read`), or `tenant`: tenant keys only (a full key, or a read key when `readKeys` is set).
 * `target`: which id of the request a token must own.
 */
export type OperationClass = { need: "read" | "write" | "chat"; target: "session" | "user" | "none" } | { need: "tenant"; write: boolean };

/** The ids a request names (path, `userId` query, `X-Memory-*` headers). */
export interface AccessTarget {
  userId?: string | undefined;
  sessionId?: string | undefined;
}

export type AccessDecision = { allowed: true } | { allowed: false; reason: string };

const allow: AccessDecision = { allowed: true };
const deny = (reason: string): AccessDecision => ({ allowed: false, reason });

/**
 * Whether `principal` may run an operation of class `op` (null: an operation nobody classified,
 * where `safeMethod` (GET) tells a read key it reads) on `target`.
 */
export function decideAccess(principal: Principal, op: OperationClass | null, target: AccessTarget, safeMethod = false): AccessDecision {
  if (principal.kind === "key") {
    if (principal.role === "full") return allow;
    const writes = op === null ? !safeMethod : op.need === "tenant" ? op.write : op.need !== "read";
    return writes ? deny("this API key has the read role and cannot write") : allow;
  }
  if (op === null || op.need === "tenant") return deny("a token cannot use this route; it needs a tenant API key");
  if (!principal.scopes.includes(op.need)) return deny(`this token lacks the "${op.need}" scope`);
  if (target.userId !== undefined && target.userId !== principal.userId) return deny("this token belongs to another user");
  if (op.target === "session" || target.sessionId !== undefined) {
    // A user token may name a session of its choice: the owner rule (decideSessionOwner) then decides.
    if (principal.sessionId === null) {
      if (target.sessionId === undefined) return deny("this token is not bound to a session: name the session (path or X-Memory-Session)");
    } else if (target.sessionId !== principal.sessionId) return deny("this token is bound to another session");
  }
  return allow;
}

/**
 * The user a request acts for, before the session is read: a token's own user (naming another is
 * refused), else the user the request names (undefined: none named - a session route then acts for
 * the session's stored owner, resolved by the use case from the same read that stores the write,
 * see `ChatTurn.start`). One rule for every route; `decideSessionOwner` and the stores' owner
 * check complete it.
 */
export function actingUserOf(principal: Principal, named: string | undefined): { userId: string | undefined } | { refused: string } {
  if (principal.kind !== "token") return { userId: named };
  if (named !== undefined && named !== principal.userId) return { refused: "this token belongs to another user" };
  return { userId: principal.userId };
}

/** What the owner rule knows of a session besides its owner, and what the request does with it. */
export interface SessionAccess {
  /** Whether the session exists (absent: not known, so treated as existing). */
  exists?: boolean | undefined;
  /** The operation's class (absent: not known, so no chat turn). */
  op?: OperationClass | null | undefined;
}

/**
 * The owner rule of session routes, after {@link decideAccess} (`owner`: the session's stored
 * owner, null when none). Keys pass: a tenant key speaks for every user of its tenant. No token
 * reaches a session another user owns, even one bound to its id (a session id another user's
 * session took, or one minted by mistake). A token bound to the session also reaches it while
 * nobody owns it. A user token (bound to none) reaches the sessions its user owns, and starts a new
 * one with a chat turn (which makes its user the owner); a session that exists without an owner is
 * not its user's, so it takes a token bound to it.
 */
export function decideSessionOwner(principal: Principal, owner: string | null, session: SessionAccess = {}): AccessDecision {
  if (principal.kind !== "token" || owner === principal.userId) return allow;
  if (owner !== null) return deny("this session belongs to another user");
  if (principal.sessionId !== null) return allow;
  const op = session.op;
  if (session.exists === false && op && op.need === "chat") return allow;
  return deny("this token is not bound to a session, and its user does not own this one (a chat turn starts a new session)");
}

/** What a client asks `POST /v1/tokens` for. */
export interface TokenRequest {
  userId: string;
  sessionId?: string | undefined;
  scopes?: readonly TokenScope[] | undefined;
  ttlSeconds?: number | undefined;
}

/** The claims of a token (JWT registered names plus ours: `ten`, `sid`, `scp`). */
export interface TokenClaims {
  iss: "agent-memory";
  sub: string;
  ten: string;
  sid?: string;
  scp: TokenScope[];
  jti: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

/** The claims of a token a full key mints for `request`; times in seconds as JWT wants them. */
export function tokenClaims(tenant: string, request: TokenRequest, tokenId: string, nowMs: number): TokenClaims {
  const ttl = Math.min(request.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS, MAX_TOKEN_TTL_SECONDS);
  const iat = Math.floor(nowMs / 1000);
  const scopes = request.scopes && request.scopes.length > 0 ? [...new Set(request.scopes)] : [...TOKEN_SCOPES];
  return {
    iss: "agent-memory",
    sub: request.userId,
    ten: tenant,
    ...(request.sessionId !== undefined ? { sid: request.sessionId } : {}),
    scp: scopes,
    jti: tokenId,
    iat,
    exp: iat + ttl,
  };
}

/** A verified token's principal, or null when its claims are not ours. */
export function tokenPrincipal(claims: Record<string, unknown>, isId: (value: unknown) => boolean): Principal | null {
  const { sub, ten, sid, scp, jti, iss } = claims;
  if (iss !== "agent-memory" || !isId(sub) || !isId(ten) || typeof jti !== "string") return null;
  if (sid !== undefined && !isId(sid)) return null;
  if (!Array.isArray(scp) || !scp.every((s) => (TOKEN_SCOPES as readonly unknown[]).includes(s))) return null;
  return {
    kind: "token",
    tenant: ten as string,
    tokenId: jti,
    userId: sub as string,
    sessionId: (sid as string | undefined) ?? null,
    scopes: scp as TokenScope[],
  };
}
