/** @module defineTool: an MCP tool's schemas, access class, annotations and reference text together with the use case it runs, like `defineRoute` for a REST route. */
import { z } from "zod";
import type { AccessTarget, OperationClass, Principal } from "../../memory/access/index.ts";
import type { TenantMemory } from "../../memory/tenant-memory.ts";
import { ToolInputError } from "../errors.ts";

/** Who calls and what the connection names: the defaults a tool falls back on. */
export interface ToolCaller {
  principal: Principal;
  /** `X-Memory-User` of the connection: the user a key-authenticated client works for. */
  user: string | undefined;
  /** `X-Memory-Session` of the connection. */
  session: string | undefined;
}

/** A tool's answer: text for the model and the same facts as `structuredContent` for programs. */
export interface ToolAnswer<O = Record<string, unknown>> {
  text: string;
  structured: O;
}

/** What a call acts on, resolved from its arguments and the connection. */
export interface ToolScope {
  /** The user the call names, or the connection's, or a token's own; undefined when none does. */
  userId: string | undefined;
  /** That user; a call naming none is refused with what to pass (the model can fix it). */
  user(): string;
  /** The session the call names, or the connection's, or a session token's; refused when none does. */
  session(): string;
}

/** What a tool is, stated once: the server lists it, the access guard and the rate limiter read it. */
export interface ToolSpec<I extends z.core.$ZodShape, O extends z.core.$ZodShape> {
  name: string;
  title: string;
  /** What the model reads in `tools/list`. */
  description: string;
  /** The arguments' fields (unknown fields are refused). */
  input: I;
  /** The `structuredContent` fields: what a program reads without parsing the text. */
  output: O;
  /**
   * What the call needs under the access rules, checked like a route's (see `decideAccess`):
   * the tool that reads a user's facts needs what `GET .../facts` needs.
   */
  access: OperationClass;
  /** `user`: the call acts on the user it names; `session`: on a session (and the user it names). */
  actsOn: "user" | "session";
  /** Annotated so clients may run it without asking the user. */
  readOnly: boolean;
  /** Annotated so clients ask the user first. */
  destructive: boolean;
  /** Calling it twice with the same arguments does what calling it once does. */
  idempotent: boolean;
  /**
   * Its `metadata` argument is a filter, checked on the raw arguments by the REST rule.
   * @default false
   */
  metadataFilter?: boolean;
  /** The one use case the call runs, and its answer. */
  run(memory: TenantMemory, args: z.infer<z.ZodObject<I>>, scope: ToolScope): Promise<ToolAnswer<z.infer<z.ZodObject<O>>>>;
}

/** A defined tool: its spec, with its schemas built on first use and its access target. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  access: OperationClass;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  metadataFilter: boolean;
  /** The arguments as one strict object schema. */
  inputSchema(): z.ZodObject;
  /** The `structuredContent` as one object schema. */
  outputSchema(): z.ZodObject;
  /** The user and session the call acts on (what the access rules check). */
  target(args: Record<string, unknown>, caller: ToolCaller): AccessTarget;
  /** Runs the use case on validated arguments. */
  run(memory: TenantMemory, args: Record<string, unknown>, caller: ToolCaller): Promise<ToolAnswer>;
}

const asId = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The user a call acts for: its argument, else the connection's `X-Memory-User`, else a token's own user. */
export function callUser(args: Record<string, unknown>, caller: ToolCaller): string | undefined {
  return asId(args.userId) ?? caller.user ?? (caller.principal.kind === "token" ? caller.principal.userId : undefined);
}

/** The session a call acts on: its argument, else `X-Memory-Session`, else a session token's own session. */
export function callSession(args: Record<string, unknown>, caller: ToolCaller): string | undefined {
  return (
    asId(args.sessionId) ?? caller.session ?? (caller.principal.kind === "token" ? (caller.principal.sessionId ?? undefined) : undefined)
  );
}

function scopeOf(args: Record<string, unknown>, caller: ToolCaller): ToolScope {
  const userId = callUser(args, caller);
  return {
    userId,
    user() {
      if (userId === undefined)
        throw new ToolInputError("name the user: pass userId (or connect with the X-Memory-User header or a user token)");
      return userId;
    },
    session() {
      const sessionId = callSession(args, caller);
      if (sessionId === undefined)
        throw new ToolInputError("name the conversation: pass sessionId (or connect with the X-Memory-Session header or a session token)");
      return sessionId;
    },
  };
}

/** Memoizes a schema: built on the first call, which every request's server and every call then share. */
function once(build: () => z.ZodObject): () => z.ZodObject {
  let built: z.ZodObject | undefined;
  return () => (built ??= build());
}

/** A tool with its facts; the MCP server registers it, the access guard checks it, the rate limiter prices it. */
export function defineTool<I extends z.core.$ZodShape, O extends z.core.$ZodShape>(spec: ToolSpec<I, O>): ToolDefinition {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    access: spec.access,
    readOnly: spec.readOnly,
    destructive: spec.destructive,
    idempotent: spec.idempotent,
    metadataFilter: spec.metadataFilter ?? false,
    // Built on first use: the access guard loads the definitions on every cold start, the schemas only `/mcp` needs.
    inputSchema: once(() => z.object(spec.input).strict()),
    outputSchema: once(() => z.object(spec.output)),
    target: (args, caller) =>
      spec.actsOn === "user"
        ? { userId: callUser(args, caller) }
        : { userId: callUser(args, caller), sessionId: callSession(args, caller) },
    run: (memory, args, caller) => spec.run(memory, args as z.infer<z.ZodObject<I>>, scopeOf(args, caller)),
  };
}
