/** @module The long conversation's life events about hobbies, sport, outings and trips (see events.ts), written by hand. */
import type { ConversationEvent } from "./event.ts";

export const PASTIME_EVENTS: readonly ConversationEvent[] = [
  {
    key: "pottery",
    turn: "I went to my first pottery class yesterday and made a lopsided bowl.",
    questions: [
      ["When did I start taking pottery lessons?", "turn", "when"],
      ["What did I make in ceramics class?", "turn"],
    ],
  },
  {
    key: "marathon_signup",
    turn: "I signed up for the Lisbon half marathon in October.",
    later: "Finished the Lisbon half in 1:58, legs are destroyed.",
    questions: [
      ["Which race did I register for?", "turn"],
      ["What was my finishing time in Portugal?", "later"],
      ["Which race did I enter and how fast did I run it?", "both"],
    ],
  },
  {
    key: "guitar",
    turn: "Bought a second-hand acoustic guitar and I'm learning chords from videos.",
    questions: [
      ["What instrument did I pick up?", "turn"],
      ["When did I buy the guitar?", "turn", "when"],
    ],
  },
  {
    key: "hiking_trip",
    turn: "Spent the weekend hiking in the Dolomites with Marco and Lucia.",
    questions: [
      ["Where did I go hiking?", "turn"],
      ["Who came with me to the mountains?", "turn"],
      ["When was the trip to the Dolomites?", "turn", "when"],
    ],
  },
  {
    key: "book_club",
    turn: "Joined a book club at the library; this month we're reading Piranesi.",
    questions: [
      ["Which book is my reading group discussing?", "turn"],
      ["Am I part of any clubs?", "turn"],
    ],
  },
  {
    key: "sourdough",
    turn: "I baked my first sourdough loaf; the crust was great but the inside was dense.",
    questions: [["How did my bread turn out?", "turn"]],
  },
  {
    key: "concert",
    turn: "Saw Radiohead live at the arena, best concert of my life.",
    questions: [
      ["Which band did I see in concert?", "turn"],
      ["When did I see Radiohead?", "turn", "when"],
    ],
  },
  {
    key: "volunteer",
    turn: "Volunteered at the food bank on Saturday sorting donations.",
    questions: [["Do I do any charity work?", "turn"]],
  },
  {
    key: "salsa",
    turn: "Tried a salsa dancing class with Elena, I stepped on her feet all night.",
    questions: [
      ["What kind of dancing did I try?", "turn"],
      ["Who did I take a dance class with?", "turn"],
    ],
  },
  {
    key: "podcast",
    turn: "I recorded the first episode of my podcast about urban cycling.",
    questions: [
      ["What is my podcast about?", "turn"],
      ["When did I record the first episode?", "turn", "when"],
    ],
  },
  { key: "knitting", turn: "Knitted my first scarf, it's wonky but warm.", questions: [["What did I knit?", "turn"]] },
  {
    key: "chess",
    turn: "Won my first rated chess tournament game at the club tonight.",
    questions: [
      ["How did I do at the chess tournament?", "turn"],
      ["When did I win a rated game?", "turn", "when"],
    ],
  },
  {
    key: "camping",
    turn: "Went wild camping by Loch Lomond, it rained the whole night.",
    questions: [
      ["Where did I camp?", "turn"],
      ["When was the camping trip in Scotland?", "turn", "when"],
    ],
  },
  {
    key: "swim",
    turn: "Swam a full kilometre without stopping for the first time.",
    questions: [
      ["How far can I swim now?", "turn"],
      ["When did I first swim a kilometre?", "turn", "when"],
    ],
  },
  {
    key: "photo_exhibit",
    turn: "Three of my street photos got into a group exhibition at a gallery in Leith.",
    questions: [
      ["Were any of my photographs exhibited?", "turn"],
      ["Where is the gallery showing my pictures?", "turn"],
    ],
  },
  {
    key: "japan_plan",
    turn: "We booked flights to Tokyo for cherry blossom season.",
    questions: [
      ["Where are we travelling in spring?", "turn"],
      ["When did we book the Japan trip?", "turn", "when"],
    ],
  },
  {
    key: "marathon_training",
    turn: "Did a 30 kilometre long run in the rain, hardest training day so far.",
    questions: [["What was my longest training run?", "turn"]],
  },
];
