/**
 * @module The scripted conversation of bench/learning-llm.ts: one user's 36 lines over two sessions
 * (filler, facts, questions to the assistant, refinements and contradictions), each non-filler line
 * with the decisions the scripted model answers its extraction call with.
 */
import type { Decision } from "./scripted-llm.ts";

/** One user line, filler or not, and the decisions the scripted model answers its extraction call with. */
export type Line = { text: string; filler?: true; decisions?: Decision[] };

const add = (text: string, type = "fact", importance = 0.8): Decision => ({ op: "add", text, type, importance });
const update = (target: string, text: string, type = "fact", importance = 0.8): Decision => ({
  op: "update",
  target,
  text,
  type,
  importance,
});
const supersede = (target: string, text: string, type = "fact", importance = 0.8): Decision => ({
  op: "supersede",
  target,
  text,
  type,
  importance,
});
const NONE: Decision[] = [{ op: "none" }];
const filler = (text: string): Line => ({ text, filler: true });

const F = {
  name: "The user's name is Ada Park.",
  nurse: "The user works as a nurse.",
  mia: "The user's sister Mia lives in Lisbon and works as an architect.",
  miaLead: "The user's sister Mia lives in Lisbon and is now a lead architect.",
  biscuit: "The user adopted a rescue greyhound called Biscuit in October 2026.",
  biscuitStorms: "The user's rescue greyhound Biscuit, adopted in October 2026, is afraid of thunderstorms.",
  dentist: "用户的丈夫是牙医。",
  karim: "The user's husband Karim is a paramedic who works nights.",
  leeds: "The user lives in Leeds, near the university.",
  manchester: "The user lives in Manchester (moved in late November 2026).",
  veg: "The user is vegetarian.",
  fish: "The user is pescatarian: no meat, but eats fish.",
  cat: "用户家的猫叫团子，三岁。",
  fastapi: "The user's team switched its backend from Django to FastAPI.",
  shenzhen: "用户的妹妹在深圳当小学老师。",
  penicillin: "The user is allergic to penicillin.",
  tokyo: "The user flies to Tokyo on 14 March 2027.",
  tokyo21: "The user flies to Tokyo on 21 March 2027.",
  cello: "The user started learning the cello in December 2026.",
  anniversary: "The user and Karim celebrate their tenth wedding anniversary in June 2027.",
};

/** The conversation: two sessions of one user, in English and Chinese. */
export const SESSIONS: Line[][] = [
  [
    filler("Hi!"),
    { text: "My name is Ada Park and I work as a nurse.", decisions: [add(F.name, "fact", 0.9), add(F.nurse, "fact", 0.8)] },
    filler("ok"),
    { text: "My sister Mia lives in Lisbon and works as an architect.", decisions: [add(F.mia, "fact", 0.9)] },
    filler("thanks!"),
    { text: "We adopted a rescue greyhound called Biscuit last month.", decisions: [add(F.biscuit, "fact", 0.8)] },
    { text: "Can you recommend a podcast about history?", decisions: NONE },
    filler("👍"),
    { text: "我老公是做牙医的。", decisions: [add(F.dentist, "fact", 0.9)] },
    { text: "I live in Leeds, near the university.", decisions: [add(F.leeds, "fact", 0.9)] },
    filler("好的"),
    { text: "Mia just got promoted to lead architect.", decisions: [update(F.mia, F.miaLead, "fact", 0.9)] },
    { text: "What's a good name for a sourdough starter?", decisions: NONE },
    filler("cool"),
    { text: "I'm vegetarian.", decisions: [add(F.veg, "preference", 0.8)] },
    { text: "我们家的猫叫团子，三岁了。", decisions: [add(F.cat, "fact", 0.8)] },
    { text: "Our team switched the backend from Django to FastAPI.", decisions: [add(F.fastapi, "context", 0.5)] },
    filler("thank you"),
  ],
  [
    filler("hello"),
    { text: "I moved to Manchester last week.", decisions: [supersede(F.leeds, F.manchester, "fact", 0.9)] },
    filler("ok thanks"),
    { text: "I'm not vegetarian anymore, I eat fish now.", decisions: [supersede(F.veg, F.fish, "preference", 0.8)] },
    { text: "我妹妹在深圳当小学老师。", decisions: [add(F.shenzhen, "fact", 0.9)] },
    filler("🙂"),
    { text: "I'm allergic to penicillin.", decisions: [add(F.penicillin, "fact", 0.9)] },
    { text: "How long should I boil an egg?", decisions: NONE },
    { text: "Biscuit is afraid of thunderstorms.", decisions: [update(F.biscuit, F.biscuitStorms, "fact", 0.8)] },
    filler("sure"),
    { text: "My husband Karim works nights as a paramedic.", decisions: [supersede(F.dentist, F.karim, "fact", 0.9)] },
    { text: "We're flying to Tokyo on 14 March.", decisions: [add(F.tokyo, "temporary", 0.6)] },
    filler("great"),
    { text: "I started learning the cello.", decisions: [add(F.cello, "experience", 0.6)] },
    { text: "Remind me what a Dutch oven is?", decisions: NONE },
    filler("bye!"),
    { text: "Our Tokyo trip moved to 21 March.", decisions: [update(F.tokyo, F.tokyo21, "temporary", 0.6)] },
    { text: "Karim and I are celebrating our tenth anniversary in June.", decisions: [add(F.anniversary, "experience", 0.7)] },
  ],
];
