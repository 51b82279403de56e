/** @module Reads the shell commands of docs/connect.md, for `npm run docs:check` and its unit test. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CONNECT_DOC = fileURLToPath(new URL("../docs/connect.md", import.meta.url));

/** The MCP Inspector release the page pins, and the lowest Node its `engines` allow. */
export const INSPECTOR_VERSION = "2.12.0";
export const INSPECTOR_NODE = "22.19.0";

/** One ```sh block of the page: its commands (continuation lines joined), under the heading it sits in. */
export interface ShellBlock {
  heading: string;
  commands: string[];
}

/** Every ```sh block, in order; comment lines and blank lines dropped, `\` continuations joined. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  let heading = "";
  let current: string[] | null = null;
  let pending = "";
  for (const line of markdown.split("\n")) {
    if (current === null) {
      if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, "");
      if (/^```(sh|bash|shell)\s*$/.test(line)) current = [];
      continue;
    }
    if (/^```\s*$/.test(line)) {
      blocks.push({ heading, commands: current });
      current = null;
      continue;
    }
    if (pending === "" && (/^\s*#/.test(line) || line.trim() === "")) continue;
    const joined = pending + line.trim();
    if (joined.endsWith("\\")) pending = `${joined.slice(0, -1).trimEnd()} `;
    else {
      current.push(joined);
      pending = "";
    }
  }
  return blocks;
}

/** The `npm run ...` commands the page's examples table lists. */
export function exampleCommands(markdown: string): string[] {
  return [...markdown.matchAll(/^\| `(npm run example:[a-z-]+)`/gm)].map((m) => m[1] as string);
}

/** Whether `version` (`v20.19.2` or `20.19.2`) is at least `floor`. */
export function nodeAtLeast(version: string, floor: string): boolean {
  const parts = (v: string) => v.replace(/^v/, "").split(".").map(Number);
  const [a, b] = [parts(version), parts(floor)];
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

export function readConnectDoc(): string {
  return readFileSync(CONNECT_DOC, "utf8");
}
