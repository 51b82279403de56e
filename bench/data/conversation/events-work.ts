/** @module The long conversation's life events about work and study (see events.ts), written by hand. */
import type { ConversationEvent } from "./event.ts";

export const WORK_EVENTS: readonly ConversationEvent[] = [
  {
    key: "promotion",
    turn: "Big news: I got promoted to team lead on the data platform group.",
    questions: [
      ["When was I promoted?", "turn", "when"],
      ["What is my current position at work?", "turn"],
    ],
  },
  {
    key: "spanish",
    turn: "I've started learning Spanish with an app, twenty minutes every evening.",
    later: "Had my first conversation with a native speaker in Spanish today and mostly understood her.",
    questions: [
      ["Which language am I studying?", "turn"],
      ["How is my Spanish going?", "later"],
      ["How do I practise Spanish and has it paid off?", "both"],
    ],
  },
  {
    key: "certification",
    turn: "Passed the AWS solutions architect exam on the first try.",
    questions: [
      ["Which certification did I earn?", "turn"],
      ["When did I pass the cloud exam?", "turn", "when"],
    ],
  },
  {
    key: "job_offer",
    turn: "A startup in Berlin offered me a job, but I turned it down.",
    questions: [
      ["Did I get any job offers?", "turn"],
      ["Which city was the rejected offer from?", "turn"],
    ],
  },
  {
    key: "boss_leaving",
    turn: "My manager Sofia announced she's leaving the company in March.",
    questions: [
      ["Who is my boss leaving?", "turn"],
      ["When is Sofia's last month?", "turn"],
    ],
  },
  {
    key: "sabbatical",
    turn: "I asked for a three-month sabbatical next year to travel South America.",
    questions: [
      ["Am I planning time off work?", "turn"],
      ["Which continent do I want to explore on my break?", "turn"],
    ],
  },
];
