/** @module Request and response types of the client, derived from the generated schema by operationId. */
import type { components, operations } from "./schema.ts";

/**
 * Types derived from the generated schema by operationId, so the helpers follow the routes: when a
 * route's schemas change, `npm run client:generate` changes these and the helpers with them.
 */

/** The API's operations, by operationId. */
export type OperationId = keyof operations;

type JsonBody<R> = R extends { content: { "application/json": infer B } } ? B : never;
type SuccessStatus = 200 | 201 | 202;

/** What an operation answers on success (the JSON of its 200/201/202 responses). */
export type Success<K extends OperationId> = operations[K] extends { responses: infer R }
  ? JsonBody<R[Extract<keyof R, SuccessStatus>]>
  : never;

/** The JSON body an operation takes. */
export type RequestBody<K extends OperationId> = operations[K] extends { requestBody?: infer B } ? JsonBody<NonNullable<B>> : never;

/** An operation's query parameters. */
export type QueryParams<K extends OperationId> = operations[K] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/**
 * Query parameters as a caller writes them: numbers and lists of names are welcome; they travel as
 * text (`k=5`, `types=fact,preference`), which is what the service parses.
 */
export type QueryInput<Q> = { [K in keyof Q]?: Q[K] | number | readonly string[] };

/** Every error the API answers with: `{ error: { code, message, details? } }`. */
export type ErrorBody = components["schemas"]["Error"];
/** A message to append; `audio` and `function_call` exist only so OpenAI's own replies validate as they are. */
export type MessageInput = Omit<components["schemas"]["MessageInput"], "audio" | "function_call">;
export type NewFact = RequestBody<"addFact">;
export type FactPatch = RequestBody<"updateFact">;
export type ChatRequest = Omit<RequestBody<"chat">, "stream">;

export type AppendResult = Success<"appendMessages">;
export type ContextResult = Success<"getContext">;
export type ChatResult = Success<"chat">;
/** The stored reply of a turn. */
export type ChatReply = components["schemas"]["ChatReply"];
/** What memory injected into a turn: recalled facts, summary version, context tokens. */
export type TurnMemory = components["schemas"]["TurnMemory"];
export type SessionState = Success<"getSession">;
export type SessionHistory = Success<"getSessionHistory">;
export type Compression = Success<"compressSession">;
export type UserSessions = Success<"listUserSessions">;
export type UserExport = Success<"exportUser">;
export type UserErased = Success<"eraseUser">;
export type Fact = components["schemas"]["Fact"];
export type RecalledFact = components["schemas"]["RecalledFact"];
export type FactsPage = Success<"searchFacts">;
/** `searchFacts` with `query`: the recalled facts, best first, with their scores. */
export type FactRecall = components["schemas"]["FactRecall"];
/** `searchFacts` without `query`: one page of all facts; `nextCursor` is null at the end. */
export type FactList = components["schemas"]["FactList"];
export type FactResult = Success<"getFact">;
