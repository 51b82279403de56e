/** @module The access rules on `/mcp`: each tool call of a JSON-RPC body is checked like the route it stands for, and priced for the rate limit. */
import type { Context, MiddlewareHandler } from "hono";
import { decideAccess, decideSessionOwner, type AccessTarget } from "../../memory/access/index.ts";
import { isValidId } from "../../memory/ids.ts";
import type { AppEnv, RateCost } from "../context-types.ts";
import { ApiError } from "../errors.ts";
import { callUser, type ToolCaller } from "../mcp/tool-def.ts";
import { TOOLS } from "../mcp/tools.ts";

/** A body that is not JSON (the transport answers it with a JSON-RPC parse error). */
export const UNPARSEABLE = Symbol("unparseable");

/** The request's JSON body, parsed once (Hono caches it); `undefined` when it is not declared JSON. */
export async function mcpBody(c: Context<AppEnv>): Promise<unknown> {
  if (!/json/i.test(c.req.header("content-type") ?? "")) return undefined;
  return c.req.json().catch(() => UNPARSEABLE);
}

/** The caller of a `/mcp` request: its principal and the user and session the connection names. */
export function mcpCaller(c: Context<AppEnv>): ToolCaller {
  const header = (name: string): string | undefined => {
    const value = c.req.header(name);
    if (value === undefined || value === "") return undefined;
    if (!isValidId(value))
      throw new ApiError(400, "bad_request", `invalid header: ${name} must be an id of A-Z a-z 0-9 _ . - @ +, 1-128 characters`);
    return value;
  };
  return { principal: c.get("principal"), user: header("x-memory-user"), session: header("x-memory-session") };
}

interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** The `tools/call` requests of a JSON-RPC message or batch, and whether it holds other messages too. */
function toolCalls(body: unknown): { calls: ToolCall[]; others: boolean } {
  const messages = Array.isArray(body) ? body : [body];
  const calls: ToolCall[] = [];
  let others = false;
  for (const m of messages) {
    if (typeof m !== "object" || m === null || (m as { method?: unknown }).method !== "tools/call") {
      others = true;
      continue;
    }
    const params = (m as { params?: unknown }).params;
    const name = typeof params === "object" && params !== null ? (params as { name?: unknown }).name : undefined;
    const args = typeof params === "object" && params !== null ? (params as { arguments?: unknown }).arguments : undefined;
    calls.push({
      name: typeof name === "string" ? name : "",
      args: typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
    });
  }
  return { calls, others };
}

const byName = new Map(TOOLS.map((t) => [t.name, t]));

/**
 * What a `/mcp` request costs against the rate limits: one unit per tool call, against the
 * credential and against the user the call acts for, so a JSON-RPC batch costs what its calls
 * would cost sent one by one; the other messages of the body (initialize, tools/list,
 * notifications) cost one together. The connection's user counts at least once, as on `/v1`.
 */
function mcpCost(calls: readonly ToolCall[], others: boolean, caller: ToolCaller): RateCost {
  const users = new Map<string, number>();
  for (const call of calls) {
    const user = callUser(call.args, caller);
    if (isValidId(user)) users.set(user, (users.get(user) ?? 0) + 1);
  }
  const connectionUser = caller.user ?? (caller.principal.kind === "token" ? caller.principal.userId : undefined);
  if (connectionUser !== undefined && !users.has(connectionUser)) users.set(connectionUser, 1);
  return { credential: calls.length + (others || calls.length === 0 ? 1 : 0), users };
}

/**
 * Applies the domain's access rules to the tool calls of a `/mcp` request before the MCP SDK sees
 * it: a call outside the caller's rights is refused with 403 (and audited) like the equivalent
 * route, never half-run. Discovery (`initialize`, `tools/list`) is open to every valid credential.
 * Sets the request's target (the first call's user) and its cost for the rate limiter, on every
 * method (GET and HEAD are counted too).
 */
export function mcpAccessGuard(): MiddlewareHandler<AppEnv> {
  return async function guardMcp(c, next) {
    const caller = mcpCaller(c);
    let target: AccessTarget = { userId: caller.user ?? (caller.principal.kind === "token" ? caller.principal.userId : undefined) };
    const { calls, others } = c.req.method === "POST" ? toolCalls(await mcpBody(c)) : { calls: [], others: false };
    for (const [i, call] of calls.entries()) {
      const tool = byName.get(call.name);
      // An unknown tool runs nothing: the server answers it with an error result.
      if (!tool) continue;
      const callTarget = tool.target(call.args, caller);
      // A malformed id runs nothing either: the tool's validation rejects the call before it runs.
      if (![callTarget.userId, callTarget.sessionId].every((id) => id === undefined || isValidId(id))) continue;
      if (i === 0) target = callTarget;
      let decision = decideAccess(caller.principal, tool.access, callTarget);
      // As on the session routes: a token's session must not be another user's.
      if (decision.allowed && caller.principal.kind === "token" && callTarget.sessionId !== undefined) {
        decision = decideSessionOwner(caller.principal, await c.get("memory").sessionOwner(callTarget.sessionId));
      }
      if (!decision.allowed) {
        c.get("memory").audit("access.denied", callTarget, {
          method: "POST",
          path: c.req.path,
          tool: tool.name,
          reason: decision.reason,
        });
        throw new ApiError(403, "forbidden", `${tool.name}: ${decision.reason}`);
      }
    }
    const cost = mcpCost(calls, others, caller);
    c.set("target", target);
    c.set("users", [...cost.users.keys()].filter(isValidId));
    c.set("rateCost", cost);
    await next();
  };
}
