/**
 * Counts what this process sends and receives over `fetch` (the Upstash clients use it): requests,
 * request bytes and response bytes. Responses are read once here and handed on as a new Response.
 */
export interface Wire {
  requests: number;
  bytesOut: number;
  bytesIn: number;
  reset(): void;
}

export function countFetch(): Wire {
  const wire: Wire = {
    requests: 0,
    bytesOut: 0,
    bytesIn: 0,
    reset() {
      wire.requests = 0;
      wire.bytesOut = 0;
      wire.bytesIn = 0;
    },
  };
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    wire.requests += 1;
    const body = init?.body;
    if (typeof body === "string") wire.bytesOut += Buffer.byteLength(body);
    else if (body instanceof Uint8Array) wire.bytesOut += body.byteLength;
    const res = await original(input, init);
    const bytes = await res.arrayBuffer();
    wire.bytesIn += bytes.byteLength;
    return new Response(bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return wire;
}
