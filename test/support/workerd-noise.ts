/**
 * Lines workerd logs on passing runs that say nothing about the tests. vitest-pool-workers (0.15)
 * prints every runtime log entry with one write to the vitest process's stdout or stderr, the entry's
 * native stack (`stack: .../workerd@51ccf21 ...`) included; such a write is dropped when its headline
 * is one of these and the rest is stack, and every other write goes through untouched.
 */
const NOISE: readonly RegExp[] = [
  // The pool talks to each test file's runner over a WebSocket; when the file is done it closes the
  // socket and disposes the runtime in the same tick, so workerd sees the peer vanish mid-close. One
  // per file, from the pool's own channel (no socket of ours); the pool drops it itself from 0.16 on,
  // like the other `disconnected:` teardown entries it already filters.
  /^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected$/,
  // The emulators' `drop` fault closes the connection without an answer. workerd logs each such
  // subrequest as a kj exception plus an "uncaught" rejection even when the Worker catches the fetch
  // error (checked with a bare Worker that does `try { await fetch() } catch {}`), so these lines
  // cannot tell a handled loss from an unhandled one; the tests assert the Worker's answer instead.
  /^exception = kj\/async-io\.c\+\+:\d+: disconnected: stream disconnected prematurely$/,
  /^uncaught exception; source = Uncaught \(in promise\); stack = Error: Network connection lost\.$/,
  /^uncaught exception; exception = workerd\/jsg\/\S+: disconnected: jsg\.Error: Network connection lost\.$/,
  // Logged between files, after a file's result line: the pool tears the file's runtime and its
  // servers down while background work the file started (a `waitUntil` after the last response)
  // still has a subrequest to send. The file has asserted everything it waits for by then.
  /^exception = kj\/async-io-unix\.c\+\+:\d+: disconnected: connect\(\): Connection refused$/,
  /^exception = kj\/async-io-unix\.c\+\+:\d+: disconnected: ::write\(fd, buffer\.begin\(\), buffer\.size\(\)\): Broken pipe$/,
];

/** True when `text` is one noise entry: a known headline, then only native stack lines. */
export function isWorkerdNoise(text: string): boolean {
  const [headline = "", ...rest] = text.replace(/\n$/, "").split("\n");
  return NOISE.some((pattern) => pattern.test(headline)) && rest.every((line) => line.startsWith("stack: "));
}

const filtered = new WeakSet<NodeJS.WriteStream>();

function filter(stream: NodeJS.WriteStream): void {
  if (filtered.has(stream)) return;
  filtered.add(stream);
  const write = stream.write;
  const dropNoise = function (this: NodeJS.WriteStream, chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    if (typeof chunk === "string" && isWorkerdNoise(chunk)) {
      const callback = rest.find((arg): arg is () => void => typeof arg === "function");
      if (callback) queueMicrotask(callback);
      return true;
    }
    return Reflect.apply(write, this, [chunk, ...rest]) as boolean;
  };
  stream.write = dropNoise as typeof stream.write;
}

/** Installed for the rest of the process: the pool stops its last runtime after global teardown. */
export function dropWorkerdNoise(): void {
  filter(process.stdout);
  filter(process.stderr);
}
