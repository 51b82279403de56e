import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../errors.ts";
import { sessionRef } from "../memory.ts";
import { createRouter } from "../router.ts";
import { IdSchema, SessionParams, errorResponses, jsonResponse, AnyObject, security } from "../schemas/common.ts";


/** Working memory is small by design: a note or a scratchpad entry holds at most 8 KB. */
const MAX_VALUE_CHARS = 8192;
/** Scratchpad entries kept; older ones are dropped first. */
const MAX_SCRATCH_ENTRIES = 200;

const NoteParams = SessionParams.extend({ key: IdSchema.openapi({ param: { name: "key", in: "path" } }) });
const NoteBody = z.object({ value: z.string().min(1).max(MAX_VALUE_CHARS) }).strict();
const ScratchBody = z.object({ entry: z.string().min(1).max(MAX_VALUE_CHARS) }).strict();

const route = <P extends typeof SessionParams | typeof NoteParams>(method: "get" | "delete", path: string, summary: string, params: P) =>
  createRoute({ method, path, summary, security, request: { params }, responses: { 200: jsonResponse(AnyObject, "OK"), ...errorResponses } });

const withBody = <B extends z.ZodType>(method: "put" | "post", path: string, summary: string, params: typeof SessionParams | typeof NoteParams, body: B) =>
  createRoute({
    method,
    path,
    summary,
    security,
    request: { params, body: { content: { "application/json": { schema: body } }, required: true } },
    responses: { 200: jsonResponse(AnyObject, "OK"), ...errorResponses },
  });

/** Seed 003's working memory: per-session notes (key/value) and a scratchpad, with their own TTL. */
export function workingMemoryRoutes() {
  const app = createRouter();
  const notesPath = "/v1/sessions/{sessionId}/notes";
  const padPath = "/v1/sessions/{sessionId}/scratchpad";

  app.openapi(route("get", notesPath, "All notes of the session", SessionParams), async (c) => {
    const { sessionId } = c.req.valid("param");
    return c.json({ sessionId, notes: await c.get("deps").working().getNotes(sessionRef(c, sessionId)) }, 200);
  });

  app.openapi(route("delete", notesPath, "Clear all notes", SessionParams), async (c) => {
    const { sessionId } = c.req.valid("param");
    return c.json({ sessionId, deleted: await c.get("deps").working().clearNotes(sessionRef(c, sessionId)) }, 200);
  });

  app.openapi(withBody("put", `${notesPath}/{key}`, "Set a note (refreshes the working-memory TTL)", NoteParams, NoteBody), async (c) => {
    const { sessionId, key } = c.req.valid("param") as z.infer<typeof NoteParams>;
    const { value } = c.req.valid("json");
    await c.get("deps").working().setNote(sessionRef(c, sessionId), key, value, c.get("config").notesTtlSeconds);
    return c.json({ sessionId, key, value }, 200);
  });

  app.openapi(route("get", `${notesPath}/{key}`, "One note", NoteParams), async (c) => {
    const { sessionId, key } = c.req.valid("param");
    const value = await c.get("deps").working().getNote(sessionRef(c, sessionId), key);
    if (value === null) throw new ApiError(404, "not_found", `no note "${key}"`);
    return c.json({ sessionId, key, value }, 200);
  });

  app.openapi(route("delete", `${notesPath}/{key}`, "Delete one note", NoteParams), async (c) => {
    const { sessionId, key } = c.req.valid("param");
    const deleted = await c.get("deps").working().deleteNote(sessionRef(c, sessionId), key);
    return c.json({ sessionId, key, deleted }, 200);
  });

  app.openapi(withBody("post", padPath, "Append a scratchpad entry", SessionParams, ScratchBody), async (c) => {
    const { sessionId } = c.req.valid("param");
    const { entry } = c.req.valid("json");
    const length = await c
      .get("deps")
      .working()
      .appendScratch(sessionRef(c, sessionId), entry, c.get("config").notesTtlSeconds, MAX_SCRATCH_ENTRIES);
    return c.json({ sessionId, length }, 200);
  });

  app.openapi(route("get", padPath, "The scratchpad, oldest first", SessionParams), async (c) => {
    const { sessionId } = c.req.valid("param");
    return c.json({ sessionId, entries: await c.get("deps").working().getScratch(sessionRef(c, sessionId)) }, 200);
  });

  app.openapi(route("delete", padPath, "Clear the scratchpad", SessionParams), async (c) => {
    const { sessionId } = c.req.valid("param");
    return c.json({ sessionId, deleted: await c.get("deps").working().clearScratch(sessionRef(c, sessionId)) }, 200);
  });

  return app;
}
