/** @module Loads a saved Vector file into an empty store, re-embedding it when its index kind or dense model changed. */
import { readFile } from "node:fs/promises";
import { KIND_DEFAULTS, type VectorIndexConfig, type VectorIndexKind } from "./config.ts";
import type { Parts } from "./context.ts";
import { decodeVector, SNAPSHOT_VERSION } from "./snapshot.ts";
import { readSparseVector } from "./sparse-vector.ts";
import type { VectorStore } from "./store.ts";
import { isObject, type Json } from "./validate.ts";

/**
 * Loads a saved file into an empty store. A missing file is fine; a corrupt or mismatched one
 * throws. A file of another index kind (e.g. a dense one from before the default became hybrid)
 * is rebuilt from each record's stored text with `reembed` when the index embeds text and every
 * record has data; otherwise it is refused with a message saying what to change. Returns whether
 * the index was rebuilt (then the caller saves it in the current kind). A file whose dense vectors
 * another dense model made (`denseModel`; a file without it has its kind's library default) is
 * rebuilt the same way, since vectors of two models cannot be compared.
 */
export async function loadInto(
  file: string,
  store: VectorStore,
  config: VectorIndexConfig,
  reembed: (texts: readonly string[]) => Promise<Parts[]>,
): Promise<{ rebuilt: boolean }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { rebuilt: false };
    throw err;
  }
  const parsed: unknown = JSON.parse(text);
  if (!isObject(parsed) || parsed.format !== "upstash-local-vector" || !Array.isArray(parsed.namespaces)) {
    throw new Error(`${file} is not an upstash-local vector file`);
  }
  const version = parsed.version ?? 1;
  if (version !== 1 && version !== SNAPSHOT_VERSION)
    throw new Error(`${file} has format version ${String(version)}, which this emulator cannot read`);
  const kind = version === 1 ? "dense" : parsed.kind;
  if (kind !== "dense" && kind !== "sparse" && kind !== "hybrid") throw new Error(`${file}: unknown index kind ${String(kind)}`);
  const entries = (parsed.namespaces as unknown[]).map((entry) => {
    if (!isObject(entry) || typeof entry.name !== "string" || !Array.isArray(entry.records))
      throw new Error(`${file}: bad namespace entry`);
    const records = (entry.records as unknown[]).map((r) => {
      if (!isObject(r) || typeof r.id !== "string") throw new Error(`${file}: bad record`);
      return r;
    });
    return { name: entry.name, records };
  });
  const fileModel = typeof parsed.denseModel === "string" ? parsed.denseModel : KIND_DEFAULTS[kind].denseModel;
  const modelChanged = config.embedding && kind !== "sparse" && config.kind !== "sparse" && fileModel !== config.denseModel;
  if (kind !== config.kind || modelChanged) {
    const all = entries.flatMap((e) => e.records);
    if (!config.embedding || !all.every((r) => typeof r.data === "string")) {
      throw kind !== config.kind ? kindMismatch(file, kind, config.kind) : modelMismatch(file, fileModel, config.denseModel);
    }
    for (const { name, records } of entries) {
      const ns = store.ensure(name);
      const parts = await reembed(records.map((r) => r.data as string));
      records.forEach((r, i) => {
        ns.upsert(r.id as string, { ...parts[i], ...rest(r) });
      });
    }
    return { rebuilt: true };
  }
  if (kind !== "sparse" && parsed.dimension !== store.dimension) {
    throw new Error(
      `${file} holds ${String(parsed.dimension)}-dimensional vectors but the index is configured with ${store.dimension}; ` +
        "use the same dimension or another data directory",
    );
  }
  for (const { name, records } of entries) {
    const ns = store.ensure(name);
    for (const r of records) {
      if (kind !== "sparse" && typeof r.vector !== "string") throw new Error(`${file}: record ${r.id as string} has no vector`);
      if (kind !== "dense" && !isObject(r.sparseVector)) throw new Error(`${file}: record ${r.id as string} has no sparseVector`);
      ns.upsert(r.id as string, {
        vector: kind === "sparse" ? undefined : decodeVector(r.vector as string, store.dimension),
        sparse: kind === "dense" ? undefined : readSparseVector(r.sparseVector, `${file}: sparseVector of ${r.id as string}`),
        ...rest(r),
      });
    }
  }
  return { rebuilt: false };
}

const rest = (r: Json): { metadata: Json | undefined; data: string | undefined } => ({
  metadata: isObject(r.metadata) ? r.metadata : undefined,
  data: typeof r.data === "string" ? r.data : undefined,
});

const modelMismatch = (file: string, found: string, configured: string): Error =>
  new Error(
    `${file} holds vectors of the dense model ${found} but the index uses ${configured}, and not every record has data to ` +
      `re-embed; set UPSTASH_LOCAL_VECTOR_DENSE_MODEL=${found} (or the denseModel option) or use another data directory`,
  );

const kindMismatch = (file: string, found: VectorIndexKind, configured: VectorIndexKind): Error =>
  new Error(
    `${file} holds a ${found} index but the index is configured as ${configured}, and not every record has data to ` +
      `re-embed; set UPSTASH_LOCAL_VECTOR_INDEX=${found} (or the kind option) or use another data directory`,
  );
