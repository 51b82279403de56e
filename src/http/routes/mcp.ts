/** @module `/mcp`: the memory tools over MCP's Streamable HTTP transport, stateless (one server per request). */
import { Hono } from "hono";
import type { AppEnv } from "../context-types.ts";
import { UNPARSEABLE, mcpBody, mcpCaller } from "../middleware/mcp-access.ts";

/**
 * The MCP SDK, loaded on the first `/mcp` request: its modules build hundreds of schemas when they
 * load, CPU that every other cold start of the isolate would otherwise pay (the bundler defers a
 * module that is only imported dynamically).
 */
const loadMcp = async () => {
  const [{ buildMcpServer, malformedToolCall }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
    import("../mcp/server.ts"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]);
  return { buildMcpServer, malformedToolCall, WebStandardStreamableHTTPServerTransport };
};

/**
 * POST only: a stateless server has no stream to offer on GET and no session to end on DELETE,
 * so both answer 405, which MCP clients take as "no standalone stream". Answers are JSON, not
 * SSE: every tool answers in one piece.
 */
export function mcpRoutes() {
  const app = new Hono<AppEnv>();
  app.post("/mcp", async (c) => {
    const { buildMcpServer, malformedToolCall, WebStandardStreamableHTTPServerTransport } = await loadMcp();
    const body = await mcpBody(c);
    // A call the SDK cannot even read is refused here, in our words, before anything runs.
    const malformed = malformedToolCall(body);
    if (malformed) return c.json(malformed, 400);
    const server = buildMcpServer(c.get("memory"), mcpCaller(c), c.get("runtime").logger);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, body === undefined || body === UNPARSEABLE ? undefined : { parsedBody: body });
    } finally {
      void server.close();
    }
  });
  return app;
}
