/** @module Which fields of each stored record are sealed (message contents, tool arguments, summaries, fact texts), in one place. */
import type { SessionDump, SessionListEntry } from "../../memory/ports/index.ts";
import type { Fact, SessionSnapshot, StoredMessage, Summary, ToolCall, TurnOutcome } from "../../memory/model.ts";
import type { FieldCipher } from "./cipher.ts";

/**
 * Which fields of each record are sealed, in one place: the decorators only apply these. What the
 * Lua scripts read (ids, roles, token counts, timestamps, tool-call ids) stays in clear.
 */

/** Seals (`seal`) or opens (`open`) one text field. */
export type TextCodec = (text: string) => Promise<string>;

export interface Codecs {
  seal: TextCodec;
  open: TextCodec;
}

/** The two codecs of one tenant. */
export const codecsFor = (cipher: FieldCipher, tenant: string): Codecs => ({
  seal: (text) => cipher.seal(text, tenant),
  open: (text) => cipher.open(text, tenant),
});

const mapAll = <T>(items: readonly T[], f: (item: T) => Promise<T>): Promise<T[]> => Promise.all(items.map(f));

/** Tool-call ids pair calls with results (Lua checks them), so only the arguments are sealed. */
async function toolCalls(calls: ToolCall[] | undefined, codec: TextCodec): Promise<ToolCall[] | undefined> {
  if (!calls) return calls;
  return mapAll(calls, async (c) => ({ ...c, function: { ...c.function, arguments: await codec(c.function.arguments) } }));
}

/** A message's content and tool arguments; the field order (id, role, tokens first) is kept. */
export async function message(m: StoredMessage, codec: TextCodec): Promise<StoredMessage> {
  const out: StoredMessage = { ...m, content: await codec(m.content) };
  if (m.tool_calls) out.tool_calls = await toolCalls(m.tool_calls, codec);
  return out;
}

export const messages = (list: readonly StoredMessage[], codec: TextCodec): Promise<StoredMessage[]> =>
  mapAll(list, (m) => message(m, codec));

export async function summary(s: Summary, codec: TextCodec): Promise<Summary> {
  return { ...s, text: await codec(s.text) };
}

export async function outcome(o: TurnOutcome, codec: TextCodec): Promise<TurnOutcome> {
  const out: TurnOutcome = { ...o, content: await codec(o.content) };
  if (o.tool_calls) out.tool_calls = await toolCalls(o.tool_calls, codec);
  return out;
}

/** A fact's text and the texts it superseded. */
export async function fact(f: Fact, codec: TextCodec): Promise<Fact> {
  const out: Fact = { ...f, text: await codec(f.text) };
  if (f.history) out.history = await mapAll(f.history, async (h) => ({ ...h, text: await codec(h.text) }));
  return out;
}

export async function snapshot(s: SessionSnapshot, codec: TextCodec): Promise<SessionSnapshot> {
  const [system, window, sum] = await Promise.all([
    messages(s.system, codec),
    messages(s.window, codec),
    s.summary ? summary(s.summary, codec) : null,
  ]);
  return { ...s, system, window, summary: sum };
}

export async function strings(values: readonly string[], codec: TextCodec): Promise<string[]> {
  return Promise.all(values.map(codec));
}

export async function record(values: Record<string, string>, codec: TextCodec): Promise<Record<string, string>> {
  const entries = await Promise.all(Object.entries(values).map(async ([k, v]) => [k, await codec(v)] as const));
  return Object.fromEntries(entries);
}

export async function listEntry(e: SessionListEntry, codec: TextCodec): Promise<SessionListEntry> {
  return { ...e, title: e.title === null ? null : await codec(e.title) };
}

export async function dump(d: SessionDump, codec: TextCodec): Promise<SessionDump> {
  const [snap, archived, notes, scratchpad, turns] = await Promise.all([
    snapshot(d.snapshot, codec),
    messages(d.archived, codec),
    record(d.notes, codec),
    strings(d.scratchpad, codec),
    mapAll(d.turns, (t) => outcome(t, codec)),
  ]);
  return { ...d, snapshot: snap, archived, notes, scratchpad, turns };
}
