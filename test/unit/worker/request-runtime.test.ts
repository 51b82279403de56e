import { describe, expect, it } from "vitest";
import { backgroundFor } from "../../../src/worker/request-runtime.ts";

function recordingLogger() {
  const errors: { message: string; data: Record<string, unknown> | undefined }[] = [];
  const none = () => undefined;
  return {
    errors,
    logger: {
      debug: none,
      info: none,
      warn: none,
      error: (message: string, data?: Record<string, unknown>) => errors.push({ message, data }),
    },
  };
}

describe("background work", () => {
  it("is handed to waitUntil, and a failure is logged instead of thrown", async () => {
    const handed: Promise<unknown>[] = [];
    const { errors, logger } = recordingLogger();
    const background = backgroundFor({ waitUntil: (p) => handed.push(p) }, logger);
    background(Promise.resolve("done"));
    background(Promise.reject(new Error("boom")));
    expect(handed).toHaveLength(2);
    await Promise.all(handed);
    expect(errors).toEqual([{ message: "background work failed", data: { error: "Error: boom" } }]);
  });

  it("without a context a failure is still caught and logged", async () => {
    const { errors, logger } = recordingLogger();
    let reject: (err: unknown) => void = () => undefined;
    const work = new Promise((_resolve, rejectWork) => {
      reject = rejectWork;
    });
    backgroundFor(undefined, logger)(work);
    reject(new Error("late"));
    await work.catch(() => undefined);
    await Promise.resolve();
    expect(errors).toEqual([{ message: "background work failed", data: { error: "Error: late" } }]);
  });
});
