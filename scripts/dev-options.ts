/** @module `npm run dev` options: parses ports and the data folder from flags, environment and defaults, plus the help text. */
import { parseArgs } from "node:util";

/** What `npm run dev` binds on 127.0.0.1 and where it keeps its files. */
export interface DevOptions {
  /** Port of the Worker (`wrangler dev`). @default 8787 */
  port: number;
  /** Port of upstash-local's Redis REST emulator. @default 8079 */
  redisPort: number;
  /** Port of upstash-local's Vector REST emulator. @default 8081 */
  vectorPort: number;
  /** Port of wrangler's DevTools inspector. @default 9229 */
  inspectorPort: number;
  /** Folder of the Worker's env file and the emulators' data, kept across restarts. @default ".data" */
  dataDir: string;
}

type PortKey = "port" | "redisPort" | "vectorPort" | "inspectorPort";

/** One port setting: the flag and the variable that move it, and what listens there. */
export interface PortSetting {
  key: PortKey;
  flag: string;
  variable: string;
  fallback: number;
  what: string;
}

export const PORT_SETTINGS: readonly PortSetting[] = [
  { key: "port", flag: "--port", variable: "PORT", fallback: 8787, what: "the Worker" },
  { key: "redisPort", flag: "--redis-port", variable: "UPSTASH_LOCAL_REDIS_PORT", fallback: 8079, what: "upstash-local Redis REST" },
  { key: "vectorPort", flag: "--vector-port", variable: "UPSTASH_LOCAL_VECTOR_PORT", fallback: 8081, what: "upstash-local Vector REST" },
  { key: "inspectorPort", flag: "--inspector-port", variable: "INSPECTOR_PORT", fallback: 9229, what: "wrangler's inspector" },
];

export const DATA_DIR_VARIABLE = "DEV_DATA_DIR";

export const DEV_HELP = `npm run dev [-- options]: upstash-local and wrangler dev on 127.0.0.1, offline, zero config

Options (env var in brackets; a flag wins over its variable):
  --port <n>            the Worker [PORT] (default 8787)
  --redis-port <n>      upstash-local Redis REST [UPSTASH_LOCAL_REDIS_PORT] (default 8079)
  --vector-port <n>     upstash-local Vector REST [UPSTASH_LOCAL_VECTOR_PORT] (default 8081)
  --inspector-port <n>  wrangler's DevTools inspector [INSPECTOR_PORT] (default 9229)
  --data-dir <dir>      env file and emulator data, kept across restarts [DEV_DATA_DIR] (default .data)
  -h, --help            this text
Every Worker variable set in the shell is forwarded (README "Configuration"). REDIS_URL makes the Redis
emulator forward to that Redis; the four UPSTASH_* variables point the Worker at a real Upstash instead.
Unless set: API_KEYS=dev:dev-key, a dev-only TOKEN_SECRET, and CORS_ORIGINS for the browser example's
page (http://127.0.0.1 and localhost on EXAMPLE_PORT, default 8788).`;

/** What the command line asks for: options to run with, the help text, or one line saying what is wrong. */
export type DevCommand = { options: DevOptions } | { help: string } | { error: string };

/** Reads flags first, then the environment, then the defaults. */
export function parseDevCommand(argv: string[], env: NodeJS.ProcessEnv): DevCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: "string" },
        "redis-port": { type: "string" },
        "vector-port": { type: "string" },
        "inspector-port": { type: "string" },
        "data-dir": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    return { error: `${(err as Error).message.split("\n")[0]} (see npm run dev -- --help)` };
  }
  if (values.help === true) return { help: DEV_HELP };

  const ports = {} as Record<PortKey, number>;
  const owner = new Map<number, PortSetting>();
  for (const setting of PORT_SETTINGS) {
    const fromFlag = values[setting.flag.slice(2)];
    const raw = typeof fromFlag === "string" ? fromFlag : env[setting.variable];
    const source = typeof fromFlag === "string" ? setting.flag : setting.variable;
    const port = raw === undefined || raw === "" ? setting.fallback : Number(raw);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      return { error: `${source} must be a port number from 1 to 65535, got "${raw}"` };
    }
    const taken = owner.get(port);
    if (taken) return { error: `${taken.variable} and ${setting.variable} are both ${port}; give each its own port` };
    owner.set(port, setting);
    ports[setting.key] = port;
  }
  const dataDir = values["data-dir"];
  return { options: { ...ports, dataDir: typeof dataDir === "string" ? dataDir : env[DATA_DIR_VARIABLE] || ".data" } };
}
