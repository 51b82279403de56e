/** The access rules on `/mcp`: each tool call of a JSON-RPC body is checked like the route it stands for. */
import type { Context, MiddlewareHandler } from "hono";
import { decideAccess, decideSessionOwner, type AccessTarget } from "../../memory/access/index.ts";
import { isValidId } from "../../memory/ids.ts";
import { MCP_TOOL_ACCESS } from "../access-table.ts";
import type { AppEnv } from "../context-types.ts";
import { ApiError } from "../errors.ts";
import { TOOLS, type ToolCaller } from "../mcp/tools.ts";

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

/** The `tools/call` requests of a JSON-RPC message or batch. */
function toolCalls(body: unknown): ToolCall[] {
  const messages = Array.isArray(body) ? body : [body];
  const calls: ToolCall[] = [];
  for (const m of messages) {
    if (typeof m !== "object" || m === null || (m as { method?: unknown }).method !== "tools/call") continue;
    const params = (m as { params?: unknown }).params;
    const name = typeof params === "object" && params !== null ? (params as { name?: unknown }).name : undefined;
    const args = typeof params === "object" && params !== null ? (params as { arguments?: unknown }).arguments : undefined;
    calls.push({
      name: typeof name === "string" ? name : "",
      args: typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
    });
  }
  return calls;
}

const byName = new Map(TOOLS.map((t) => [t.name as string, t]));

/**
 * Applies the domain's access rules to the tool calls of a `/mcp` request before the MCP SDK sees
 * it: a call outside the caller's rights is refused with 403 (and audited) like the equivalent
 * route, never half-run. Discovery (`initialize`, `tools/list`) is open to every valid credential.
 * Sets the request's target (the first call's user) for the rate limiter.
 */
export function mcpAccessGuard(): MiddlewareHandler<AppEnv> {
  return async function guardMcp(c, next) {
    const caller = mcpCaller(c);
    let target: AccessTarget = { userId: caller.user ?? (caller.principal.kind === "token" ? caller.principal.userId : undefined) };
    if (c.req.method === "POST") {
      const calls = toolCalls(await mcpBody(c));
      for (const [i, call] of calls.entries()) {
        const tool = byName.get(call.name);
        // An unknown tool runs nothing: the SDK answers it with an error result.
        if (!tool) continue;
        const callTarget = tool.target(call.args, caller);
        // A malformed id runs nothing either: the tool's schema rejects the call before it runs.
        if (![callTarget.userId, callTarget.sessionId].every((id) => id === undefined || isValidId(id))) continue;
        if (i === 0) target = callTarget;
        let decision = decideAccess(caller.principal, MCP_TOOL_ACCESS[tool.name] ?? null, callTarget);
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
    }
    c.set("target", target);
    await next();
  };
}
