/** @module How bench/cpu-profile.ts reads CPU: live requests and replayed phases, timed from workerd's scheduler statistics. */
import { AUTH, type Call, type Spec } from "./specs.ts";
import { cpuNs } from "./workerd-cpu.ts";

const LIVE_WARMUP = 3;
const LIVE_RUNS = 20;
const REPEATS = 5;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

/** The measures, on the Worker that `call` reaches, whose workerd processes are `pids`. */
export function profiler(call: Call, pids: readonly number[], specs: readonly Spec[]) {
  /** Median CPU ms of one live request, all workerd threads. */
  async function liveCpu(spec: Spec): Promise<number> {
    const samples: number[] = [];
    for (let i = 0; i < LIVE_WARMUP + LIVE_RUNS; i++) {
      const body = spec.live(1000 + i);
      const cpu0 = cpuNs(pids);
      const res = await call(spec.path, { method: spec.method, headers: spec.headers, ...(body !== undefined ? { body } : {}) });
      const cpu = (cpuNs(pids) - cpu0) / 1e6;
      if (res.status >= 300) throw new Error(`${spec.name}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      if (i >= LIVE_WARMUP) samples.push(cpu);
      // let waitUntil work end before the next request is measured
      await new Promise((r) => setTimeout(r, 30));
    }
    return median(samples);
  }

  const byName = new Map(specs.map((s) => [s.name, s]));

  /** Records one real request of `spec` in the isolate (again after workerd replaced the isolate). */
  async function record(spec: Spec): Promise<void> {
    const rec = await call("/__profile/record", {
      method: "POST",
      body: JSON.stringify({
        name: spec.name,
        method: spec.method,
        path: spec.path,
        headers: spec.headers,
        body: spec.body,
        texts: spec.texts,
      }),
    });
    if (rec.status !== 200) throw new Error(`record ${spec.name}: ${rec.text}`);
    if (process.env.PROFILE_DEBUG) console.log(spec.name, rec.text);
  }

  async function profileRun(scenario: string, phase: string, n: number, retry = true): Promise<number> {
    const cpu0 = cpuNs(pids);
    const res = await call("/__profile/run", { method: "POST", body: JSON.stringify({ scenario, phase, n }) });
    const cpu = cpuNs(pids) - cpu0;
    const out = JSON.parse(res.text) as { misses?: number; error?: string };
    if (res.status === 400 && retry && /unknown scenario/.test(res.text)) {
      await record(byName.get(scenario)!);
      return profileRun(scenario, phase, n, false);
    }
    if (res.status !== 200) throw new Error(`${scenario} / ${phase}: ${res.text}`);
    if (out.misses) throw new Error(`${scenario} / ${phase}: ${out.misses} upstream calls were not recorded`);
    return cpu;
  }

  /**
   * CPU ms of one repetition of a phase: (N repetitions - an empty run) / N, the least of REPEATS
   * (other processes and workerd's own threads only ever add to a sample).
   */
  async function phaseCpu(scenario: string, phase: string, n: number): Promise<number> {
    const samples: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      await profileRun(scenario, phase, Math.max(1, Math.floor(n / 10))); // warm the phase
      const empty = await profileRun(scenario, "noop", 1);
      const full = await profileRun(scenario, phase, n);
      samples.push(Math.max(0, full - empty) / n / 1e6);
    }
    return Math.min(...samples);
  }

  /** The same measure for a request that touches nothing upstream (a 404): what local workerd and wrangler cost per request. */
  async function liveFloor(): Promise<number> {
    const samples: number[] = [];
    for (let i = 0; i < LIVE_WARMUP + LIVE_RUNS; i++) {
      const cpu0 = cpuNs(pids);
      const res = await call("/v1/no-such-route", { headers: AUTH });
      const cpu = (cpuNs(pids) - cpu0) / 1e6;
      if (res.status !== 404) throw new Error(`floor: HTTP ${res.status}`);
      if (i >= LIVE_WARMUP) samples.push(cpu);
      await new Promise((r) => setTimeout(r, 30));
    }
    return median(samples);
  }

  return { liveCpu, record, phaseCpu, liveFloor };
}
