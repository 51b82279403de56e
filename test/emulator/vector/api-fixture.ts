import { Index } from "@upstash/vector";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startVectorEmulator, type VectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";
import { prng } from "../../support/prng.ts";

/**
 * What the vector emulator's API tests share: one dense emulator per test file, emptied before each
 * test, and the official client on it. Importing this registers the hooks in the importing file;
 * `emu` and `index` are live bindings, set before the first test.
 */
export type VectorUpsert = Parameters<Index["upsert"]>[0];
/** The REST API stores `data` next to a vector; the client's types do not say so, the protocol does. */
export const withData = (items: { id: string; vector: number[]; metadata?: Record<string, unknown>; data?: string }[]): VectorUpsert =>
  items as unknown as VectorUpsert;

/** A deterministic 384-dim vector, so failures are reproducible. */
export function seededVector(seed: number, dim = 384): number[] {
  const next = prng(seed);
  return Array.from({ length: dim }, () => next() - 0.5);
}

export let emu: VectorEmulator;
export let index: Index;

beforeAll(async () => {
  emu = await startVectorEmulator({ index: { kind: "dense" } });
  index = new Index({ url: emu.url, token: emu.token });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  await index.reset({ all: true });
  for (const ns of await index.listNamespaces()) if (ns !== "") await index.deleteNamespace(ns);
});
