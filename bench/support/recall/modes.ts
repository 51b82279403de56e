import type { DenseModel, VectorIndexSettings } from "../../../tools/upstash-local/vector/config.ts";
import type { IndexMode } from "./retriever.ts";

/** The dense model the recall benches measure unless `--dense-model` says otherwise: the dev stack's. */
export const BENCH_DENSE_MODEL: DenseModel = "USE_LITE";

/** upstash-local index settings per index kind (upstash-local models dense, sparse and hybrid). */
export const EMULATOR_INDEX: Record<IndexMode, VectorIndexSettings> = {
  dense: { kind: "dense" },
  sparse: { kind: "sparse" },
  hybrid: { kind: "hybrid" },
};

/** The emulator settings of `mode` with `denseModel` (ignored by a sparse index). */
export function emulatorIndexFor(mode: IndexMode, denseModel: DenseModel = BENCH_DENSE_MODEL): { config: VectorIndexSettings } {
  return { config: mode === "sparse" ? EMULATOR_INDEX[mode] : { ...EMULATOR_INDEX[mode], denseModel } };
}
