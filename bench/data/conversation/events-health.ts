/** @module The long conversation's life events about health, injuries and diet (see events.ts), written by hand. */
import type { ConversationEvent } from "./event.ts";

export const HEALTH_EVENTS: readonly ConversationEvent[] = [
  {
    key: "car_accident",
    turn: "Someone rear-ended me at a red light; nobody was hurt but the bumper is ruined.",
    questions: [
      ["Was I in a car crash?", "turn"],
      ["When did my car get damaged?", "turn", "when"],
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
    key: "vegan",
    turn: "I'm trying a plant-based diet for a month to see how I feel.",
    questions: [["What diet am I experimenting with?", "turn"]],
  },
  {
    key: "flu",
    turn: "Came down with the flu, fever of 39 and stuck in bed.",
    questions: [["When was I sick with a fever?", "turn", "when"]],
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
    key: "ski",
    turn: "Broke my wrist skiing in Austria, it's in a cast for six weeks.",
    questions: [
      ["How did I injure my arm?", "turn"],
      ["When did I break my wrist?", "turn", "when"],
    ],
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
    key: "allergy_test",
    turn: "The allergy test came back: I'm allergic to birch pollen and cats.",
    questions: [
      ["What am I allergic to?", "turn"],
      ["When did I get the results of my allergy test?", "turn", "when"],
    ],
  },
  { key: "insomnia", turn: "I've been waking up at 4am every night this week.", questions: [["Have I been sleeping badly?", "turn"]] },
];
