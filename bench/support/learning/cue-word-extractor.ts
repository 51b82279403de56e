/**
 * The baseline of the learning benchmark: the cue-word extraction the offline learner replaced,
 * kept as it was (each user sentence a salience cue marks is stored as said; no supersession).
 */
import { normalizeFactText } from "../../../src/memory/facts/identity.ts";
import type { FactExtractor, FactOperation } from "../../../src/memory/ports/llm.ts";
import { isSalient, splitSentences } from "../../../src/memory/facts/salience.ts";
import type { Fact, StoredMessage } from "../../../src/memory/model.ts";

const MAX_TEXT_CHARS = 500;

export class CueWordExtractor implements FactExtractor {
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
