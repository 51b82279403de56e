/** @module The first half of the long conversation's life events (see events.ts), written by hand. */
import type { ConversationEvent } from "./events.ts";

export const EVENTS_PART_1: readonly ConversationEvent[] = [
  {
    key: "pottery",
    turn: "I went to my first pottery class yesterday and made a lopsided bowl.",
    questions: [
      ["When did I start taking pottery lessons?", "turn", "when"],
      ["What did I make in ceramics class?", "turn"],
    ],
  },
  {
    key: "cat",
    turn: "We adopted a grey kitten from the shelter and named her Mochi.",
    later: "Mochi knocked my favourite mug off the shelf this morning and it shattered.",
    questions: [
      ["What is my cat called?", "turn"],
      ["What did my pet break?", "later"],
      ["When did we get Mochi and what has she broken since?", "both"],
    ],
  },
  {
    key: "promotion",
    turn: "Big news: I got promoted to team lead on the data platform group.",
    questions: [
      ["When was I promoted?", "turn", "when"],
      ["What is my current position at work?", "turn"],
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
    key: "sister_baby",
    turn: "My sister Hannah had her baby, a little boy called Theo.",
    questions: [
      ["What is my nephew's name?", "turn"],
      ["When did Hannah give birth?", "turn", "when"],
    ],
  },
  {
    key: "car_accident",
    turn: "Someone rear-ended me at a red light; nobody was hurt but the bumper is ruined.",
    questions: [
      ["Was I in a car crash?", "turn"],
      ["When did my car get damaged?", "turn", "when"],
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
    key: "dentist",
    turn: "Had a root canal at the dentist, my jaw still aches.",
    questions: [
      ["What dental work did I have done?", "turn"],
      ["When was my root canal?", "turn", "when"],
    ],
  },
  {
    key: "apartment",
    turn: "We signed the lease for a two-bedroom flat near the river.",
    later: "Moving day went fine, the boxes are finally unpacked in the new flat.",
    questions: [
      ["Did we find a new place to live?", "turn"],
      ["When did we move house?", "later", "when"],
      ["What kind of home did we rent and is the move done?", "both"],
    ],
  },
  {
    key: "vegan",
    turn: "I'm trying a plant-based diet for a month to see how I feel.",
    questions: [["What diet am I experimenting with?", "turn"]],
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
    key: "grandma",
    turn: "My grandmother turned ninety and the whole family had lunch together.",
    questions: [
      ["How old is my grandma?", "turn"],
      ["When was grandma's ninetieth birthday?", "turn", "when"],
    ],
  },
  {
    key: "laptop",
    turn: "Spilled coffee on my laptop, the keyboard is dead.",
    later: "Got the laptop back from repair, they replaced the whole keyboard for 180 euros.",
    questions: [
      ["What happened to my computer?", "turn"],
      ["How much did the keyboard repair cost?", "later"],
      ["What went wrong with my laptop and how was it fixed?", "both"],
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
    key: "flu",
    turn: "Came down with the flu, fever of 39 and stuck in bed.",
    questions: [["When was I sick with a fever?", "turn", "when"]],
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
    key: "wedding",
    turn: "My best friend Priya got married in Goa, the ceremony lasted three days.",
    questions: [
      ["Whose wedding did I attend?", "turn"],
      ["Where did Priya get married?", "turn"],
    ],
  },
  {
    key: "bike_stolen",
    turn: "My bike got stolen from outside the gym.",
    later: "Bought a cheap used road bike to replace the stolen one.",
    questions: [
      ["What happened to my bicycle?", "turn"],
      ["Did I replace my bike?", "later"],
      ["Where was my bicycle taken from and what do I ride now?", "both"],
    ],
  },
  {
    key: "sourdough",
    turn: "I baked my first sourdough loaf; the crust was great but the inside was dense.",
    questions: [["How did my bread turn out?", "turn"]],
  },
  {
    key: "therapy",
    turn: "I started seeing a therapist every other Thursday for my anxiety.",
    questions: [
      ["How often do I see my therapist?", "turn"],
      ["What am I getting help for?", "turn"],
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
    key: "ski",
    turn: "Broke my wrist skiing in Austria, it's in a cast for six weeks.",
    questions: [
      ["How did I injure my arm?", "turn"],
      ["When did I break my wrist?", "turn", "when"],
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
];
