/** @module Creates route groups whose zod schemas validate input, with one 400 message per failure and unknown query params refused. */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "./context-types.ts";
import { ApiError } from "./errors.ts";

/** What each validation target is called in error messages. */
const TARGET_NAMES: Record<string, string> = {
  json: "body",
  query: "query",
  param: "path",
  header: "header",
  form: "body",
  cookie: "cookie",
};

type Issue = z.core.$ZodIssue;

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** A message we wrote into a schema starts lower-case; zod's own start with a capital. */
const ownMessage = (issue: Issue): string | null => (/^[a-z]/.test(issue.message) ? issue.message : null);

/** The problem of one issue in words, with its bound: "must be >= 50", "must be at most 64 characters". */
export function issueProblem(issue: Issue): string {
  switch (issue.code) {
    case "too_small": {
      const own = ownMessage(issue);
      if (own) return own;
      const n = Number(issue.minimum);
      if (issue.origin === "string") return n === 1 ? "must not be empty" : `must be at least ${plural(n, "character", "characters")}`;
      if (issue.origin === "array" || issue.origin === "set") return `must have at least ${plural(n, "item", "items")}`;
      return `must be ${issue.inclusive === false ? ">" : ">="} ${n}`;
    }
    case "too_big": {
      const own = ownMessage(issue);
      if (own) return own;
      const n = Number(issue.maximum);
      if (issue.origin === "string") return `must be at most ${plural(n, "character", "characters")}`;
      if (issue.origin === "array" || issue.origin === "set") return `must have at most ${plural(n, "item", "items")}`;
      return `must be ${issue.inclusive === false ? "<" : "<="} ${n}`;
    }
    case "invalid_type": {
      if (/received undefined$/.test(issue.message)) return "is required";
      const expected = issue.expected === "int" ? "integer" : issue.expected;
      return ownMessage(issue) ?? `must be ${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected}`;
    }
    case "unrecognized_keys":
      return `${issue.keys.length === 1 ? "is not a known field" : "are not known fields"}`;
    case "invalid_value":
      return ownMessage(issue) ?? `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_format":
      return ownMessage(issue) ?? (issue.format === "regex" ? "has an invalid format" : `must be a valid ${issue.format}`);
    default:
      return ownMessage(issue) ?? "is invalid";
  }
}

/**
 * An unknown query key is a parameter, not a field. A query value is a list only when the
 * parameter is repeated (`?limit=1&limit=2`): whatever the schema says then, it was given twice.
 */
function problemIn(target: string, issue: Issue, input: unknown): string {
  if (target !== "query") return issueProblem(issue);
  if (issue.code === "unrecognized_keys") return issue.keys.length === 1 ? "is not a known parameter" : "are not known parameters";
  const name = issue.path[0];
  // a schema's own refinement (an unknown name given twice) says what it means itself
  if (issue.code !== "custom" && issue.path.length === 1 && typeof name === "string" && typeof input === "object" && input !== null) {
    if (Array.isArray((input as Record<string, unknown>)[name])) return "must be given once";
  }
  return issueProblem(issue);
}

/** Where an issue is: `messages.0.content`; an unknown key names itself. */
function issuePath(issue: Issue): string {
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys") return [...path, issue.keys.join(", ")].join(".");
  return path.join(".");
}

type Route = Parameters<OpenAPIHono<AppEnv>["openapi"]>[0];

/**
 * The route with a query schema that refuses parameters it does not name: a misspelt or
 * unsupported parameter (`?filter=`, `?limt=`) is a 400 instead of being silently ignored. A route
 * without a query schema takes no parameters; a schema with its own `catchall` decides itself
 * which extra names it accepts (`metadata.<key>`).
 */
export function withStrictQuery<R extends Route>(route: R): R {
  const query = route.request?.query;
  if (query === undefined) return { ...route, request: { ...route.request, query: z.object({}).strict() } };
  if (query instanceof z.ZodObject && query.def.catchall === undefined)
    return { ...route, request: { ...route.request, query: query.strict() } };
  return route;
}

/**
 * A route group whose zod schemas validate input and also describe it in `/openapi.json`. Invalid
 * input becomes one 400 `invalid <target>: <field> <problem>` with every issue in `details`;
 * unknown query parameters are invalid input on every route (see {@link withStrictQuery}).
 */
export function createRouter(): OpenAPIHono<AppEnv> {
  const app = newRouter();
  const openapi = app.openapi.bind(app);
  app.openapi = ((route: Route, ...rest: unknown[]) =>
    (openapi as (...args: unknown[]) => unknown)(withStrictQuery(route), ...rest)) as typeof app.openapi;
  return app;
}

function newRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        // the validator passes the input it checked too (`data`), though its type does not say so
        const input: unknown = "data" in result ? result.data : undefined;
        const all = result.error.issues.map((issue) => ({ path: issuePath(issue), message: problemIn(result.target, issue, input) }));
        // one rule broken twice (a huge number is too big and not a safe integer) is said once
        const issues = all.filter((a, i) => all.findIndex((b) => b.path === a.path && b.message === a.message) === i);
        const first = issues[0];
        const where = TARGET_NAMES[result.target] ?? result.target;
        const text = first ? `${first.path === "" ? "" : `${first.path} `}${first.message}` : "is invalid";
        throw new ApiError(400, "validation_failed", `invalid ${where}: ${text}`, { details: issues });
      }
    },
  });
}
