/** @module A chat turn run whole, native or proxied: store and read, wait for the caller's admission, then the model's answer. */
import { MemoryError } from "../errors.ts";
import { ChatTurn, proxiedTurn, type ChatTurnDeps, type ProxiedRequest, type TurnAnswer, type TurnInput } from "./chat-turn.ts";

/** How the caller wants a turn run. */
export interface TurnRun {
  /**
   * Resolves once the model may be called (the caller's admission, such as its rate limit). The
   * turn's messages are stored by then; a rejection calls no model and leaves them stored.
   */
  admitted(): Promise<void>;
  /** The caller streams the answer: the turn comes back started, see `ChatTurn.stream`. Default false. */
  stream?: boolean | undefined;
}

/** A turn's answer, whole; or, streamed, the started turn whose stream the caller reads to the end. */
export type TurnResult = { kind: "answer"; answer: TurnAnswer } | { kind: "stream"; turn: ChatTurn };

/**
 * One chat turn: the new messages stored with the context read (see `ChatTurn.start`), then, once
 * admitted, the model's answer stored as the session's next message (or a retry's recorded one).
 */
export async function runChatTurn(deps: ChatTurnDeps, input: TurnInput, run: TurnRun): Promise<TurnResult> {
  const turn = await ChatTurn.start(deps, input);
  await run.admitted();
  return run.stream ? { kind: "stream", turn } : { kind: "answer", answer: await turn.complete() };
}

/** A proxied turn: who it acts for and the OpenAI-style request it came as. */
export interface ProxiedTurnInput {
  sessionId: string;
  userId: string | undefined;
  /** The client's idempotency key (see `TurnInput.key`). */
  key?: string | undefined;
  request: ProxiedRequest;
}

/**
 * One turn of an OpenAI-style request, which sends the whole conversation: what it adds to memory
 * (see `proxiedTurn`; its system prompt replaces a differing pinned one) runs as one chat turn.
 * A conversation with nothing to answer is refused before anything is stored.
 */
export async function runProxiedTurn(deps: ChatTurnDeps, input: ProxiedTurnInput, run: TurnRun): Promise<TurnResult> {
  const proxied = await proxiedTurn(input.request);
  if ("refused" in proxied) throw new MemoryError("invalid", proxied.refused);
  const { sessionId, userId, key } = input;
  return runChatTurn(deps, { sessionId, userId, replaceSystem: true, key, ...proxied }, run);
}
