import type { ConfigVarName } from "./config-table.ts";

/** Worker bindings: the generated `Env` (wrangler.toml vars) plus secrets and optional vars. */
export type Bindings = Env & Partial<Record<ConfigVarName, string>>;
