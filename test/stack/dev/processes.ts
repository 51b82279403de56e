import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";

/** One process of the table: its parent and whether it has ended (a zombie has). */
interface ProcessRow {
  pid: number;
  ppid: number;
  ended: boolean;
}

// /proc where there is one (no dependency on procps), `ps` elsewhere (macOS).
function processTable(): ProcessRow[] {
  if (existsSync("/proc/self/stat")) {
    const rows: ProcessRow[] = [];
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
        const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        rows.push({ pid: Number(name), ppid: Number(ppid), ended: state === "Z" || state === "X" });
      } catch {
        // the process ended while the table was read
      }
    }
    return rows;
  }
  return execFileSync("ps", ["-A", "-o", "pid=,ppid=,stat="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [pid, ppid, stat] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), ended: (stat ?? "").startsWith("Z") };
    });
}

/** Every live process below `root`, children before grandchildren. */
export function descendants(root: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const row of table) {
      if (row.ppid === parent && !row.ended && !found.includes(row.pid)) {
        found.push(row.pid);
        queue.push(row.pid);
      }
    }
  }
  return found;
}

/** Those of `pids` that still run (neither gone nor a zombie). */
export function stillRunning(pids: number[]): number[] {
  const live = new Set(
    processTable()
      .filter((row) => !row.ended)
      .map((row) => row.pid),
  );
  return pids.filter((pid) => live.has(pid));
}

/** Waits until none of `pids` runs or the deadline passes; returns those still running. */
export async function waitUntilGone(pids: number[], deadlineMs: number): Promise<number[]> {
  const until = Date.now() + deadlineMs;
  let left = stillRunning(pids);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    left = stillRunning(pids);
  }
  return left;
}
