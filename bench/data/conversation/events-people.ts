/** @module The long conversation's life events about family, friends and neighbours (see events.ts), written by hand. */
import type { ConversationEvent } from "./event.ts";

export const PEOPLE_EVENTS: readonly ConversationEvent[] = [
  {
    key: "sister_baby",
    turn: "My sister Hannah had her baby, a little boy called Theo.",
    questions: [
      ["What is my nephew's name?", "turn"],
      ["When did Hannah give birth?", "turn", "when"],
    ],
  },
  {
    key: "grandma",
    turn: "My grandmother turned ninety and the whole family had lunch together.",
    questions: [
      ["How old is my grandma?", "turn"],
      ["When was grandma's ninetieth birthday?", "turn", "when"],
    ],
  },
  {
    key: "wedding",
    turn: "My best friend Priya got married in Goa, the ceremony lasted three days.",
    questions: [
      ["Whose wedding did I attend?", "turn"],
      ["Where did Priya get married?", "turn"],
    ],
  },
  {
    key: "parents_anniversary",
    turn: "Mum and Dad celebrated their fortieth anniversary with a trip to Vienna.",
    questions: [
      ["Where did my parents travel for their anniversary?", "turn"],
      ["How long have my parents been married?", "turn"],
    ],
  },
  {
    key: "neighbour",
    turn: "The new neighbour upstairs plays drums until midnight.",
    later: "Talked to the drummer upstairs, he agreed to stop playing after ten.",
    questions: [
      ["Why have I been losing sleep at home?", "turn"],
      ["Did I sort out the noise problem with my neighbour?", "later"],
      ["What is the story with the drummer who lives above me?", "both"],
    ],
  },
  {
    key: "brother_move",
    turn: "My brother Jonas is moving to Melbourne for a research job.",
    questions: [
      ["Where is Jonas relocating?", "turn"],
      ["Why is my brother going to Australia?", "turn"],
    ],
  },
  {
    key: "friend_visit",
    turn: "Akiko is visiting from Osaka for two weeks and staying on our sofa.",
    questions: [
      ["Who is staying at our place?", "turn"],
      ["Where does Akiko live?", "turn"],
    ],
  },
  {
    key: "surprise_party",
    turn: "We threw a surprise party for Daniel's thirtieth and he actually cried.",
    questions: [
      ["Whose birthday party did we organise?", "turn"],
      ["How old did Daniel turn?", "turn"],
    ],
  },
  {
    key: "sister_job",
    turn: "Hannah is going back to work as an architect after parental leave.",
    questions: [["What does my sister do for a living?", "turn"]],
  },
  {
    key: "piano_recital",
    turn: "Watched my niece Clara play her first piano recital.",
    questions: [["What instrument does Clara play?", "turn"]],
  },
];
