/**
 * The emulator's sentence model (dense model `USE_LITE`): readiness, speed, and how scripts meet.
 * - ready: ms from creating the Vector service to its first answer (`info`), with the model loading
 *   in the background, next to the hashing model; and ms until the model itself is loaded;
 * - speed: texts/s and CPU ms per text, batches of 1, 10 and 100 (English facts from the committed
 *   recall dataset, each batch sorted by length and cut into model batches of SENTENCE_BATCH), and
 *   a batch of texts embedded before (served by the cache of recent vectors);
 * - scripts: cosines of English-English paraphrase pairs, Chinese-Chinese pairs (related and not,
 *   with the sentence model alone for comparison: it maps every Chinese text to one vector),
 *   English-Chinese pairs, and mixed-script texts.
 *
 *   npx tsx bench/recall-model.ts
 *
 * Prints figures only.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createVectorService } from "../tools/upstash-local/vector/index.ts";
import { embedDense } from "../tools/upstash-local/vector/dense-model.ts";
import { embedSentences, sentenceModelState } from "../tools/upstash-local/vector/sentence-model.ts";
import type { Dataset } from "./data/recall/schema.ts";

const dataset = JSON.parse(readFileSync(new URL("./data/recall/dataset.json", import.meta.url), "utf8")) as Dataset;
const cos = (a: Float64Array, b: Float64Array): number => {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    d += (a[i] ?? 0) * (b[i] ?? 0);
    na += (a[i] ?? 0) ** 2;
    nb += (b[i] ?? 0) ** 2;
  }
  return na > 0 && nb > 0 ? d / Math.sqrt(na * nb) : 0;
};
const f3 = (x: number) => x.toFixed(3);
const req = {
  method: "POST",
  path: "/info",
  query: new URLSearchParams(),
  headers: { authorization: "Bearer t" },
  body: Buffer.from("[]"),
};

async function readyMs(denseModel: "HASHING_WEIGHTED" | "USE_LITE"): Promise<number> {
  const started = performance.now();
  const service = await createVectorService({ token: "t", index: { kind: "hybrid", denseModel } });
  const res = await service.handler(req);
  if (res.status !== 200) throw new Error(`info answered ${res.status}`);
  const ms = performance.now() - started;
  await service.close();
  return ms;
}

console.log("readiness (in process, hybrid index):");
console.log(`  hashing model: first answer after ${(await readyMs("HASHING_WEIGHTED")).toFixed(0)} ms`);
const t0 = performance.now();
console.log(`  sentence model: first answer after ${(await readyMs("USE_LITE")).toFixed(0)} ms (model ${sentenceModelState().status})`);
while (sentenceModelState().status === "loading") await new Promise((r) => setTimeout(r, 20));
const state = sentenceModelState();
console.log(
  `  sentence model loaded ${(performance.now() - t0).toFixed(0)} ms after the service was created (${state.status === "ready" ? `load ${state.loadMs.toFixed(0)} ms, backend ${state.backend}` : state.status})`,
);

const english = dataset.facts.filter((f) => f.language === "en").map((f) => f.text);
const texts = Array.from({ length: 400 }, (_, i) => `${english[i % english.length] ?? ""} (${i})`);
await embedSentences(texts.slice(0, 10)); // warm
console.log("\nspeed (sentence model, distinct English texts):");
for (const batch of [1, 10, 100]) {
  const n = batch === 1 ? 30 : 300;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < n; i += batch) await embedSentences(texts.slice(i, i + batch).map((t) => `${t} #${batch}`));
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  batch ${String(batch).padStart(3)}: ${(n / seconds).toFixed(0)} texts/s, ${((used.user + used.system) / 1000 / n).toFixed(1)} ms CPU per text`,
  );
}

{
  // texts embedded before (a re-sent upsert, a repeated query) come from the cache
  const again = texts.slice(0, 100).map((t) => `${t} #100`);
  const started = performance.now();
  await embedSentences(again);
  console.log(`  batch 100 embedded before: ${(100 / ((performance.now() - started) / 1000)).toFixed(0)} texts/s (cached)`);
}

const pairs = async (label: string, list: readonly (readonly [string, string])[]) => {
  const a = await embedDense(
    "USE_LITE",
    list.map((p) => p[0]),
    1024,
  );
  const b = await embedDense(
    "USE_LITE",
    list.map((p) => p[1]),
    1024,
  );
  const alone = [await embedSentences(list.map((p) => p[0])), await embedSentences(list.map((p) => p[1]))];
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const combined = list.map((_, i) => cos(a[i]!, b[i]!));
  const sentence = list.map((_, i) => cos(alone[0]![i]!, alone[1]![i]!));
  console.log(
    `  ${label.padEnd(44)} USE_LITE index vector ${f3(mean(combined))} (min ${f3(Math.min(...combined))}, max ${f3(Math.max(...combined))}); sentence model alone ${f3(mean(sentence))}`,
  );
};
console.log("\nscripts (mean cosine of the pairs):");
await pairs("English paraphrases", [
  ["What pet do I have?", "I adopted a golden retriever last spring"],
  ["What do I do for a living?", "I work as a nurse in Porto."],
  ["Which relative is in Canada?", "My brother lives in Toronto"],
]);
await pairs("English, unrelated", [
  ["Give me a haiku about autumn leaves", "My brother lives in Toronto"],
  ["How do I undo the last git commit?", "I work as a nurse in Porto."],
  ["What is the capital of Peru?", "I adopted a golden retriever last spring"],
]);
await pairs("Chinese, related", [
  ["用户叫什么名字", "我叫小明，喜欢蓝色"],
  ["我住在哪里", "我住在上海浦东"],
  ["我对什么过敏", "我对花生过敏"],
]);
await pairs("Chinese, unrelated", [
  ["今天天气怎么样", "我叫小明，喜欢蓝色"],
  ["推荐一部好看的电影", "我住在上海浦东"],
  ["怎么做红烧肉", "我对花生过敏"],
]);
await pairs("English query, Chinese memory (same meaning)", [
  ["What is my name?", "我叫小明"],
  ["Where do I live?", "我住在上海浦东"],
]);
await pairs("mixed-script memory, English query", [
  ["Who supervises my thesis?", "My supervisor is 王老师, we meet every Tuesday"],
  ["What do I miss eating?", "最想念的是南京的鸭血粉丝汤, my favourite soup"],
]);
await pairs("mixed-script memory, Chinese query", [
  ["我的导师是谁", "My supervisor is 王老师, we meet every Tuesday"],
  ["我最想念什么", "最想念的是南京的鸭血粉丝汤, my favourite soup"],
]);
