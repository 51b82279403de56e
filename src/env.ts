import type { Hono } from "hono";
import type { Config } from "./config.ts";
import type { ConfigVarName } from "./config-vars.ts";
import type { Deps } from "./deps.ts";

/** Worker bindings: the generated `Env` (wrangler.toml vars) plus secrets and optional vars. */
export type Bindings = Env & Partial<Record<ConfigVarName, string>>;

/** Per-request values set by middleware. */
export interface Variables {
  config: Config;
  /** The tenant the API key grants; set by the auth middleware. */
  tenant: string;
  deps: Deps;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}

export type App = Hono<AppEnv>;
