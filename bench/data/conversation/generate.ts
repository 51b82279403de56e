/** Writes bench/data/conversation/conversation.json (`npx tsx bench/data/conversation/generate.ts`). */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildConversation, serializeConversation } from "./build.ts";

const c = buildConversation();
const target = fileURLToPath(new URL("./conversation.json", import.meta.url));
writeFileSync(target, serializeConversation(c));
const events = c.questions.filter((q) => q.evidence.length === 2).length;
console.log(
  `wrote ${target}: ${c.turns.length} turns, ${c.questions.length} questions (${events} with two turns of evidence, ${c.questions.filter((q) => q.when).length} asking when)`,
);
