/** @module The second half of the long conversation's life events (see events.ts), written by hand. */
import type { ConversationEvent } from "./events.ts";

export const EVENTS_PART_2: readonly ConversationEvent[] = [
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
    key: "garden",
    turn: "Planted tomatoes, basil and chillies on the balcony.",
    later: "First harvest from the balcony: a bowl of cherry tomatoes.",
    questions: [
      ["What vegetables am I growing?", "turn"],
      ["Have I harvested anything yet?", "later"],
      ["What is on my balcony and has it produced anything?", "both"],
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
    key: "glasses",
    turn: "The optician says I need glasses for driving now.",
    questions: [
      ["Do I need spectacles?", "turn"],
      ["When did I get my eyes tested?", "turn", "when"],
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
    key: "salsa",
    turn: "Tried a salsa dancing class with Elena, I stepped on her feet all night.",
    questions: [
      ["What kind of dancing did I try?", "turn"],
      ["Who did I take a dance class with?", "turn"],
    ],
  },
  {
    key: "allergy_test",
    turn: "The allergy test came back: I'm allergic to birch pollen and cats.",
    questions: [
      ["What am I allergic to?", "turn"],
      ["When did I get the results of my allergy test?", "turn", "when"],
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
  { key: "tax", turn: "Finally filed my tax return, I get 640 euros back.", questions: [["How big is my tax refund?", "turn"]] },
  {
    key: "friend_visit",
    turn: "Akiko is visiting from Osaka for two weeks and staying on our sofa.",
    questions: [
      ["Who is staying at our place?", "turn"],
      ["Where does Akiko live?", "turn"],
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
    key: "boss_leaving",
    turn: "My manager Sofia announced she's leaving the company in March.",
    questions: [
      ["Who is my boss leaving?", "turn"],
      ["When is Sofia's last month?", "turn"],
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
  { key: "insomnia", turn: "I've been waking up at 4am every night this week.", questions: [["Have I been sleeping badly?", "turn"]] },
  {
    key: "camping",
    turn: "Went wild camping by Loch Lomond, it rained the whole night.",
    questions: [
      ["Where did I camp?", "turn"],
      ["When was the camping trip in Scotland?", "turn", "when"],
    ],
  },
  {
    key: "coffee_machine",
    turn: "Treated myself to an espresso machine, no more café runs.",
    questions: [["What appliance did I buy?", "turn"]],
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
    key: "sister_job",
    turn: "Hannah is going back to work as an architect after parental leave.",
    questions: [["What does my sister do for a living?", "turn"]],
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
    key: "lost_wallet",
    turn: "Lost my wallet on the tram, had to cancel all my cards.",
    later: "Someone handed my wallet in at the tram depot, cash gone but the ID is there.",
    questions: [
      ["What did I lose on public transport?", "turn"],
      ["Did my wallet turn up again?", "later"],
      ["What happened with the wallet I lost?", "both"],
    ],
  },
  {
    key: "piano_recital",
    turn: "Watched my niece Clara play her first piano recital.",
    questions: [["What instrument does Clara play?", "turn"]],
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
    key: "sabbatical",
    turn: "I asked for a three-month sabbatical next year to travel South America.",
    questions: [
      ["Am I planning time off work?", "turn"],
      ["Which continent do I want to explore on my break?", "turn"],
    ],
  },
  {
    key: "marathon_training",
    turn: "Did a 30 kilometre long run in the rain, hardest training day so far.",
    questions: [["What was my longest training run?", "turn"]],
  },
];
