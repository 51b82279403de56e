import { unstable_startWorker } from "wrangler";

type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;

/**
 * The real Worker in local workerd (wrangler's `unstable_startWorker`) with `vars` as plain-text
 * bindings (upstash-local's variables, keys, limits), on a free port, no persistence or watching.
 */
export async function startBenchWorker(
  vars: Record<string, string>,
  build?: { define: Record<string, string> },
  entrypoint = "src/index.ts",
  inspectorPort?: number,
): Promise<{ worker: Worker; base: URL }> {
  const worker = await unstable_startWorker({
    config: "wrangler.toml",
    entrypoint,
    ...(build ? { build } : {}),
    bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }])),
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: inspectorPort === undefined ? false : { hostname: "127.0.0.1", port: inspectorPort }, persist: false, watch: false, logLevel: "error" },
  });
  await worker.ready;
  return { worker, base: await worker.url };
}
