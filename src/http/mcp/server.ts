/** @module Builds the MCP server of one request: the official SDK's `McpServer` with the memory tools, their calls validated and answered here. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { decideAccess } from "../../memory/access/index.ts";
import type { TenantMemory } from "../../memory/tenant-memory.ts";
import type { MemoryLogger } from "../../memory/ports/index.ts";
import { ToolInputError } from "../errors.ts";
import { toApiError } from "../on-error.ts";
import { issueProblem } from "../router.ts";
import { checkArguments } from "./fields.ts";
import type { ToolCaller, ToolDefinition } from "./tool-def.ts";
import { TOOLS } from "./tools.ts";

/** What the server says about itself in `initialize`. */
export const MCP_SERVER_INFO = { name: "agent-memory", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "Long-term memory of the user across conversations. Call recall before answering anything that may depend on earlier conversations; call remember when the user shares something worth knowing later (one idea per call); call forget when asked to forget something. Memories belong to one user: the connection usually names them, otherwise pass userId.";

/** What a tool answers when the store is down: no upstream text, just what to do. */
export const UNAVAILABLE = "memory store unavailable, retry in a few seconds";

// The SDK's default validator (Ajv) compiles code at run time, which Workers forbid, and costs CPU
// to build; the server only needs one for elicitation, which these tools never use.
let validator: CfWorkerJsonSchemaValidator | undefined;

const errorResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });

/**
 * A failure as the model should read it, in the REST API's words: our own message for a refusal
 * the caller can act on (a missing user, an unknown fact id), and for anything from upstream only
 * whether retrying helps - never the store's or the SDK's own text.
 */
function toolError(err: unknown, tool: string, logger: MemoryLogger): CallToolResult {
  if (err instanceof ToolInputError) return errorResult(err.message);
  const api = toApiError(err);
  if (api.status >= 500) {
    logger.error("tool failed", { tool, code: api.code, message: err instanceof Error ? err.message : String(err) });
    // A store or model that is down for a moment; one the deployment lacks (retry after an hour) is
    // said in our own words, since retrying soon will not help.
    const soon = Number(api.headers["retry-after"] ?? "0") <= 60;
    if (api.status === 502 || (api.code === "upstream_unavailable" && soon)) return errorResult(UNAVAILABLE);
    if (api.status === 503) return errorResult(`${api.message} (${api.code})`);
    return errorResult("internal error: the call did not complete");
  }
  return errorResult(`${api.message} (${api.code})`);
}

/**
 * The first `tools/call` of a JSON-RPC message or batch whose params the SDK would refuse (a
 * `name` that is not text, `arguments` that are not an object), as a JSON-RPC error in the REST
 * API's words, or null: the SDK's own answer to those is zod's issue list as JSON.
 */
export function malformedToolCall(
  body: unknown,
): { jsonrpc: "2.0"; id: string | number | null; error: { code: number; message: string } } | null {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== "object" || message === null || (message as { method?: unknown }).method !== "tools/call") continue;
    const parsed = CallToolRequestSchema.safeParse(message);
    if (parsed.success) continue;
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join(".")} ` : "";
    const rawId = (message as { id?: unknown }).id;
    const id = typeof rawId === "string" || typeof rawId === "number" ? rawId : null;
    return {
      jsonrpc: "2.0",
      id,
      error: { code: -32602, message: `invalid tools/call: ${where}${issue ? issueProblem(issue) : "is invalid"}` },
    };
  }
  return null;
}

const byName = new Map<string, ToolDefinition>(TOOLS.map((t) => [t.name, t]));
const TOOL_NAMES = TOOLS.map((t) => t.name).join(", ");

/** Runs one validated call: the access rule again at the point of use, the use case, text and structured content. */
async function runTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  memory: TenantMemory,
  caller: ToolCaller,
  logger: MemoryLogger,
) {
  try {
    const decision = decideAccess(caller.principal, tool.access, tool.target(args, caller));
    if (!decision.allowed) return errorResult(`forbidden: ${decision.reason}`);
    const answer = await tool.run(memory, args, caller);
    // The shape the client checks against the declared outputSchema; a mismatch is our bug, not the caller's.
    const checked = tool.outputSchema().safeParse(answer.structured);
    if (!checked.success) {
      logger.error("tool answer does not match its output schema", { tool: tool.name, issue: checked.error.issues[0]?.message ?? "" });
      return errorResult("internal error: the call did not complete");
    }
    return { content: [{ type: "text" as const, text: answer.text }], structuredContent: answer.structured };
  } catch (err) {
    return toolError(err, tool.name, logger);
  }
}

/**
 * A stateless MCP server for one request of `caller`. The SDK lists the tools (schemas, output
 * schemas, annotations) from their definitions; their calls are answered here instead of by the
 * SDK's own handler, which validates a parsed copy of the arguments (a record parse drops a
 * `__proto__` key without a word) and answers with its own error text. Every call checks the
 * access rules (the route checked them already, before the body reached the SDK; this is the same
 * rule again at the point of use) and calls one use case of `memory`.
 */
export function buildMcpServer(memory: TenantMemory, caller: ToolCaller, logger: MemoryLogger): McpServer {
  validator ??= new CfWorkerJsonSchemaValidator();
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema(),
        outputSchema: tool.outputSchema(),
        annotations: {
          title: tool.title,
          readOnlyHint: tool.readOnly,
          destructiveHint: tool.destructive,
          idempotentHint: tool.idempotent,
          openWorldHint: false,
        },
      },
      (args: Record<string, unknown>) => runTool(tool, args, memory, caller, logger),
    );
  }
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) return errorResult(`unknown tool: call one of ${TOOL_NAMES}`);
    const checked = checkArguments(tool, request.params.arguments ?? {});
    if (!checked.ok) return errorResult(checked.message);
    return runTool(tool, checked.args, memory, caller, logger);
  });
  return server;
}
