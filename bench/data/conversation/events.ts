/**
 * @module The life events of the long conversation: what the user says in one turn (and, for some, a
 * later turn that adds to it), and the questions those turns answer, one file per subject. Written by
 * hand; the generator (generate.ts) spreads them over sessions among everyday small talk.
 */
import type { ConversationEvent } from "./event.ts";
import { HEALTH_EVENTS } from "./events-health.ts";
import { HOME_EVENTS } from "./events-home.ts";
import { PASTIME_EVENTS } from "./events-pastimes.ts";
import { PEOPLE_EVENTS } from "./events-people.ts";
import { WORK_EVENTS } from "./events-work.ts";

export type { ConversationEvent } from "./event.ts";

/** The order the generator places the events in: conversation.json follows it, so a change rewrites the file. */
const ORDER: readonly string[] = [
  "pottery",
  "cat",
  "promotion",
  "marathon_signup",
  "sister_baby",
  "car_accident",
  "spanish",
  "dentist",
  "apartment",
  "vegan",
  "guitar",
  "grandma",
  "laptop",
  "hiking_trip",
  "flu",
  "book_club",
  "wedding",
  "bike_stolen",
  "sourdough",
  "therapy",
  "parents_anniversary",
  "ski",
  "certification",
  "neighbour",
  "garden",
  "job_offer",
  "concert",
  "volunteer",
  "glasses",
  "brother_move",
  "salsa",
  "allergy_test",
  "podcast",
  "tax",
  "friend_visit",
  "knitting",
  "chess",
  "boss_leaving",
  "surprise_party",
  "insomnia",
  "camping",
  "coffee_machine",
  "swim",
  "sister_job",
  "photo_exhibit",
  "lost_wallet",
  "piano_recital",
  "japan_plan",
  "sabbatical",
  "marathon_training",
];

const byKey = new Map([...WORK_EVENTS, ...PEOPLE_EVENTS, ...HEALTH_EVENTS, ...HOME_EVENTS, ...PASTIME_EVENTS].map((e) => [e.key, e]));
if (byKey.size !== ORDER.length) throw new Error("ORDER must place every conversation event once");

/** Every event, in the order the generator places them. */
export const EVENTS: readonly ConversationEvent[] = ORDER.map((key) => {
  const event = byKey.get(key);
  if (!event) throw new Error(`no conversation event ${key}`);
  return event;
});
