import { normalizeFactText } from "../memory/facts.ts";
import type { FactExtractor, FactOperation } from "../memory/ports.ts";
import { isSalient, splitSentences } from "../memory/salience.ts";
import type { Fact, StoredMessage } from "../memory/types.ts";

const MAX_TEXT_CHARS = 500;

/**
 * Offline fact extraction (no LLM): each user sentence the salience cues mark as worth keeping
 * becomes an `add` with the cues' type and importance; other user messages are skipped, assistant
 * and tool messages ignored. It never updates: without understanding it cannot tell a
 * contradiction, and content-hash ids already merge repeats. Deterministic.
 */
export class HeuristicFactExtractor implements FactExtractor {
  async extract(request: { messages: StoredMessage[]; existing: Fact[] }): Promise<FactOperation[]> {
    const known = new Set(request.existing.map((f) => normalizeFactText(f.text)));
    const ops: FactOperation[] = [];
    for (const message of request.messages) {
      if (message.role !== "user") continue;
      let salient = false;
      for (const sentence of splitSentences(message.content)) {
        const cue = isSalient(sentence);
        if (!cue.salient) continue;
        salient = true;
        const text = sentence.slice(0, MAX_TEXT_CHARS);
        if (known.has(normalizeFactText(text))) {
          ops.push({ op: "skip", text });
          continue;
        }
        known.add(normalizeFactText(text));
        ops.push({ op: "add", text, type: cue.type, importance: cue.importance });
      }
      if (!salient && message.content.trim()) ops.push({ op: "skip", text: message.content.trim().slice(0, MAX_TEXT_CHARS) });
    }
    return ops;
  }
}
