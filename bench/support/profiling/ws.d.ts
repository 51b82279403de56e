// The part of `ws` (a dependency of wrangler; Node 20 has no WebSocket) bench/cpu-hotspots.ts uses.
declare module "ws" {
  export default class WebSocket {
    constructor(url: string);
    once(event: "open" | "error", listener: (value: unknown) => void): this;
    on(event: "message", listener: (data: Buffer | string) => void): this;
    send(data: string): void;
    close(): void;
  }
}
