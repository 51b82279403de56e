import { describe, expect, it } from "vitest";
import { isWorkerdNoise } from "../../support/workerd-noise.ts";

const STACK = "stack: /x/node_modules/@cloudflare/workerd-linux-64/bin/workerd@51ccf21 /x/bin/workerd@51cd135";

describe("the workerd noise filter", () => {
  it("drops the teardown and dropped-connection entries, with their native stacks", () => {
    expect(isWorkerdNoise("exception = workerd/api/web-socket.c++:821: disconnected: WebSocket peer disconnected\n")).toBe(true);
    expect(isWorkerdNoise(`exception = kj/async-io.c++:60: disconnected: stream disconnected prematurely\n${STACK}\n`)).toBe(true);
    expect(isWorkerdNoise("uncaught exception; source = Uncaught (in promise); stack = Error: Network connection lost.\n")).toBe(true);
    const jsg =
      "uncaught exception; exception = workerd/jsg/_virtual_includes/iterator/workerd/jsg/value.h:1480: disconnected: jsg.Error: Network connection lost.";
    expect(isWorkerdNoise(`${jsg}\n${STACK}\n`)).toBe(true);
    expect(isWorkerdNoise(`exception = kj/async-io-unix.c++:1538: disconnected: connect(): Connection refused\n${STACK}\n`)).toBe(true);
    const pipe = "exception = kj/async-io-unix.c++:186: disconnected: ::write(fd, buffer.begin(), buffer.size()): Broken pipe";
    expect(isWorkerdNoise(`${pipe}\n${STACK}\n`)).toBe(true);
  });

  it("keeps everything else: other exceptions, other rejections, anything after the stack, test output", () => {
    expect(isWorkerdNoise("exception = workerd/api/web-socket.c++:821: disconnected: WebSocket was closed by a bug\n")).toBe(false);
    expect(
      isWorkerdNoise("uncaught exception; source = Uncaught (in promise); stack = TypeError: x is undefined\n    at f (index.js:1:1)\n"),
    ).toBe(false);
    expect(
      isWorkerdNoise(`exception = kj/async-io.c++:60: disconnected: stream disconnected prematurely\n${STACK}\nsomething else\n`),
    ).toBe(false);
    expect(
      isWorkerdNoise('{"level":"warn","msg":"fact recall failed; answering without facts","error":"Network connection lost."}\n'),
    ).toBe(false);
    expect(isWorkerdNoise(" ✓  workers  test/api/service/health.test.ts (4 tests) 51ms\n")).toBe(false);
  });
});
