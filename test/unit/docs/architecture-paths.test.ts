/** @module Keeps the docs that describe the code layout honest: every repository path they name in backticks, and every page they link to, exists. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../../", import.meta.url).pathname;

/** The pages checked; each names paths from the repository root. */
const PAGES = ["docs/architecture.md", "docs/development.md", "README.md"];

/** The top-level folders whose paths a page names in backticks. */
const REPO_PATH = /^(?:src|test|bench|tools|scripts|docs|public|client|examples)\/[\w./{}*-]*$/;
/**
 * A file name alone, listed right after a path (`src/x/a.ts`, `b.ts`, `c.ts`): read in that path's
 * folder. Only a list joined by commas counts, so a name in a sentence is left alone.
 */
const SIBLING = /^[\w.-]+\.(?:ts|md|json|html|js)$/;
/** The part of a named path that must exist: up to its first placeholder (`test/unit/<source path>`, `facts/{t}/*.json`). */
function fixedPart(path: string): string {
  const cut = path.search(/[<{*]/);
  const head = cut < 0 ? path : path.slice(0, cut);
  return cut < 0 ? head : head.slice(0, head.lastIndexOf("/") + 1);
}

/** Every repository path a page names in backticks, with the line it is on, resolved from the root. */
function namedPaths(markdown: string): { line: number; named: string; path: string }[] {
  const found: { line: number; named: string; path: string }[] = [];
  markdown.split("\n").forEach((text, i) => {
    /** The folder of the last path named, and where its span ended, for a list of file names after it. */
    let list: { folder: string; end: number } | undefined;
    for (const match of text.matchAll(/`([^`]+)`/g)) {
      const named = match[1]!;
      const end = match.index + match[0].length;
      // A placeholder may hold spaces (`test/unit/<source path>`); nothing else named here does.
      if (REPO_PATH.test(named.replace(/<[^>]*>/g, "x"))) {
        const path = fixedPart(named);
        found.push({ line: i + 1, named, path });
        list = { folder: path.endsWith("/") ? path : `${dirname(path)}/`, end };
      } else if (list && SIBLING.test(named) && text.slice(list.end, match.index) === ", ") {
        found.push({ line: i + 1, named, path: list.folder + named });
        list = { ...list, end };
      } else {
        list = undefined;
      }
    }
  });
  return found;
}

/** Every relative link of a page (`[x](recall.md#gates)`), resolved from the page's folder. */
function linkedPages(markdown: string, page: string): { line: number; path: string }[] {
  const found: { line: number; path: string }[] = [];
  markdown.split("\n").forEach((text, i) => {
    for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      found.push({ line: i + 1, path: join(dirname(page), target!) });
    }
  });
  return found;
}

describe("paths named by the docs of the code layout", () => {
  it("reads paths out of a page, placeholders and sibling file names included", () => {
    const page = "See `src/memory/facts/relevance.ts`, `recall.ts`, `test/unit/<source path>` and `index.ts`, then `npm test`.";
    expect(namedPaths(page).map((p) => p.path)).toEqual(["src/memory/facts/relevance.ts", "src/memory/facts/recall.ts", "test/unit/"]);
    expect(linkedPages("[a](security.md#x), [b](https://example.com)", "docs/architecture.md")).toEqual([
      { line: 1, path: "docs/security.md" },
    ]);
  });

  it("finds a path that does not exist", () => {
    const missing = namedPaths("`src/memory/no-such-file.ts`").filter((p) => !existsSync(join(ROOT, p.path)));
    expect(missing.map((p) => p.named)).toEqual(["src/memory/no-such-file.ts"]);
  });

  it.each(PAGES)("every path %s names exists", (page) => {
    const markdown = readFileSync(join(ROOT, page), "utf8");
    const paths = namedPaths(markdown);
    if (page === "docs/architecture.md") expect(paths.length).toBeGreaterThan(100);
    const missing = paths.filter((p) => !existsSync(join(ROOT, p.path))).map((p) => `${page}:${p.line} ${p.named}`);
    expect(missing).toEqual([]);
  });

  it.each(PAGES)("every page %s links to exists", (page) => {
    const markdown = readFileSync(join(ROOT, page), "utf8");
    const missing = linkedPages(markdown, page)
      .filter((l) => !existsSync(join(ROOT, l.path)))
      .map((l) => `${page}:${l.line} ${l.path}`);
    expect(missing).toEqual([]);
  });
});
