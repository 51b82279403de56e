import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// `wrangler deploy --dry-run` builds and bundles the Worker exactly as a deploy would, reads
// wrangler.toml and lists the bindings, without an account or a network: a broken build, a bad
// wrangler.toml or a missing binding fails here instead of at deploy time.

const run = promisify(execFile);
const outdir = mkdtempSync(join(tmpdir(), "agent-memory-dry-run-"));

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe("wrangler deploy --dry-run", () => {
  it("bundles the Worker and binds everything a deploy needs, offline", { timeout: 240_000 }, async () => {
    const { stdout } = await run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir], {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", CLOUDFLARE_API_TOKEN: "", NO_COLOR: "1" },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 230_000,
    });
    expect(stdout).toContain("--dry-run: exiting now.");
    // the fact-snapshot bucket, and the variables that must match the Vector index
    expect(stdout).toMatch(/env\.BACKUPS \(agent-memory-backups\)\s+R2 Bucket/);
    expect(stdout).toMatch(/env\.EMBEDDINGS \("index"\)/);
    expect(stdout).toMatch(/env\.VECTOR_INDEX \("hybrid"\)/);
    // no secret is ever a plain variable
    expect(stdout).not.toMatch(/env\.(API_KEYS|OPENAI_API_KEY|UPSTASH_\w+_TOKEN|TOKEN_SECRET|MEMORY_ENCRYPTION_KEYS) /);
    expect(readdirSync(outdir).some((f) => f.endsWith(".js"))).toBe(true);
  });
});
