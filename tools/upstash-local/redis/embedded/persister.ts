import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Options of {@link Persister}. */
export interface PersisterOptions {
  /** Folder of the data file; created when missing. */
  dataDir: string;
  /** File name inside `dataDir`. Default `redis.json`. */
  fileName?: string | undefined;
  /** Wait after a change before writing, so bursts of writes cost one file write. Default 200 ms. */
  debounceMs?: number | undefined;
  /** Produces the JSON-ready content to write. */
  snapshot(): unknown;
}

/**
 * Debounced, atomic JSON persistence: changes are written at most once per debounce window,
 * via a temporary file and a rename so a crash never leaves a half-written file.
 */
export class Persister {
  readonly file: string;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(private readonly options: PersisterOptions) {
    this.file = join(options.dataDir, options.fileName ?? "redis.json");
  }

  /** The parsed file, or undefined when there is none yet. */
  async load(): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new Error(`cannot parse ${this.file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  markDirty(): void {
    this.dirty = true;
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(() => undefined); // the next flush (or close) reports the error
    }, this.options.debounceMs ?? 200);
    this.timer.unref();
  }

  /** Writes now if anything changed; waits for a write already in progress first. */
  flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        if (!this.dirty) return;
        this.dirty = false;
        const content = JSON.stringify(this.options.snapshot());
        const temp = `${this.file}.${process.pid}.tmp`;
        try {
          await mkdir(this.options.dataDir, { recursive: true });
          await writeFile(temp, content, "utf8");
          await rename(temp, this.file);
        } catch (err) {
          this.dirty = true;
          throw err;
        }
      });
    return this.writing;
  }
}
