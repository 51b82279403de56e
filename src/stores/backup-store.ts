/** @module R2BackupStore: snapshots of a user's facts as JSON objects in an R2 bucket, sealed when a key is set, kept to a retention. */
import type { BackupStore, FactScope, FactSnapshot } from "../memory/ports/index.ts";
import type { Fact } from "../memory/model.ts";
import { InvalidStoreInput, UnexpectedReply } from "./errors.ts";
import { factFromMetadata } from "./fact-metadata.ts";
import { assertId } from "./keys.ts";
import type { FieldCipher } from "./sealed/cipher.ts";

/** The part of an R2 bucket binding the backup store uses. */
export interface BackupBucket {
  put(key: string, value: string): Promise<unknown>;
  get(key: string): Promise<{ text(): Promise<string> } | null>;
  list(options: {
    prefix: string;
    cursor?: string;
    limit?: number;
  }): Promise<{ objects: { key: string }[]; truncated: boolean; cursor?: string }>;
  delete(keys: string | string[]): Promise<void>;
}

/** Options of {@link R2BackupStore}. */
export interface R2BackupStoreOptions {
  /**
   * Snapshots kept per user; older ones are deleted after each write.
   * @default 7
   */
  retention?: number;
  /** Seals each snapshot as a whole with the newest key (a cipher without keys stores it in clear). */
  cipher?: FieldCipher | undefined;
}

/** `facts/{tenant}/{user}/` - one object per snapshot, named by its time so names sort by age. */
const prefixOf = (scope: FactScope): string => `facts/${assertId("tenant", scope.tenant)}/${assertId("userId", scope.userId)}/`;
const nameOf = (takenAt: number): string => `${String(takenAt).padStart(15, "0")}.json`;
const timeOf = (key: string): number => Number(key.slice(key.lastIndexOf("/") + 1, -".json".length));

interface SnapshotBody {
  v: 1;
  takenAt: number;
  facts: Fact[];
}

/** {@link BackupStore} on an R2 bucket: a JSON object per snapshot, sealed when a key is configured. */
export class R2BackupStore implements BackupStore {
  readonly #bucket: BackupBucket;
  readonly #retention: number;
  readonly #cipher: FieldCipher | undefined;

  constructor(bucket: BackupBucket, options: R2BackupStoreOptions = {}) {
    const retention = options.retention ?? 7;
    if (!Number.isSafeInteger(retention) || retention < 1) throw new InvalidStoreInput("retention must be a positive integer");
    this.#bucket = bucket;
    this.#retention = retention;
    this.#cipher = options.cipher;
  }

  async newestAt(scope: FactScope): Promise<number | null> {
    const keys = await this.#keys(scope);
    const newest = keys.at(-1);
    return newest === undefined ? null : timeOf(newest);
  }

  async write(scope: FactScope, snapshot: FactSnapshot): Promise<void> {
    if (!Number.isSafeInteger(snapshot.takenAt) || snapshot.takenAt < 0)
      throw new InvalidStoreInput("snapshot time must be a non-negative integer");
    const body: SnapshotBody = { v: 1, takenAt: snapshot.takenAt, facts: snapshot.facts };
    const json = JSON.stringify(body);
    const text = this.#cipher ? await this.#cipher.seal(json, scope.tenant) : json;
    await this.#bucket.put(`${prefixOf(scope)}${nameOf(snapshot.takenAt)}`, text);
    const keys = await this.#keys(scope);
    const old = keys.slice(0, Math.max(0, keys.length - this.#retention));
    if (old.length > 0) await this.#bucket.delete(old);
  }

  async latest(scope: FactScope): Promise<FactSnapshot | null> {
    const newest = (await this.#keys(scope)).at(-1);
    if (newest === undefined) return null;
    const object = await this.#bucket.get(newest);
    if (!object) return null;
    const raw = await object.text();
    const json = this.#cipher ? await this.#cipher.open(raw, scope.tenant) : raw;
    let body: unknown;
    try {
      body = JSON.parse(json);
    } catch {
      throw new UnexpectedReply("backup snapshot");
    }
    if (typeof body !== "object" || body === null || !("facts" in body) || !Array.isArray(body.facts))
      throw new UnexpectedReply("backup snapshot");
    const facts = body.facts.flatMap((f: unknown) => {
      const id = typeof f === "object" && f !== null && "id" in f ? f.id : undefined;
      return typeof id === "string" ? (factFromMetadata(id, f) ?? []) : [];
    });
    return { takenAt: timeOf(newest), facts };
  }

  async purge(scope: FactScope): Promise<number> {
    const keys = await this.#keys(scope);
    // R2 deletes at most 1000 keys per call.
    for (let i = 0; i < keys.length; i += 1000) await this.#bucket.delete(keys.slice(i, i + 1000));
    return keys.length;
  }

  async count(scope: FactScope): Promise<number> {
    return (await this.#keys(scope)).length;
  }

  /** Every snapshot key of the user, oldest first (R2 lists in key order). */
  async #keys(scope: FactScope): Promise<string[]> {
    const prefix = prefixOf(scope);
    const keys: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const listed = await this.#bucket.list({ prefix, ...(cursor ? { cursor } : {}) });
      keys.push(...listed.objects.map((o) => o.key).filter((k) => k.endsWith(".json")));
      if (!listed.truncated || !listed.cursor) break;
      cursor = listed.cursor;
    }
    return keys.sort();
  }
}
