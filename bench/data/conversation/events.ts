/**
 * The life events of the long conversation: what the user says in one turn (and, for some, a later
 * turn that adds to it), and the questions those turns answer. Written by hand; the generator
 * (generate.ts) spreads them over sessions among everyday small talk.
 */

/** One event: its turn, an optional later turn, and questions answered by the turn(s) named. */
export interface ConversationEvent {
  key: string;
  turn: string;
  /** A later turn about the same thing (a second piece of evidence). */
  later?: string;
  /** [question, evidence] where evidence is "turn", "later" or "both"; `when` questions ask for a date. */
  questions: readonly (readonly [question: string, evidence: "turn" | "later" | "both", when?: "when"])[];
}

export const EVENTS: readonly ConversationEvent[] = [
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

/** Small talk between the events: templates and what fills them (seeded picks, so they repeat words). */
export const SMALL_TALK: readonly string[] = [
  "Work was {adj} today, {n} meetings back to back.",
  "The weather has been {weather} all week.",
  "Watched a couple of episodes of {show} last night, pretty {adj}.",
  "Had {food} for dinner, nothing special.",
  "Thanks, that's really helpful!",
  "Can you remind me what we talked about {time}?",
  "I'm feeling {mood} today.",
  "My friend {name} says hi.",
  "Not much going on, just {activity}.",
  "I should really go to bed earlier.",
  "Traffic on the way home was {adj}.",
  "Do you have any tips for {activity}?",
  "I'm thinking about {activity} this weekend.",
  "Had a long call with {name} about nothing in particular.",
  "The office coffee is {adj} as usual.",
  "It's {weather} again, I stayed inside.",
  "Spent the evening {activity}.",
  "Lunch was {food} at the place around the corner.",
  "I keep forgetting to reply to {name}'s messages.",
  "Can you suggest something for dinner that isn't {food}?",
  "{name} and I grabbed {food} after work, it was {adj}.",
  "Spent {part} {activity} and felt {mood} afterwards.",
  "The {weather} weather made me {mood}, so I stayed in {activity}.",
  "{name} recommended {show}, I watched it {time} and it was {adj}.",
  "Quick question: is {food} okay to eat {part}?",
];

export const FILL: Readonly<Record<string, readonly string[]>> = {
  adj: ["exhausting", "fine", "boring", "okay", "hectic", "strange", "quiet", "great"],
  n: ["three", "four", "five", "six"],
  weather: ["grey and windy", "sunny", "rainy", "freezing", "muggy"],
  show: ["a crime drama", "a cooking show", "a nature documentary", "an old sitcom"],
  food: ["pasta", "leftover curry", "a frozen pizza", "soup", "a salad", "noodles"],
  time: ["last week", "yesterday", "earlier", "the other day"],
  mood: ["tired", "pretty good", "a bit low", "restless", "cheerful"],
  name: ["Marco", "Elena", "Daniel", "Lucia", "Priya", "Tom"],
  part: ["the morning", "the afternoon", "the evening", "most of Sunday", "an hour"],
  activity: ["tidying the flat", "doing laundry", "reading", "going for a walk", "cleaning the kitchen", "scrolling my phone"],
};
