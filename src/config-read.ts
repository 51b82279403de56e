/** Reads typed values from Worker bindings, collecting problems instead of throwing at the first. */
export interface EnvReader {
  env: Record<string, unknown>;
  problems: string[];
}

/** A trimmed non-empty string, or undefined when unset or blank. */
export function readString(read: EnvReader, name: string): string | undefined {
  const raw = read.env[name];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "string") {
    read.problems.push(`${name} must be a string`);
    return undefined;
  }
  const value = raw.trim();
  return value === "" ? undefined : value;
}

export function readInt(read: EnvReader, name: string, fallback: number, min: number, max: number): number {
  const raw = readString(read, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    read.problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

export function readNumber(read: EnvReader, name: string, fallback: number, min: number, max: number): number {
  const raw = readString(read, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    read.problems.push(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

export function readEnum<T extends string>(read: EnvReader, name: string, allowed: readonly T[], fallback: T): T {
  const raw = readString(read, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    read.problems.push(`${name} must be one of ${allowed.join(", ")}, got "${raw}"`);
    return fallback;
  }
  return raw as T;
}
