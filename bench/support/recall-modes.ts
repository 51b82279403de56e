import type { VectorIndexSettings } from "../../tools/upstash-local/vector/config.ts";
import type { IndexMode } from "./recall-retriever.ts";

/** upstash-local index settings per index kind (upstash-local models dense, sparse and hybrid). */
export const EMULATOR_INDEX: Record<IndexMode, VectorIndexSettings> = {
  dense: { kind: "dense" },
  sparse: { kind: "sparse" },
  hybrid: { kind: "hybrid" },
};

/** The emulator settings of `mode`. */
export function emulatorIndexFor(mode: IndexMode): { config: VectorIndexSettings } {
  return { config: EMULATOR_INDEX[mode] };
}
