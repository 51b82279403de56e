/** @module The phases bench/cpu-profile.ts measures in each request, and its table of CPU per request and per phase. */

export const PHASES: { phase: string; n: number; only?: RegExp }[] = [
  { phase: "routing", n: 2000 },
  { phase: "config", n: 2000 },
  { phase: "config (unparsed)", n: 200 },
  { phase: "auth", n: 1000 },
  { phase: "runtime", n: 1000 },
  { phase: "validation", n: 500 },
  { phase: "token counting", n: 300 },
  { phase: "redis client", n: 200 },
  { phase: "reply parsing", n: 200 },
  { phase: "context assembly", n: 200, only: /^(context|chat|proxy)/ },
  { phase: "rendering", n: 500 },
  { phase: "encryption", n: 100 },
];
export const PARTS = [
  "routing",
  "config",
  "auth",
  "runtime",
  "validation",
  "token counting",
  "redis client",
  "reply parsing",
  "context assembly",
  "rendering",
  "encryption",
];

/** CPU ms by row (a phase or a whole request) and column (a request). */
export type Table = Map<string, Map<string, number>>;

/** Prints the table as Markdown, `floor` (a live 404) below it. */
export function printTable(table: Table, cols: readonly string[], floor: number, sealed: boolean): void {
  const floorRow = `| a 404, live (no upstream; the local workerd + wrangler floor) | ${floor.toFixed(2)} |`;
  console.log(
    `Worker CPU per request and per phase in workerd, ms${sealed ? " (MEMORY_ENCRYPTION_KEYS set)" : ""}; upstash-local, no added delay`,
  );
  console.log(`| phase | ${cols.join(" | ")} |`);
  console.log(`|---|${cols.map(() => "---:").join("|")}|`);
  const order = [
    "warm request, live (all workerd threads)",
    "request (replayed)",
    "until LLM",
    ...PARTS,
    "config (unparsed)",
    "other (request - phases)",
  ];
  for (const row of order) {
    const r = table.get(row);
    if (!r) continue;
    console.log(`| ${row} | ${cols.map((c) => (r.has(c) ? r.get(c)!.toFixed(r.get(c)! < 0.1 ? 3 : 2) : "")).join(" | ")} |`);
  }
  console.log(floorRow);
  console.log(
    "live = median of 20 real requests (after 3), all workerd threads; phases = (N repeats - empty run) / N, least of 5, replayed upstream.",
  );
  console.log("'config' is what a request pays (cached per bindings object); 'config (unparsed)' is a full parse, for reference.");
}
