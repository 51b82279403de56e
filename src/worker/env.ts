/** @module The Worker's bindings: the generated `Env`, secrets and the optional configuration variables. */
import type { ConfigVarName } from "./config/table.ts";

/**
 * Worker bindings: the generated `Env` (wrangler.toml vars) plus secrets and optional vars. The
 * `BACKUPS` bucket is optional: without it backups are off.
 */
export type Bindings = Omit<Env, "BACKUPS"> & { BACKUPS?: R2Bucket } & Partial<Record<ConfigVarName, string>>;
