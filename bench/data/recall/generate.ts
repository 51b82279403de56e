/**
 * Writes bench/data/recall/dataset.json from the persona files (deterministic: same sources and
 * seed, same bytes). Run with `npx tsx bench/data/recall/generate.ts` after editing a persona.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildDataset, serializeDataset } from "./build.ts";

const dataset = buildDataset();
const target = fileURLToPath(new URL("./dataset.json", import.meta.url));
writeFileSync(target, serializeDataset(dataset));
const types = new Map<string, number>();
for (const f of dataset.facts) types.set(f.type, (types.get(f.type) ?? 0) + 1);
console.log(
  `wrote ${target}: ${dataset.personas.length} personas, ${dataset.facts.length} facts ` +
    `(${[...types].map(([t, n]) => `${t} ${n}`).join(", ")}), ` +
    `${dataset.queries.length} queries, ${dataset.unrelated.length} unrelated`,
);
