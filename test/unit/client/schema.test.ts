import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from "../../../scripts/client-generate.ts";

describe("client/src/schema.ts", () => {
  it("is what `npm run client:generate` writes for the current routes", { timeout: 30_000 }, async () => {
    const expected = await clientSchemaSource();
    const committed = readFileSync(CLIENT_SCHEMA_FILE, "utf8");
    expect(committed === expected, "the typed client is stale: run `npm run client:generate` and commit client/src/schema.ts").toBe(true);
  });

  it("names every operation by its operationId", async () => {
    const source = await clientSchemaSource();
    for (const id of [
      "appendMessages",
      "getContext",
      "chat",
      "createChatCompletion",
      "addFact",
      "searchFacts",
      "updateFact",
      "eraseUser",
    ]) {
      expect(source).toContain(`    ${id}: {`);
    }
  });
});
