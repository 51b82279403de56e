import type { VectorIndexConfig } from "../../tools/upstash-local/vector/index.ts";
import type { IndexMode } from "./recall-retriever.ts";

/**
 * upstash-local index settings per index kind. A kind can be measured once the emulator models
 * it: supporting it is adding its line here (e.g. `sparse: { <the emulator's kind option> }`).
 * Today upstash-local models dense indexes only.
 */
export const EMULATOR_INDEX: Partial<Record<IndexMode, Partial<VectorIndexConfig>>> = {
  dense: {},
};

/** The emulator settings of `mode`, or a message saying why it cannot run. */
export function emulatorIndexFor(mode: IndexMode): { config: Partial<VectorIndexConfig> } | { unsupported: string } {
  const config = EMULATOR_INDEX[mode];
  if (config) return { config };
  const supported = Object.keys(EMULATOR_INDEX).join(", ");
  return {
    unsupported:
      `index kind "${mode}" is not modelled by upstash-local yet (supported: ${supported}); ` +
      `add its settings to EMULATOR_INDEX in bench/support/recall-modes.ts once the emulator supports it`,
  };
}
