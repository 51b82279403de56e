/** @module A Vector index wrapper that seals fact texts (and optionally client metadata) in metadata and opens them on reads. */
import type { VectorIndex } from "../fact-index.ts";
import { namespaceToScope } from "../fact-namespace.ts";
import { SEALED_PREFIX, type FieldCipher } from "./cipher.ts";

type Dict = Record<string, unknown>;
type Codec = (text: string, tenant: string) => Promise<string>;

const isDict = (v: unknown): v is Dict => typeof v === "object" && v !== null && !Array.isArray(v);
// The test the opening itself makes first: a value without the prefix is opened as it is.
const sealedText = (value: unknown): value is string => typeof value === "string" && value.startsWith(SEALED_PREFIX);

/** The tenant a namespace belongs to: the additional data its sealed values are bound to. */
const tenantOf = (namespace: string | undefined): string => namespaceToScope(namespace ?? "")?.tenant ?? "";

/**
 * Seals or opens the texts of fact metadata: `text` and every `history[].text`, and with
 * `clientMetadata` the fact's client `metadata` object (as one sealed JSON string); other fields
 * stay clear.
 */
async function mapMetadata<T>(metadata: T, codec: Codec, tenant: string, clientMetadata: "seal" | "open" | "clear"): Promise<T> {
  if (!isDict(metadata)) return metadata;
  const out: Dict = { ...metadata };
  if (clientMetadata === "seal" && isDict(metadata.metadata)) out.metadata = await codec(JSON.stringify(metadata.metadata), tenant);
  if (clientMetadata === "open" && sealedText(metadata.metadata))
    out.metadata = JSON.parse(await codec(metadata.metadata, tenant)) as unknown;
  if (typeof metadata.text === "string") out.text = await codec(metadata.text, tenant);
  if (Array.isArray(metadata.history)) {
    out.history = await Promise.all(
      metadata.history.map(async (h: unknown) =>
        isDict(h) && typeof h.text === "string" ? { ...h, text: await codec(h.text, tenant) } : h,
      ),
    );
  }
  return out as T;
}

/** Whether read metadata holds a sealed value (without keys, or for facts stored before them, none does). */
function holdsSealed(metadata: unknown): boolean {
  if (!isDict(metadata)) return false;
  if (sealedText(metadata.text) || sealedText(metadata.metadata)) return true;
  return Array.isArray(metadata.history) && metadata.history.some((h: unknown) => isDict(h) && sealedText(h.text));
}

async function mapVector<T extends { metadata?: unknown }>(
  v: T,
  codec: Codec,
  tenant: string,
  clientMetadata: "seal" | "open" | "clear",
): Promise<T> {
  return v.metadata === undefined ? v : { ...v, metadata: await mapMetadata(v.metadata, codec, tenant, clientMetadata) };
}

/**
 * Read results opened: as they came when none holds a sealed value (a recall reads up to a few
 * hundred, and opening clear ones would only copy them), else each opened.
 */
function openAll<T extends { metadata?: unknown }>(results: T[], open: Codec, tenant: string): T[] | Promise<T[]> {
  if (!results.some((r) => holdsSealed(r.metadata))) return results;
  return Promise.all(results.map((r) => mapVector(r, open, tenant, "open")));
}

/**
 * A Vector index client that seals fact texts in metadata before they leave the Worker and opens
 * them in what comes back. Only metadata is touched: with `EMBEDDINGS=openai` the fact store sends
 * vectors, so Vector stores sealed text only; with the index's own model the `data` to embed
 * must reach Upstash in clear (it cannot embed ciphertext).
 */
export function sealedVectorIndex(inner: VectorIndex, cipher: FieldCipher, options: { sealMetadata?: boolean } = {}): VectorIndex {
  const seal: Codec = (text, tenant) => cipher.seal(text, tenant);
  const open: Codec = (text, tenant) => cipher.open(text, tenant);
  // Client metadata is sealed only when asked and a key is configured; a sealed one always opens.
  const onWrite = options.sealMetadata && cipher.currentKid !== null ? "seal" : "clear";
  const index: VectorIndex = {
    upsert: async (args, options) => {
      const tenant = tenantOf(options?.namespace);
      const sealed = Array.isArray(args)
        ? await Promise.all(args.map((v: { metadata?: unknown }) => mapVector(v, seal, tenant, onWrite)))
        : await mapVector(args, seal, tenant, onWrite);
      return inner.upsert(sealed as typeof args, options);
    },
    update: async (args, options) => {
      const sealed = "metadata" in args ? await mapVector(args, seal, tenantOf(options?.namespace), onWrite) : args;
      return inner.update(sealed, options);
    },
    query: async <M extends Dict>(args: Parameters<VectorIndex["query"]>[0], options?: { namespace?: string | undefined }) => {
      const tenant = tenantOf(options?.namespace);
      return openAll(await inner.query<M>(args, options), open, tenant);
    },
    queryMany: async <M extends Dict>(args: Parameters<VectorIndex["queryMany"]>[0], options?: { namespace?: string | undefined }) => {
      const tenant = tenantOf(options?.namespace);
      const groups = await inner.queryMany<M>(args, options);
      return Promise.all(groups.map((results) => openAll(results, open, tenant)));
    },
    fetch: async <M extends Dict>(payload: Parameters<VectorIndex["fetch"]>[0], options?: Parameters<VectorIndex["fetch"]>[1]) => {
      // Read before the call: the client deletes `namespace` from the options object it is given.
      const tenant = tenantOf(options?.namespace);
      const found = await inner.fetch<M>(payload, options);
      return Promise.all(found.map((v) => (v ? mapVector(v, open, tenant, "open") : v)));
    },
    range: async <M extends Dict>(args: Parameters<VectorIndex["range"]>[0], options?: { namespace?: string | undefined }) => {
      const tenant = tenantOf(options?.namespace);
      const page = await inner.range<M>(args, options);
      return { ...page, vectors: await Promise.all(page.vectors.map((v) => mapVector(v, open, tenant, "open"))) };
    },
    delete: (args, options) => inner.delete(args, options),
    listNamespaces: () => inner.listNamespaces(),
    deleteNamespace: (namespace) => inner.deleteNamespace(namespace),
  };
  return index;
}
