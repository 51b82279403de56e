import type { SessionStore } from "../src/memory/ports/sessions.ts";
import type { SessionRef, StoredMessage } from "../src/memory/model.ts";
import { FieldCipher } from "../src/stores/sealed/cipher.ts";
import { SealedSessionStore } from "../src/stores/sealed/sealed-session-store.ts";
import { serializeMessage } from "../src/stores/session-args.ts";
import { storedMessage } from "../test/support/fakes/messages.ts";
import { InMemorySessionStore } from "../test/support/fakes/sessions.ts";

const TENANT = "acme";
const cipher = new FieldCipher([{ kid: "k1", secret: crypto.getRandomValues(new Uint8Array(32)) }]);
const noKey = new FieldCipher([]);

const sentence = "Memory services keep a rolling summary of older turns while recent messages stay verbatim. ";
const texts = {
  "short (60 chars)": sentence.slice(0, 60),
  "medium (600 chars)": sentence.repeat(7).slice(0, 600),
  "long (4,000 chars)": sentence.repeat(45).slice(0, 4000),
  "max (32,000 chars)": sentence.repeat(360).slice(0, 32_000),
};

/** CPU microseconds per call of `op` (user + system), after a warm-up. */
async function cpuPerOp(iterations: number, op: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(200, iterations); i++) await op(i);
  const before = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await op(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / iterations;
}

const us = (n: number): string => `${n.toFixed(1)} µs`;
const pad = (s: string, n: number): string => s.padEnd(n);

async function fieldCosts(): Promise<void> {
  console.log("\nOne field, AES-256-GCM via WebCrypto (CPU per call)");
  console.log(`${pad("text", 22)}${pad("seal", 12)}${pad("open", 12)}bytes clear -> sealed`);
  for (const [name, text] of Object.entries(texts)) {
    const iterations = text.length > 10_000 ? 500 : 3000;
    const sealed = await cipher.seal(text, TENANT);
    const seal = await cpuPerOp(iterations, () => cipher.seal(text, TENANT));
    const open = await cpuPerOp(iterations, () => cipher.open(sealed, TENANT));
    const clearBytes = new TextEncoder().encode(text).length;
    console.log(
      `${pad(name, 22)}${pad(us(seal), 12)}${pad(us(open), 12)}${clearBytes} -> ${sealed.length} (+${sealed.length - clearBytes})`,
    );
  }
}

/** A 30-message conversation with contents of 40..400 characters (deterministic). */
function conversation(): StoredMessage[] {
  return Array.from({ length: 30 }, (_, i) => {
    const length = 40 + ((i * 97) % 360);
    return storedMessage(i % 2 === 0 ? "user" : "assistant", sentence.repeat(5).slice(0, length), { tokens: Math.ceil(length / 4) });
  });
}

async function storeCosts(): Promise<void> {
  const setups: [string, (inner: SessionStore) => SessionStore][] = [
    ["bare", (inner) => inner],
    ["no key", (inner) => new SealedSessionStore(inner, noKey)],
    ["sealed", (inner) => new SealedSessionStore(inner, cipher)],
  ];
  const messages = conversation();
  const results: Record<string, { append: number; read: number; bytes: number }> = {};
  for (const [name, wrap] of setups) {
    const store = wrap(new InMemorySessionStore());
    const ref: SessionRef = { tenant: TENANT, sessionId: `read-${name}` };
    await store.append(ref, messages, { ttlSeconds: 3600 });
    const read = await cpuPerOp(2000, () => store.read(ref));
    let n = 0;
    const append = await cpuPerOp(2000, (i) => {
      n += 1;
      const turn = [
        storedMessage("user", texts["short (60 chars)"], { id: `u${n}`, tokens: 15 }),
        storedMessage("assistant", texts["medium (600 chars)"], { id: `a${n}`, tokens: 150 }),
      ];
      return store.append({ tenant: TENANT, sessionId: `append-${name}-${i % 50}` }, turn, { ttlSeconds: 3600 });
    });
    // What Redis would hold for the 30 messages: the serialized window as the stores write it.
    const sealedMessages =
      name === "sealed"
        ? await Promise.all(messages.map(async (m) => ({ ...m, content: await cipher.seal(m.content, TENANT) })))
        : messages;
    const bytes = sealedMessages.reduce((total, m) => total + serializeMessage(m).length, 0);
    results[name] = { append, read, bytes };
  }
  const bare = results.bare!;
  console.log("\nSession store with the sealing decorator (in-memory inner store, CPU per call)");
  console.log(`${pad("set-up", 10)}${pad("append (2 msgs)", 26)}${pad("read (30 msgs)", 26)}window bytes (30 msgs)`);
  for (const [name, r] of Object.entries(results)) {
    const plus = (v: number, base: number) => (name === "bare" ? us(v) : `${us(v)} (+${us(v - base)})`);
    const bytes = name === "bare" ? String(r.bytes) : `${r.bytes} (+${(((r.bytes - bare.bytes) / bare.bytes) * 100).toFixed(0)}%)`;
    console.log(`${pad(name, 10)}${pad(plus(r.append, bare.append), 26)}${pad(plus(r.read, bare.read), 26)}${bytes}`);
  }
}

console.log(`Node ${process.version}, ${new Date().toISOString()}`);
await fieldCosts();
await storeCosts();
