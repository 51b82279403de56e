/** @module The working-memory routes: per-session key/value notes and a scratchpad, each with its own TTL. */
import { createRoute, z } from "@hono/zod-openapi";
import { MAX_WORKING_VALUE_CHARS, NOTES_PAGE_LIMIT } from "../../memory/sessions/index.ts";
import { sessionRead, sessionWrite } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { IdSchema, SessionParams, errors, jsonResponse, queryInt, security } from "../schemas/common.ts";
import {
  ClearedSchema,
  NoteDeletedSchema,
  NoteSchema,
  NotesSchema,
  ScratchpadLengthSchema,
  ScratchpadSchema,
  WORKING_EXAMPLES,
} from "../schemas/working-responses.ts";

const NoteParams = SessionParams.extend({ key: IdSchema.openapi({ param: { name: "key", in: "path" } }) });
const NoteBody = z.object({ value: z.string().min(1).max(MAX_WORKING_VALUE_CHARS) }).strict();
const ScratchBody = z.object({ entry: z.string().min(1).max(MAX_WORKING_VALUE_CHARS) }).strict();
const NotesQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional()
    .openapi({ description: "The nextCursor of the previous page" }),
  limit: queryInt(1, NOTES_PAGE_LIMIT)
    .optional()
    .openapi({ description: `Notes per page (at most ${NOTES_PAGE_LIMIT}, the default)` }),
});

/** A 200 answer of `schema`, with its example. */
const ok = <S extends z.ZodType>(schema: S, description: string, example: z.input<S>) => ({
  200: jsonResponse(schema, description, example),
});
type Ok<S extends z.ZodType> = ReturnType<typeof ok<S>>;

const route = <P extends typeof SessionParams | typeof NoteParams, S extends z.ZodType, E extends object>(
  method: "get" | "delete",
  path: string,
  summary: string,
  params: P,
  answer: Ok<S>,
  failures: E,
) => createRoute({ method, path, summary, security, request: { params }, responses: { ...answer, ...failures } });

/** `capped`: the write can be refused because the session's notes are at their cap (409). */
const withBody = <B extends z.ZodType, S extends z.ZodType>(
  method: "put" | "post",
  path: string,
  summary: string,
  params: typeof SessionParams | typeof NoteParams,
  body: B,
  answer: Ok<S>,
  capped = false,
) =>
  createRoute({
    method,
    path,
    summary,
    security,
    request: { params, body: { content: { "application/json": { schema: body } }, required: true } },
    responses: { ...answer, ...(capped ? errors(400, 401, 409, 413, 415, 503) : errors(400, 401, 413, 415, 503)) },
  });

const readErrors = errors(400, 401, 503);
const oneNoteErrors = errors(400, 401, 404, 503);
const { notes, note, noteDeleted, cleared, length, scratchpad } = WORKING_EXAMPLES;

const notesPath = "/v1/sessions/{sessionId}/notes";
const padPath = "/v1/sessions/{sessionId}/scratchpad";

const defs = {
  notes: defineRoute(
    {
      method: "get",
      path: notesPath,
      summary: `The session's notes, a page of at most ${NOTES_PAGE_LIMIT} at a time`,
      security,
      request: { params: SessionParams, query: NotesQuery },
      responses: { ...ok(NotesSchema, "One page of the notes", notes), ...readErrors },
    },
    {
      access: sessionRead,
      doc: { operationId: "listNotes", tag: "Working memory", description: "Every note of the session as a key/value map." },
    },
  ),
  clearNotes: defineRoute(
    route("delete", notesPath, "Clear all notes", SessionParams, ok(ClearedSchema, "Notes removed", cleared), readErrors),
    {
      access: sessionWrite,
      doc: { operationId: "clearNotes", tag: "Working memory", description: "Deletes every note of the session." },
    },
  ),
  setNote: defineRoute(
    withBody(
      "put",
      `${notesPath}/{key}`,
      "Set a note (refreshes the working-memory TTL)",
      NoteParams,
      NoteBody,
      ok(NoteSchema, "The note as stored", note),
      true,
    ),
    {
      access: sessionWrite,
      doc: { operationId: "setNote", tag: "Working memory", description: "Sets one note; refreshes the working-memory TTL." },
      example: { value: "book a flight to Lisbon" },
    },
  ),
  note: defineRoute(
    route("get", `${notesPath}/{key}`, "One note (404 when there is none)", NoteParams, ok(NoteSchema, "The note", note), oneNoteErrors),
    {
      access: sessionRead,
      doc: { operationId: "getNote", tag: "Working memory", description: "One note's value; 404 when it is not set." },
    },
  ),
  deleteNote: defineRoute(
    route(
      "delete",
      `${notesPath}/{key}`,
      "Delete one note (404 when there is none)",
      NoteParams,
      ok(NoteDeletedSchema, "Deleted", noteDeleted),
      oneNoteErrors,
    ),
    {
      access: sessionWrite,
      doc: { operationId: "deleteNote", tag: "Working memory", description: "Deletes one note." },
    },
  ),
  append: defineRoute(
    withBody(
      "post",
      padPath,
      "Append a scratchpad entry",
      SessionParams,
      ScratchBody,
      ok(ScratchpadLengthSchema, "The scratchpad's length after the append", length),
    ),
    {
      access: sessionWrite,
      doc: { operationId: "appendScratchpad", tag: "Working memory", description: "Appends one entry to the session's scratchpad." },
      example: { entry: "searched flights: 3 options under 500 EUR" },
    },
  ),
  scratchpad: defineRoute(
    route(
      "get",
      padPath,
      "The scratchpad, oldest first",
      SessionParams,
      ok(ScratchpadSchema, "Every entry, oldest first", scratchpad),
      readErrors,
    ),
    {
      access: sessionRead,
      doc: { operationId: "getScratchpad", tag: "Working memory", description: "The scratchpad's entries, oldest first." },
    },
  ),
  clearScratch: defineRoute(
    route("delete", padPath, "Clear the scratchpad", SessionParams, ok(ClearedSchema, "Entries removed", cleared), readErrors),
    {
      access: sessionWrite,
      doc: { operationId: "clearScratchpad", tag: "Working memory", description: "Deletes the scratchpad." },
    },
  ),
};

/** Working memory: per-session notes (key/value) and a scratchpad, with their own TTL. */
export function workingMemoryRoutes() {
  const app = createRouter();

  app.openapi(defs.notes.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    const page = await c.get("memory").working(sessionId).notesPage(c.req.valid("query"));
    return c.json({ sessionId, ...page }, 200);
  });

  app.openapi(defs.clearNotes.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    return c.json({ sessionId, deleted: await c.get("memory").working(sessionId).clearNotes() }, 200);
  });

  app.openapi(defs.setNote.route, async (c) => {
    const { sessionId, key } = c.req.valid("param") as z.infer<typeof NoteParams>;
    const { value } = c.req.valid("json");
    await c.get("memory").working(sessionId).setNote(key, value);
    return c.json({ sessionId, key, value }, 200);
  });

  app.openapi(defs.note.route, async (c) => {
    const { sessionId, key } = c.req.valid("param");
    return c.json({ sessionId, key, value: await c.get("memory").working(sessionId).note(key) }, 200);
  });

  app.openapi(defs.deleteNote.route, async (c) => {
    const { sessionId, key } = c.req.valid("param");
    await c.get("memory").working(sessionId).deleteNote(key);
    return c.json({ sessionId, key, deleted: 1 as const }, 200);
  });

  app.openapi(defs.append.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    const { entry } = c.req.valid("json");
    return c.json({ sessionId, length: await c.get("memory").working(sessionId).appendScratch(entry) }, 200);
  });

  app.openapi(defs.scratchpad.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    return c.json({ sessionId, entries: await c.get("memory").working(sessionId).scratchpad() }, 200);
  });

  app.openapi(defs.clearScratch.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    return c.json({ sessionId, deleted: await c.get("memory").working(sessionId).clearScratch() }, 200);
  });

  return app;
}

/** The routes this module mounts, for the route registry. */
export const workingRouteDefs: readonly DefinedRoute[] = Object.values(defs);
