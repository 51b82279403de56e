import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildSpec } from "../../../../scripts/openapi-spec.ts";

// `redocly lint` on the document /openapi.json serves, with the repo's redocly.yaml: no error and no
// warning. The typed-response rules of redocly.yaml are also checked on small documents: they must catch
// a missing or empty success schema, else the first check would pass an untyped spec.

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const CLI = join(ROOT, "node_modules/@redocly/cli/bin/cli.js");
const CONFIG = join(ROOT, "redocly.yaml");
const TYPED_RESPONSE_RULES = [
  "rule/success-response-has-body",
  "rule/success-response-is-structured",
  "rule/success-response-has-properties",
];
const dir = mkdtempSync(join(tmpdir(), "agent-memory-lint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

async function lint(document: unknown, config: string, name: string): Promise<Problem[]> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2));
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  const run = promisify(execFile)(process.execPath, [CLI, "lint", file, "--config", config, "--format=json"], {
    env,
    cwd: dir,
    maxBuffer: 16 << 20,
  });
  // Exit code 1 means problems were found; the JSON report says which.
  const { stdout } = await run.catch((err: { stdout?: string; stderr?: string }) => {
    if (typeof err.stdout === "string" && err.stdout.includes('"problems"')) return { stdout: err.stdout };
    throw new Error(`redocly did not run: ${err.stderr ?? String(err)}`);
  });
  return (JSON.parse(stdout.slice(stdout.indexOf("{"))) as { problems: Problem[] }).problems;
}

const brief = (problems: Problem[]): string[] =>
  problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ""}: ${p.message}`);

/** redocly.yaml, once its typed-response rules are checked to be switched on. */
function typedResponsesConfig(): string {
  const config = parse(readFileSync(CONFIG, "utf8")) as { rules: Record<string, { severity?: string }> };
  for (const rule of TYPED_RESPONSE_RULES) expect(config.rules[rule]?.severity, `${rule} in redocly.yaml`).toBe("error");
  return CONFIG;
}

/** A one-tag document whose operations answer 200 with the given JSON schemas (or no body for `null`). */
function documentAnswering(answers: Record<string, unknown>): unknown {
  const paths = Object.fromEntries(
    Object.entries(answers).map(([name, schema]) => [
      `/${name}`,
      {
        get: {
          operationId: name,
          tags: ["things"],
          summary: name,
          description: name,
          responses: {
            200: schema === null ? { description: "ok" } : { description: "ok", content: { "application/json": { schema } } },
            400: { description: "bad input", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } },
          },
        },
      },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: { title: "fixture", version: "1", description: "fixture" },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    tags: [{ name: "things", description: "things" }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        Thing: { type: "object", properties: { id: { type: "string" } } },
        ...(JSON.stringify(answers).includes("/Nothing") ? { Nothing: { type: "object", properties: {} } } : {}),
      },
    },
  };
}

/** The document of `documentAnswering`, with the 4xx answers of `/<name>` removed. */
function withoutClientErrors(document: unknown, names: string[]): unknown {
  const paths = (document as { paths: Record<string, { get: { responses: Record<string, unknown> } }> }).paths;
  for (const name of names) delete paths[`/${name}`]?.get.responses["400"];
  return document;
}

describe("redocly lint", () => {
  it("finds no error and no warning in /openapi.json", { timeout: 60_000 }, async () => {
    expect(brief(await lint(buildSpec(), CONFIG, "spec"))).toEqual([]);
  });

  it("has typed-response rules that catch a missing or empty success schema", { timeout: 60_000 }, async () => {
    const config = typedResponsesConfig();
    const untyped = documentAnswering({
      "any-object": { type: "object", properties: {}, additionalProperties: {} },
      "empty-component": { $ref: "#/components/schemas/Nothing" },
      "bare-map": { type: "object", additionalProperties: {} },
      anything: {},
      "no-body": null,
    });
    const found = (await lint(untyped, config, "untyped")).map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ""}`).sort();
    expect(found).toEqual(
      [
        "rule/success-response-has-body #/paths/~1no-body/get/responses/200/content",
        "rule/success-response-has-properties #/components/schemas/Nothing/properties",
        "rule/success-response-has-properties #/paths/~1any-object/get/responses/200/content/application~1json/schema/properties",
        "rule/success-response-is-structured #/paths/~1anything/get/responses/200/content/application~1json/schema",
        "rule/success-response-is-structured #/paths/~1bare-map/get/responses/200/content/application~1json/schema",
      ].sort(),
    );

    const typed = documentAnswering({
      object: {
        type: "object",
        required: ["id"],
        properties: { id: { type: "string" }, metadata: { type: "object", additionalProperties: {} } },
      },
      component: { $ref: "#/components/schemas/Thing" },
      list: { type: "array", items: { $ref: "#/components/schemas/Thing" } },
      union: { anyOf: [{ $ref: "#/components/schemas/Thing" }, { type: "object", properties: { done: { type: "boolean" } } }] },
    });
    expect(brief(await lint(typed, config, "typed"))).toEqual([]);
  });

  it("wants a 4xx on every operation but the health probe", { timeout: 60_000 }, async () => {
    const thing = { $ref: "#/components/schemas/Thing" };
    const document = withoutClientErrors(documentAnswering({ healthz: thing, things: thing, other: thing }), ["healthz", "things"]);
    const found = (await lint(document, CONFIG, "client-errors")).map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ""}`);
    expect(found).toEqual(["rule/client-error-response #/paths/~1things/get/responses"]);
  });
});
