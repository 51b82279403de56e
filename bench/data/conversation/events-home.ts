/** @module The long conversation's life events about home, pets, belongings and money (see events.ts), written by hand. */
import type { ConversationEvent } from "./event.ts";

export const HOME_EVENTS: readonly ConversationEvent[] = [
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
    key: "garden",
    turn: "Planted tomatoes, basil and chillies on the balcony.",
    later: "First harvest from the balcony: a bowl of cherry tomatoes.",
    questions: [
      ["What vegetables am I growing?", "turn"],
      ["Have I harvested anything yet?", "later"],
      ["What is on my balcony and has it produced anything?", "both"],
    ],
  },
  { key: "tax", turn: "Finally filed my tax return, I get 640 euros back.", questions: [["How big is my tax refund?", "turn"]] },
  {
    key: "coffee_machine",
    turn: "Treated myself to an espresso machine, no more café runs.",
    questions: [["What appliance did I buy?", "turn"]],
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
];
