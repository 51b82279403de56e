/** @module A vector emulator per test file and the helpers the vector bad-input tests send requests and check Upstash errors with. */
import { afterAll, beforeAll, expect } from "vitest";
import { startVectorEmulator, type VectorEmulator } from "../../tools/upstash-local/vector/standalone.ts";

export const DIM = 4;
let emu: VectorEmulator;

/** Starts a dense emulator of DIM dimensions before the calling file's tests and closes it after them. */
export function useVectorEmulator(): void {
  beforeAll(async () => {
    emu = await startVectorEmulator({ index: { kind: "dense", dimension: DIM } });
  });
  afterAll(async () => {
    await emu.close();
  });
}

/** The emulator's token, once it has started. */
export const emulatorToken = (): string => emu.token;

export interface Answer {
  status: number;
  json: unknown;
}

export async function send(
  path: string,
  body: string | Uint8Array | undefined,
  auth: string | null = `Bearer ${emu.token}`,
  method = "POST",
): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (auth !== null) headers.authorization = auth;
  // Bytes go out exactly as given (split multi-byte sequences included).
  const res = await fetch(`${emu.url}${path}`, { method, headers, body: body as BodyInit | undefined });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, json };
}

export const post = (path: string, value: unknown): Promise<Answer> => send(path, JSON.stringify(value));

/** Asserts the Upstash error envelope: `{"error": "...", "status": N}` with HTTP status N. */
export function expectError(answer: Answer, status: number, message?: string | RegExp): void {
  expect(answer.status, JSON.stringify(answer.json)).toBe(status);
  expect(answer.json).toMatchObject({ error: expect.any(String), status });
  if (message !== undefined) expect((answer.json as { error: string }).error).toMatch(message);
}
