/** @module FieldCipher: seals and opens single text fields with AES-256-GCM, bound to the tenant, under rotating keys. */
import { StoredDataUnreadable } from "../../memory/errors.ts";

/** One AES-256 key and the id stored beside what it sealed. */
export interface SealingKey {
  kid: string;
  /** 32 bytes. */
  secret: Uint8Array<ArrayBuffer>;
}

/** Key ids: short, and free of `:` so a sealed value splits unambiguously. */
export const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** Every sealed value starts with this; the version lets the format change later. */
export const SEALED_PREFIX = "enc:v1:";

// 12-byte IV + 16-byte tag = 28 bytes at least, 38 base64url characters.
const SEALED = /^enc:v1:([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{38,})$/;
/** A sealed value anywhere inside a larger string (a stored message's JSON, a queued fact). */
const SEALED_ANYWHERE = /enc:v1:([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{38,})/g;

const IV_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  // In chunks: String.fromCharCode with a huge spread would overflow the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Decodes standard or url-safe base64 (the key format); null when it is not base64. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  try {
    return fromBase64Url(text.replace(/=+$/, ""));
  } catch {
    return null;
  }
}

/** Whether `value` has the sealed form (it may still be sealed under a key this deployment lacks). */
export const isSealed = (value: string): boolean => value.startsWith(SEALED_PREFIX) && SEALED.test(value);

/**
 * Seals and opens single text fields with AES-256-GCM (WebCrypto): a random 96-bit IV per value,
 * the key id in clear beside the ciphertext (`enc:v1:<kid>:<base64url(iv | ciphertext | tag)>`),
 * and the tenant as additional data, so a value copied into another tenant's records fails to open.
 *
 * Writes use the first (newest) key; reads accept every listed key. With no key at all, `seal`
 * passes text through and `open` still refuses sealed values: a deployment that lost its key
 * answers with an error, never with ciphertext posing as content. Clear values (written before a
 * key was configured) open as they are.
 */
export class FieldCipher {
  readonly #keys: SealingKey[];
  readonly #imported = new Map<string, Promise<CryptoKey>>();

  constructor(keys: readonly SealingKey[]) {
    for (const k of keys) {
      if (!KID_PATTERN.test(k.kid) || k.secret.length !== 32)
        throw new Error("a sealing key needs a kid of [A-Za-z0-9_-]{1,32} and 32 bytes");
    }
    this.#keys = [...keys];
  }

  /** True when writes are sealed. */
  get sealing(): boolean {
    return this.#keys.length > 0;
  }

  /** True when older keys are listed: records sealed under them are worth re-sealing. */
  get rotating(): boolean {
    return this.#keys.length > 1;
  }

  /** The key id new writes use; null without keys. */
  get currentKid(): string | null {
    return this.#keys[0]?.kid ?? null;
  }

  async seal(text: string, tenant: string): Promise<string> {
    const current = this.#keys[0];
    if (!current) return text;
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const key = await this.#key(current.kid);
    const clear = new Uint8Array(encoder.encode(text));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: aad(tenant) }, key, clear));
    const out = new Uint8Array(IV_BYTES + sealed.length);
    out.set(iv);
    out.set(sealed, IV_BYTES);
    return `${SEALED_PREFIX}${current.kid}:${toBase64Url(out)}`;
  }

  /** The clear text of a sealed value; a clear value comes back as it is. */
  async open(value: string, tenant: string): Promise<string> {
    if (!value.startsWith(SEALED_PREFIX)) return value;
    const match = SEALED.exec(value);
    if (!match) return value;
    const kid = match[1] ?? "";
    if (!this.#keys.some((k) => k.kid === kid)) {
      throw new StoredDataUnreadable(
        "encryption_key_missing",
        `stored data is sealed under encryption key "${kid}", which is not in MEMORY_ENCRYPTION_KEYS; add it back (newest first) to read it`,
      );
    }
    const bytes = fromBase64Url(match[2] ?? "");
    try {
      const clear = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES), additionalData: aad(tenant) },
        await this.#key(kid),
        bytes.subarray(IV_BYTES),
      );
      return decoder.decode(clear);
    } catch {
      throw new StoredDataUnreadable(
        "encryption_key_invalid",
        `stored data does not open with encryption key "${kid}": MEMORY_ENCRYPTION_KEYS holds a different secret under that id`,
      );
    }
  }

  /** Whether `raw` (a whole stored value, JSON or text) holds a value sealed under an older key. */
  isStale(raw: string): boolean {
    const current = this.currentKid;
    if (current === null || !raw.includes(SEALED_PREFIX)) return false;
    for (const m of raw.matchAll(SEALED_ANYWHERE)) if (m[1] !== current) return true;
    return false;
  }

  /**
   * `raw` with every value sealed under an older key sealed again under the newest one; values
   * that do not open (a key no longer listed) stay as they are. Sealed values hold no character
   * JSON escapes, so this works on stored JSON without parsing it.
   */
  async reseal(raw: string, tenant: string): Promise<string> {
    const current = this.currentKid;
    if (current === null) return raw;
    let out = "";
    let last = 0;
    for (const m of raw.matchAll(SEALED_ANYWHERE)) {
      const index = m.index;
      out += raw.slice(last, index);
      last = index + m[0].length;
      if (m[1] === current) {
        out += m[0];
        continue;
      }
      try {
        out += await this.seal(await this.open(m[0], tenant), tenant);
      } catch {
        out += m[0];
      }
    }
    return out + raw.slice(last);
  }

  #key(kid: string): Promise<CryptoKey> {
    let key = this.#imported.get(kid);
    if (!key) {
      const secret = this.#keys.find((k) => k.kid === kid)?.secret;
      if (!secret) throw new StoredDataUnreadable("encryption_key_missing", `encryption key "${kid}" is not configured`);
      key = crypto.subtle.importKey("raw", secret, "AES-GCM", false, ["encrypt", "decrypt"]);
      this.#imported.set(kid, key);
    }
    return key;
  }
}

const aad = (tenant: string): Uint8Array<ArrayBuffer> => new Uint8Array(encoder.encode(`am:${tenant}`));
