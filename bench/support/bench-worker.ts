import { unstable_DevEnv, type unstable_startWorker } from "wrangler";

type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;
type Dispatched = Parameters<InstanceType<typeof unstable_DevEnv>["dispatch"]>[0];

/**
 * The real Worker in local workerd (wrangler's `startWorker`) with `vars` as plain-text bindings
 * (upstash-local's variables, keys, limits), on a free port, no persistence or watching.
 *
 * `base` is the Worker's own port (workerd's socket for the user Worker), not wrangler's dev proxy
 * in front of it: the proxy is a second workerd process that adds a hop and its own CPU to every
 * request, which a deployed Worker does not have. `proxyBase` is the proxy's address.
 */
export async function startBenchWorker(
  vars: Record<string, string>,
  build?: { define: Record<string, string> },
  entrypoint = "src/index.ts",
  inspectorPort?: number,
): Promise<{ worker: Worker; base: URL; proxyBase: URL }> {
  const devEnv = new unstable_DevEnv();
  // The user Worker's address is only announced on the controllers' bus (reloadComplete).
  let announce: (url: URL) => void = () => {};
  const direct = new Promise<URL>((resolve) => (announce = resolve));
  const dispatch = devEnv.dispatch.bind(devEnv);
  devEnv.dispatch = (event: Dispatched) => {
    if (event.type === "reloadComplete") {
      const { protocol, hostname, port } = event.proxyData.userWorkerUrl;
      announce(new URL(`${protocol}//${hostname}:${port}/`));
    }
    dispatch(event);
  };
  const worker = await devEnv.startWorker({
    config: "wrangler.toml",
    entrypoint,
    ...(build ? { build } : {}),
    bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }])),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: inspectorPort === undefined ? false : { hostname: "127.0.0.1", port: inspectorPort },
      persist: false,
      watch: false,
      logLevel: "error",
    },
  });
  await worker.ready;
  const proxyBase = await worker.url;
  return { worker, base: await direct, proxyBase };
}
