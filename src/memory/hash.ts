/** @module SHA-256 hex digest helper over Web Crypto. */
const encoder = new TextEncoder();

/** The first `bytes` bytes of the SHA-256 of `text` (UTF-8), as lowercase hex. Web Crypto only. */
export async function sha256Hex(text: string, bytes: number): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  let hex = "";
  for (let i = 0; i < bytes; i++) hex += digest[i]!.toString(16).padStart(2, "0");
  return hex;
}
