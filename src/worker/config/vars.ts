/** @module One configuration variable: how it is described, defaulted and parsed (int, number, enum, string, custom). */
/**
 * How one configuration variable is read: its name, what the README says about it, its default
 * and its parser. Parsers collect problems instead of throwing, so one bad deployment lists every
 * mistake at once.
 */
export interface ConfigVar<T> {
  readonly name: string;
  /** Shown in the README and in config errors. */
  readonly description: string;
  /** The default as documented; absent means "unset / off". */
  readonly defaultText?: string | undefined;
  /** Holds a credential: never logged; put with `wrangler secret put` in production. */
  readonly secret?: boolean | undefined;
  /** The value of the trimmed binding (undefined when unset or blank); the default when invalid. */
  parse(raw: string | undefined, problems: string[]): T;
}

interface Common {
  description: string;
  secret?: boolean;
}

/** A trimmed, non-empty string, or undefined. */
export function rawValue(env: Record<string, unknown>, name: string, problems: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "string") {
    problems.push(`${name} must be a string`);
    return undefined;
  }
  const value = raw.trim();
  return value === "" ? undefined : value;
}

/** An integer within `[min, max]`. */
export function intVar(name: string, o: Common & { default: number; min: number; max: number; defaultText?: string }): ConfigVar<number> {
  return {
    name,
    description: o.description,
    defaultText: o.defaultText ?? String(o.default),
    parse(raw, problems) {
      if (raw === undefined) return o.default;
      const value = Number(raw);
      if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < o.min || value > o.max) {
        problems.push(`${name} must be an integer from ${o.min} to ${o.max}, got "${raw}"`);
        return o.default;
      }
      return value;
    },
  };
}

/** A finite number within `[min, max]`. */
export function numberVar(name: string, o: Common & { default: number; min: number; max: number }): ConfigVar<number> {
  return {
    name,
    description: o.description,
    defaultText: String(o.default),
    parse(raw, problems) {
      if (raw === undefined) return o.default;
      const value = Number(raw);
      if (!Number.isFinite(value) || value < o.min || value > o.max) {
        problems.push(`${name} must be a number from ${o.min} to ${o.max}, got "${raw}"`);
        return o.default;
      }
      return value;
    },
  };
}

/** One of `values`. */
export function enumVar<const V extends string>(name: string, o: Common & { values: readonly V[]; default: V }): ConfigVar<V> {
  return {
    name,
    description: `${o.description}; one of ${o.values.map((v) => `\`${v}\``).join(", ")}`,
    defaultText: o.default,
    parse(raw, problems) {
      if (raw === undefined) return o.default;
      if (!(o.values as readonly string[]).includes(raw)) {
        problems.push(`${name} must be one of ${o.values.join(", ")}, got "${raw}"`);
        return o.default;
      }
      return raw as V;
    },
  };
}

/** Free text, with a default or none. */
export function stringVar(name: string, o: Common & { default: string }): ConfigVar<string>;
export function stringVar(name: string, o: Common & { defaultText?: string }): ConfigVar<string | undefined>;
export function stringVar(name: string, o: Common & { default?: string; defaultText?: string }): ConfigVar<string | undefined> {
  return {
    name,
    description: o.description,
    defaultText: o.default ?? o.defaultText,
    secret: o.secret,
    parse: (raw) => raw ?? o.default,
  };
}

/** A variable with its own parser (lists, pairs, URLs). */
export function customVar<T>(
  name: string,
  o: Common & { defaultText?: string; parse: (raw: string | undefined, problems: string[]) => T },
): ConfigVar<T> {
  return { name, description: o.description, defaultText: o.defaultText, secret: o.secret, parse: o.parse };
}
