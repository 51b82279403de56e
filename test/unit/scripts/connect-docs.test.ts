import { describe, expect, it } from "vitest";
import {
  INSPECTOR_NODE,
  INSPECTOR_VERSION,
  exampleCommands,
  nodeAtLeast,
  readConnectDoc,
  shellBlocks,
} from "../../../scripts/connect-docs.ts";

// What `npm run docs:check` runs by hand (it needs the network), checked here without it: the
// commands of docs/connect.md pin what they download and say which Node they need.

const doc = readConnectDoc();
const commands = shellBlocks(doc).flatMap((b) => b.commands);

describe("docs/connect.md commands", () => {
  it("pin the MCP Inspector, whose unpinned npx resolves a release without --header on Node 20", () => {
    const inspector = commands.filter((c) => c.includes("@modelcontextprotocol/inspector"));
    expect(inspector.length).toBeGreaterThanOrEqual(2);
    for (const command of inspector) expect(command).toContain(`@modelcontextprotocol/inspector@${INSPECTOR_VERSION} --cli`);
    // The prose too: no unpinned `npx @modelcontextprotocol/inspector` anywhere on the page.
    expect(doc).not.toMatch(/npx (-y )?@modelcontextprotocol\/inspector(?!@)/);
  });

  it("state the Inspector's Node floor where its commands are, and give a call that works on every supported Node", () => {
    const section = doc.slice(doc.indexOf("**MCP Inspector**"));
    const floor = INSPECTOR_NODE.split(".").slice(0, 2).join(".");
    expect(section.slice(0, 200)).toContain(`needs Node ${floor}+`);
    const fallback = commands.find((c) => c.startsWith("curl ") && c.includes("/mcp"));
    expect(fallback).toContain('"method":"tools/list"');
    expect(fallback).toMatch(/accept: application\/json, text\/event-stream/);
  });

  it("install the packed client without assuming the checkout's folder name", () => {
    const install = shellBlocks(doc).find((b) => b.commands.some((c) => c.includes("npm install")));
    expect(install).toBeDefined();
    const text = install?.commands.join("\n") ?? "";
    expect(text).not.toMatch(/\.\.\/agent-memory\b/);
    expect(text).toContain("npm pack -w @agent-memory/client");
    expect(text).toContain('npm install "$CLIENT_TGZ"');
  });

  it("list the examples the check runs", () => {
    expect(exampleCommands(doc)).toEqual([
      "npm run example:chat",
      "npm run example:client",
      "npm run example:ai-sdk",
      "npm run example:browser",
    ]);
  });
});

describe("shellBlocks", () => {
  it("joins continuation lines and drops comments and blank lines", () => {
    const md = "## A\n\n```sh\n# note\nnpx x --a \\\n  --b\n\ncurl y\n```\n\n```ts\nnot shell\n```\n";
    expect(shellBlocks(md)).toEqual([{ heading: "A", commands: ["npx x --a --b", "curl y"] }]);
  });
});

describe("nodeAtLeast", () => {
  it("compares versions part by part", () => {
    expect(nodeAtLeast("v20.19.2", "22.19.0")).toBe(false);
    expect(nodeAtLeast("v22.19.0", "22.19.0")).toBe(true);
    expect(nodeAtLeast("v22.20.1", "22.19.0")).toBe(true);
    expect(nodeAtLeast("v24.0.0", "22.19.0")).toBe(true);
    expect(nodeAtLeast("v22.9.0", "22.19.0")).toBe(false);
  });
});
