import { describe, expect, it } from "vitest";
import { ToolInputError } from "../../../../src/http/errors.ts";
import { checkArguments } from "../../../../src/http/mcp/fields.ts";
import type { ToolCaller } from "../../../../src/http/mcp/tool-def.ts";
import { TOOLS } from "../../../../src/http/mcp/tools.ts";
import type { TenantMemory } from "../../../../src/memory/tenant-memory.ts";

// Each tool is one definition: what the server lists, what the access guard checks and what the
// rate limiter prices all come from it.

const tool = (name: string) => {
  const found = TOOLS.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

const keyCaller = (user?: string, session?: string): ToolCaller => ({
  principal: { kind: "key", tenant: "acme", keyId: "k_000000000000", role: "full" },
  user,
  session,
});

describe("the MCP tool definitions", () => {
  it("name each tool once, with its access class and annotations", () => {
    expect(TOOLS.map((t) => t.name)).toEqual(["remember", "recall", "forget", "list_memories", "get_context"]);
    expect(Object.fromEntries(TOOLS.map((t) => [t.name, [t.access, t.readOnly, t.destructive, t.idempotent]]))).toEqual({
      remember: [{ need: "write", target: "user" }, false, false, false],
      recall: [{ need: "read", target: "user" }, true, false, true],
      forget: [{ need: "write", target: "user" }, false, true, true],
      list_memories: [{ need: "read", target: "user" }, true, false, true],
      get_context: [{ need: "read", target: "session" }, true, false, true],
    });
  });

  it("target the user a call names, else the connection's, and a session tool its session too", () => {
    expect(tool("recall").target({ query: "x", userId: "ada" }, keyCaller("bob"))).toEqual({ userId: "ada" });
    expect(tool("recall").target({ query: "x" }, keyCaller("bob"))).toEqual({ userId: "bob" });
    expect(tool("get_context").target({}, keyCaller("bob", "s1"))).toEqual({ userId: "bob", sessionId: "s1" });
  });

  it("refuse a call that names no user or session with what to pass, before the use case runs", async () => {
    const memory = {} as TenantMemory;
    await expect(tool("remember").run(memory, { text: "x" }, keyCaller())).rejects.toThrow(ToolInputError);
    await expect(tool("remember").run(memory, { text: "x" }, keyCaller())).rejects.toThrow(/pass userId/);
    await expect(tool("get_context").run(memory, {}, keyCaller("ada"))).rejects.toThrow(/pass sessionId/);
  });

  it("check a metadata filter by the REST rule only where the tool filters by metadata", () => {
    const raw = { query: "x", metadata: { "1bad": "v" } };
    expect(checkArguments(tool("recall"), raw)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^invalid arguments: metadata "1bad"/),
    });
    expect(checkArguments(tool("remember"), { text: "x", metadata: { "1bad": "v" } })).toMatchObject({ ok: true });
    expect(checkArguments(tool("recall"), { query: "x", extra: 1 })).toEqual({
      ok: false,
      message: "invalid arguments: extra is not a known field",
    });
  });
});
