/** Builds the MCP server of one request: the official SDK's `McpServer` with the memory tools. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { z } from "zod";
import { decideAccess } from "../../memory/access/index.ts";
import type { TenantMemory } from "../../memory/tenant-memory.ts";
import type { MemoryLogger } from "../../memory/ports/index.ts";
import { MCP_TOOL_ACCESS } from "../access-table.ts";
import { toApiError } from "../on-error.ts";
import { TOOLS, ToolInputError, type ToolCaller } from "./tools.ts";

/** What the server says about itself in `initialize`. */
export const MCP_SERVER_INFO = { name: "agent-memory", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "Long-term memory of the user across conversations. Call recall before answering anything that may depend on earlier conversations; call remember when the user shares something worth knowing later (one idea per call); call forget when asked to forget something. Memories belong to one user: the connection usually names them, otherwise pass userId.";

// The SDK's default validator (Ajv) compiles code at run time, which Workers forbid, and costs CPU
// to build; the server only needs one for elicitation, which these tools never use.
let validator: CfWorkerJsonSchemaValidator | undefined;

const errorResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });

/** A failure as the model should read it: what went wrong and whether retrying can help. */
function toolError(err: unknown, tool: string, logger: MemoryLogger): CallToolResult {
  if (err instanceof ToolInputError) return errorResult(err.message);
  const api = toApiError(err);
  if (api.status >= 500) logger.error("tool failed", { tool, code: api.code, message: err instanceof Error ? err.message : String(err) });
  const retry = api.status === 503 ? " Retry in a few seconds." : "";
  return errorResult(`${api.message} (${api.code}).${retry}`);
}

/**
 * A stateless MCP server for one request of `caller`: every tool checks the access rules (the
 * route checked them already, before the body reached the SDK; this is the same rule again at the
 * point of use) and calls one use case of `memory`.
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
        inputSchema: z.object(tool.inputSchema).strict(),
        annotations: {
          title: tool.title,
          readOnlyHint: tool.readOnly,
          destructiveHint: tool.destructive,
          idempotentHint: tool.name !== "remember",
          openWorldHint: false,
        },
      },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const decision = decideAccess(caller.principal, MCP_TOOL_ACCESS[tool.name] ?? null, tool.target(args, caller));
          if (!decision.allowed) return errorResult(`forbidden: ${decision.reason}`);
          const answer = await tool.run(memory, args as never, caller);
          return { content: [{ type: "text", text: answer.text }] };
        } catch (err) {
          return toolError(err, tool.name, logger);
        }
      },
    );
  }
  return server;
}
