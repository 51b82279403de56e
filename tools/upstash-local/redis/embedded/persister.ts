/** @module Embedded Redis persistence: an append-only log of changed keys, periodically folded into a full snapshot. */
import { appendFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The log is folded into the snapshot once it outgrows the snapshot and this. */
const COMPACT_MIN_BYTES = 1 << 20;
/** ...after this long without a write. */
const COMPACT_IDLE_MS = 2000;

/** Options of {@link Persister}. */
export interface PersisterOptions {
  /** Folder of the data files; created when missing. */
  dataDir: string;
  /** File name of the full snapshot inside `dataDir`; the change log is this name + `.log`. Default `redis.json`. */
  fileName?: string | undefined;
  /** Wait after a change before writing, so bursts of writes cost one append. Default 200 ms. */
  debounceMs?: number | undefined;
  /** Produces the JSON-ready content of a full snapshot. */
  snapshot(): unknown;
  /** The JSON-ready record of one key as it is now (what the log holds for it). */
  entry(key: string): unknown;
}

/** What {@link Persister.load} found: the last full snapshot and the changes logged after it, oldest first. */
export interface PersistedState {
  snapshot: unknown;
  changes: unknown[];
}

/** The log record of a key that is gone. */
export interface DeletedKey {
  key: string;
  deleted: true;
}

/**
 * Incremental persistence: changed keys are appended to a log (`redis.json.log`, one JSON record
 * per line, a key's newest record wins), at most once per debounce window and only the keys that
 * changed, so a write costs what it touched, not the whole database. The full snapshot
 * (`redis.json`, written via a temporary file and a rename) is rewritten only at start-up, on
 * close, on SAVE, after a command with no key names (FLUSHALL), and once the log has outgrown it
 * and writes have paused for 2 s, so it is not written under a run of requests. A line cut short
 * by a crash is skipped on load.
 */
export class Persister {
  readonly file: string;
  readonly log: string;
  private timer: NodeJS.Timeout | undefined;
  private idle: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly dirtyKeys = new Set<string>();
  private full = false;
  private logBytes = 0;
  private snapshotBytes = 0;

  constructor(private readonly options: PersisterOptions) {
    this.file = join(options.dataDir, options.fileName ?? "redis.json");
    this.log = `${this.file}.log`;
  }

  /** The snapshot (undefined when there is none yet) and the logged changes after it. */
  async load(): Promise<PersistedState> {
    const text = await readOptional(this.file);
    let snapshot: unknown;
    if (text !== undefined) {
      try {
        snapshot = JSON.parse(text) as unknown;
      } catch (err) {
        throw new Error(`cannot parse ${this.file}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const changes: unknown[] = [];
    const log = await readOptional(this.log);
    for (const line of log?.split("\n") ?? []) {
      if (line === "") continue;
      try {
        changes.push(JSON.parse(line) as unknown);
      } catch {
        // a line a crash cut short: the write it held never completed
      }
    }
    return { snapshot, changes };
  }

  /** Records that `keys` changed; without keys (a command that names none), the whole data set. */
  markDirty(keys?: readonly string[]): void {
    if (keys === undefined || keys.length === 0) this.full = true;
    else for (const key of keys) this.dirtyKeys.add(key);
    if (this.logBytes > Math.max(this.snapshotBytes, COMPACT_MIN_BYTES)) this.compactWhenIdle();
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(() => undefined); // the next flush (or close) reports the error
    }, this.options.debounceMs ?? 200);
    this.timer.unref();
  }

  /** Writes a full snapshot at the next flush (and starts a new log). */
  compactNext(): void {
    this.full = true;
  }

  /** Once writes pause for a while, folds the log into a new snapshot (never under a run of requests). */
  private compactWhenIdle(): void {
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.idle = undefined;
      this.full = true;
      void this.flush().catch(() => undefined);
    }, COMPACT_IDLE_MS);
    this.idle.unref();
  }

  /** Stops the timers (close flushes first). */
  stop(): void {
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = undefined;
  }

  /** Writes what changed now; waits for a write already in progress first. */
  flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        if (this.full) {
          await this.writeSnapshot();
          return;
        }
        if (this.dirtyKeys.size === 0) return;
        const keys = [...this.dirtyKeys];
        this.dirtyKeys.clear();
        const lines = keys
          .map((key) => `${JSON.stringify(this.options.entry(key) ?? ({ key, deleted: true } satisfies DeletedKey))}\n`)
          .join("");
        try {
          await mkdir(this.options.dataDir, { recursive: true });
          await appendFile(this.log, lines, "utf8");
          this.logBytes += Buffer.byteLength(lines);
        } catch (err) {
          for (const key of keys) this.dirtyKeys.add(key);
          throw err;
        }
      });
    return this.writing;
  }

  private async writeSnapshot(): Promise<void> {
    this.full = false;
    this.dirtyKeys.clear();
    const content = JSON.stringify(this.options.snapshot());
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      await mkdir(this.options.dataDir, { recursive: true });
      await writeFile(temp, content, "utf8");
      await rename(temp, this.file);
      // the snapshot holds everything the log did
      await rm(this.log, { force: true });
      this.logBytes = 0;
      this.snapshotBytes = Buffer.byteLength(content);
    } catch (err) {
      this.full = true;
      throw err;
    }
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}
