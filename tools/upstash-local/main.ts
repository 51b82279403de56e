/** @module upstash-local command line: parses flags and environment, starts both emulators and stops them on a signal. */
import { parseArgs } from "node:util";
import { startUpstashLocal } from "./index.ts";
import { DEV_DENSE_MODEL, parseDenseModel, parseIndexKind } from "./vector/config.ts";
import { vectorConfigFromEnv, type VectorIndexSettings } from "./vector/index.ts";

const HELP = `upstash-local: offline Upstash Redis REST + Upstash Vector REST servers

Options (env var in brackets):
  --host <ip>            interface to bind [UPSTASH_LOCAL_HOST] (default 127.0.0.1)
  --redis-port <n>       Redis REST port [UPSTASH_LOCAL_REDIS_PORT] (default 8079)
  --vector-port <n>      Vector REST port [UPSTASH_LOCAL_VECTOR_PORT] (default 8081)
  --token <t>            bearer token both accept [UPSTASH_LOCAL_TOKEN] (default local-dev-token)
  --redis-url <url>      forward to a real Redis [REDIS_URL] (default: embedded engine)
  --data-dir <dir>       persist data here [UPSTASH_LOCAL_DATA_DIR] (default .data/upstash-local)
  --memory               keep nothing on disk
  --delay-ms <n>         fixed delay added to every request [UPSTASH_LOCAL_DELAY_MS] (default 0)
  --vector-index <kind>  dense | sparse | hybrid [UPSTASH_LOCAL_VECTOR_INDEX] (default hybrid)
  --dense-model <m>      USE_LITE | HASHING_WEIGHTED | HASHING [UPSTASH_LOCAL_VECTOR_DENSE_MODEL]
                         (default USE_LITE for hybrid: a sentence model for English, hashing for CJK;
                         HASHING for dense. The hashing models are instant and deterministic)
  Vector index: UPSTASH_LOCAL_VECTOR_DIMENSION (384 dense, 1024 hybrid or USE_LITE), UPSTASH_LOCAL_VECTOR_SIMILARITY (COSINE),
  UPSTASH_LOCAL_VECTOR_EMBEDDING (on),
  BM25 terms: UPSTASH_LOCAL_VECTOR_CJK_TERMS (unigrams+bigrams | bigrams | segmenter),
  UPSTASH_LOCAL_VECTOR_WORD_TERMS (porter | light-stem | plain)
Control: POST /__control/fault {"mode":"error|drop|hang","durationMs":5000}, POST /__control/delay {"ms":20},
  GET|DELETE /__control/log on either port.`;

const { values } = parseArgs({
  options: {
    host: { type: "string" },
    "redis-port": { type: "string" },
    "vector-port": { type: "string" },
    token: { type: "string" },
    "redis-url": { type: "string" },
    "data-dir": { type: "string" },
    memory: { type: "boolean" },
    "delay-ms": { type: "string" },
    "vector-index": { type: "string" },
    "dense-model": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const env = process.env;
const int = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`upstash-local: ${name} must be a non-negative integer, got "${value}"`);
    process.exit(2);
  }
  return n;
};

let vector: VectorIndexSettings;
try {
  vector = vectorConfigFromEnv(env);
  if (values["vector-index"] !== undefined) vector.kind = parseIndexKind(values["vector-index"], "--vector-index");
  if (values["dense-model"] !== undefined) vector.denseModel = parseDenseModel(values["dense-model"], "--dense-model");
  // A hybrid index (the default kind) embeds with the sentence model unless a model is chosen.
  if ((vector.kind ?? "hybrid") === "hybrid" && vector.denseModel === undefined) vector.denseModel = DEV_DENSE_MODEL;
} catch (err) {
  console.error(`upstash-local: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
}

const redisPort = int(values["redis-port"] ?? env.UPSTASH_LOCAL_REDIS_PORT, 8079, "redis port");
const vectorPort = int(values["vector-port"] ?? env.UPSTASH_LOCAL_VECTOR_PORT, 8081, "vector port");
const local = await startUpstashLocal({
  host: values.host ?? env.UPSTASH_LOCAL_HOST,
  redisPort,
  vectorPort,
  token: values.token ?? env.UPSTASH_LOCAL_TOKEN,
  redisUrl: values["redis-url"] ?? (env.REDIS_URL || undefined),
  dataDir: values.memory ? undefined : (values["data-dir"] ?? env.UPSTASH_LOCAL_DATA_DIR ?? ".data/upstash-local"),
  delayMs: int(values["delay-ms"] ?? env.UPSTASH_LOCAL_DELAY_MS, 0, "delay"),
  vector,
}).catch((err: NodeJS.ErrnoException & { port?: number }) => {
  // A port someone else holds is a setting to change, not a crash: one line naming it.
  if (err.syscall !== "listen" || err.code !== "EADDRINUSE") throw err;
  const [name, flag] =
    err.port === vectorPort ? ["UPSTASH_LOCAL_VECTOR_PORT", "--vector-port"] : ["UPSTASH_LOCAL_REDIS_PORT", "--redis-port"];
  console.error(`upstash-local: port ${err.port} is already in use; set ${name} or pass ${flag} to pick another`);
  process.exit(1);
});

console.log(
  `upstash-local ready (redis: ${values["redis-url"] ?? env.REDIS_URL ?? "embedded engine"}, vector index: ${local.vectorIndex.kind}, dense model ${local.vectorIndex.denseModel})`,
);
for (const [name, value] of Object.entries(local.env)) console.log(`${name}=${value}`);

let closing = false;
const shutdown = (): void => {
  if (closing) return;
  closing = true;
  void local.close().then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
