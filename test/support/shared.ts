/**
 * One instance per vitest process of what several projects' global setups start (the test Redis,
 * the emulator stack). Each project loads its setup files through its own module runner, so a
 * module-level variable would not be shared; the registry lives on globalThis instead. Every user
 * holds a reference and the last release closes it, after the last project's teardown.
 */
interface Entry {
  value: Promise<unknown>;
  close: () => Promise<void>;
  users: number;
}

const REGISTRY = Symbol.for("agent-memory.test-shared");
type Holder = { [REGISTRY]?: Map<string, Entry> };

function registry(): Map<string, Entry> {
  const holder = globalThis as Holder;
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/** `start()` once per process under `name`; returns the value and a release function. */
export async function acquireShared<T>(
  name: string,
  start: () => Promise<{ value: T; close: () => Promise<void> }>,
): Promise<{ value: T; release: () => Promise<void> }> {
  const map = registry();
  let entry = map.get(name);
  if (!entry) {
    const started = start();
    const created: Entry = { value: started.then((s) => s.value), close: async () => (await started).close(), users: 0 };
    map.set(name, created);
    // A failed start is not cached: the next project tries again and reports its own error.
    started.catch(() => map.delete(name));
    entry = created;
  }
  entry.users += 1;
  const held = entry;
  const value = (await held.value) as T;
  let released = false;
  return {
    value,
    release: async () => {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users > 0) return;
      map.delete(name);
      await held.close();
    },
  };
}
