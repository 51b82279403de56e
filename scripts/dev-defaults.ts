/**
 * What `npm run dev` sets when the shell does not, so the examples work with no configuration: the
 * dev tenant's key, a token secret (the browser example mints tokens) and CORS for the browser
 * example's origin. Dev only: a deployed Worker gets none of these (README "Deploy").
 */

/** Signs the dev stack's tokens; public on purpose, so never use it outside `npm run dev`. */
export const DEV_TOKEN_SECRET = "agent-memory-dev-only-token-secret-not-for-production";

/** Where `npm run example:browser` serves its page unless EXAMPLE_PORT moves it. */
export const EXAMPLE_DEFAULT_PORT = 8788;

/** The origins a browser shows for the example's page (it listens on 127.0.0.1; people type localhost too). */
export function exampleOrigins(env: NodeJS.ProcessEnv): string {
  const port =
    env.EXAMPLE_PORT && /^\d{1,5}$/.test(env.EXAMPLE_PORT) && env.EXAMPLE_PORT !== "0" ? env.EXAMPLE_PORT : String(EXAMPLE_DEFAULT_PORT);
  return `http://127.0.0.1:${port},http://localhost:${port}`;
}

/** Fills in the dev defaults `forwarded` lacks; answers one line per default taken, for the start banner. */
export function applyDevDefaults(forwarded: Record<string, string>, env: NodeJS.ProcessEnv): string[] {
  const notes: string[] = [];
  if (forwarded.API_KEYS === undefined) {
    forwarded.API_KEYS = "dev:dev-key";
    notes.push("API key: dev-key, tenant dev");
  }
  if (forwarded.TOKEN_SECRET === undefined) {
    forwarded.TOKEN_SECRET = DEV_TOKEN_SECRET;
    notes.push("tokens: signed with the dev-only TOKEN_SECRET");
  }
  if (forwarded.CORS_ORIGINS === undefined) {
    forwarded.CORS_ORIGINS = exampleOrigins(env);
    notes.push(`CORS: ${forwarded.CORS_ORIGINS.replace(",", ", ")} (the browser example)`);
  }
  return notes;
}
