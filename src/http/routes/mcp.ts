/** `/mcp`: the memory tools over MCP's Streamable HTTP transport, stateless (one server per request). */
import { Hono } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { AppEnv } from "../env.ts";
import { buildMcpServer } from "../mcp/server.ts";
import { UNPARSEABLE, mcpBody, mcpCaller } from "../middleware/mcp-access.ts";

/**
 * POST only: a stateless server has no stream to offer on GET and no session to end on DELETE,
 * so both answer 405, which MCP clients take as "no standalone stream". Answers are JSON, not
 * SSE: every tool answers in one piece.
 */
export function mcpRoutes() {
  const app = new Hono<AppEnv>();
  app.post("/mcp", async (c) => {
    const server = buildMcpServer(c.get("memory"), mcpCaller(c), c.get("requestId"));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const body = await mcpBody(c);
      return await transport.handleRequest(c.req.raw, body === undefined || body === UNPARSEABLE ? undefined : { parsedBody: body });
    } finally {
      void server.close();
    }
  });
  return app;
}
