/** CPU time of the workerd processes this process started (Linux /proc scheduler statistics). */
import { readdirSync, readFileSync } from "node:fs";

/** Every process below `root` (children of children), by /proc. */
export function descendants(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = parents.get(ppid) ?? [];
      list.push(Number(entry));
      parents.set(ppid, list);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const child of parents.get(pid) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

/** The workerd processes below this one. */
export const workerdPids = (): number[] =>
  descendants(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim().startsWith("workerd");
    } catch {
      return false;
    }
  });

/** CPU ns of every thread of the given processes (all threads: an upper bound of an isolate's own CPU). */
export function cpuNs(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`))
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // gone
    }
  }
  return total;
}
