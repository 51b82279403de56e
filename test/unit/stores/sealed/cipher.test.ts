import { describe, expect, it } from "vitest";
import { StoredDataUnreadable } from "../../../../src/memory/errors.ts";
import { FieldCipher, isSealed, type SealingKey } from "../../../../src/stores/sealed/cipher.ts";

const key = (kid: string): SealingKey => ({ kid, secret: crypto.getRandomValues(new Uint8Array(32)) });
const [k1, k2] = [key("k1"), key("k2")];

async function unreadable(work: Promise<unknown>): Promise<StoredDataUnreadable["code"]> {
  const err: unknown = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoredDataUnreadable);
  return (err as StoredDataUnreadable).code;
}

describe("FieldCipher", () => {
  it("seals with the newest key and a fresh IV, and opens what it sealed", async () => {
    const cipher = new FieldCipher([k1]);
    const text = "Grüße, 你好 - a long enough text ".repeat(20);
    const [a, b] = [await cipher.seal(text, "acme"), await cipher.seal(text, "acme")];
    expect(a).toMatch(/^enc:v1:k1:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(isSealed(a)).toBe(true);
    expect(await cipher.open(a, "acme")).toBe(text);
    expect(await cipher.open(await cipher.seal("", "acme"), "acme")).toBe("");
  });

  it("passes clear values through, and without keys seals nothing", async () => {
    expect(await new FieldCipher([k1]).open("plain text", "acme")).toBe("plain text");
    const none = new FieldCipher([]);
    expect(await none.seal("plain", "acme")).toBe("plain");
    expect(none.sealing).toBe(false);
  });

  it("refuses a value sealed under an unlisted key, a different secret or another tenant", async () => {
    const sealed = await new FieldCipher([k1]).seal("secret", "acme");
    expect(await unreadable(new FieldCipher([]).open(sealed, "acme"))).toBe("encryption_key_missing");
    expect(await unreadable(new FieldCipher([k2]).open(sealed, "acme"))).toBe("encryption_key_missing");
    expect(await unreadable(new FieldCipher([{ kid: "k1", secret: k2.secret }]).open(sealed, "acme"))).toBe("encryption_key_invalid");
    expect(await unreadable(new FieldCipher([k1]).open(sealed, "globex"))).toBe("encryption_key_invalid");
  });

  it("reads every listed key and re-seals values under older keys inside stored JSON", async () => {
    const old = new FieldCipher([k1]);
    const rotated = new FieldCipher([k2, k1]);
    const raw = JSON.stringify({ id: "m1", role: "user", tokens: 3, content: await old.seal("hello", "acme"), name: "x" });
    expect(rotated.isStale(raw)).toBe(true);
    expect(old.isStale(raw)).toBe(false);
    const resealed = await rotated.reseal(raw, "acme");
    expect(rotated.isStale(resealed)).toBe(false);
    const parsed = JSON.parse(resealed) as { content: string; id: string };
    expect(parsed.content.startsWith("enc:v1:k2:")).toBe(true);
    expect(parsed.id).toBe("m1");
    expect(await new FieldCipher([k2]).open(parsed.content, "acme")).toBe("hello");
    // a value under a key no longer listed stays as it is
    const lost = await new FieldCipher([key("k0")]).seal("gone", "acme");
    expect(await rotated.reseal(lost, "acme")).toBe(lost);
  });

  it("rejects malformed keys", () => {
    expect(() => new FieldCipher([{ kid: "a:b", secret: new Uint8Array(32) }])).toThrow();
    expect(() => new FieldCipher([{ kid: "k", secret: new Uint8Array(16) }])).toThrow();
  });
});
