/**
 * @module What makes an English clause a fact the offline learner can be sure of. Two gates: one on
 * the clause as said (`englishNoise`: kinds of clauses that teach nothing however they are phrased -
 * reactions, agreement, farewells, talk about the conversation, anything addressed to the other
 * person, "we" that includes the listener, a subject that is not the user, an unresolved "it",
 * "that", "they"), one on its canonical form (`englishFactKind`: the kinds of fact the learner
 * writes - a relation it can key, the user's relatives and pets, who the user is, what they own, a
 * dated or life event, a plan, a habit, a favourite). What passes neither is left to the episodes
 * (the user's messages kept verbatim). Patterns are matched against lower-cased text without the
 * `i` flag (see english.ts).
 */
import { relationKey } from "./relation-key.ts";
import { RELATIVE_WORDS } from "./relation-vocabulary.ts";

/** Relatives, pets and groups, singular and plural, beyond the ones a key names. */
const PEOPLE = `${RELATIVE_WORDS}|sisters|brothers|parents|siblings|sons|daughters|friends|colleagues|coworkers|co-workers|teammates|grandparents|grandkids|grandchildren|cousins?|aunts?|uncles?|nieces?|nephews?|in-laws|students|classmates|dogs|cats|pets|puppies|kittens|turtles?|hamsters?|parrots?|birds?|fish|horses?|people|folks|everyone|kids|babies|baby|twins|wife|husband|spouse|partner|fiance|fiancee|boyfriend|girlfriend|bf|gf|mom|mum|dad|mother|father|grandma|grandpa`;

/** Words that may stand between a subject and its verb. */
const ADVERB =
  "(?:just|also|still|really|actually|finally|recently|now|currently|already|always|usually|often|sometimes|never|even|only|both|all|first|last|then|once|ever|soon|definitely|totally|truly|officially|mostly|generally|normally|rarely|seldom|mainly|primarily|absolutely|kinda|sorta|[a-z]{3,}ly)";

// ---- the clause as said -------------------------------------------------------------------------

/** "you", "your", ... : a clause addressed to the other person (advice, invitations, thanks, compliments) is about them. */
const SECOND_PERSON = /\b(?:you|your|yours|yourself|yourselves|ya|y'all|u(?!\.))\b/;
/** Fillers that contain "you" without addressing anyone. */
const YOU_FILLERS = /(?:^|,)\s*(?:you know|you see|ya know|mind you)\s*(?=,|$)|\bthank you\b/g;

const SUBJECT = "(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll|my|our|mine)";
/** A time or sentence adverbial before the subject ("Last week I ...", "In 2019, I ...", "Yesterday I ..."). */
const LEAD =
  "(?:(?:yesterday|today|tonight|tomorrow|recently|lately|finally|eventually|now|then|once|later|earlier|sometimes|usually|often|also|still|actually|luckily|fortunately|unfortunately|sadly|thankfully|honestly|basically|currently|nowadays|these days|the other day|(?:last|this|next|every|each) [a-z]+|(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|\\d{1,2}) [a-z]+ ago|(?:in|back in|since|during|over|on|at|after|before|when|while|growing up|as a) [^,;]{1,40}?)(?:,\\s*|\\s+))";
/** The clause speaks about the user: its subject is "I", "we", "my ...", "our ...", "X and I" or "X is my <relative>"/"X is my favourite". */
const USER_SUBJECT = new RegExp(
  `^(?:${LEAD})?(?:${SUBJECT}\\b|(?:(?:my|our) [a-z-]+(?: [a-z'-]+)?|[a-z][a-z'-]+) and i\\b|[a-z][a-z'-]*(?: [a-z][a-z'-]*)? (?:is|was) my (?:[a-z-]+ )?(?:${RELATIVE_WORDS})$|[^,;]{2,60}? (?:is|are) (?:one of )?my (?:all-time |absolute )?favou?rites?\\b)`,
);

const DEGREE =
  "(?:so|really|very|super|just|totally|kinda|kind of|sort of|a bit|a little|pretty|quite|truly|extremely|incredibly|absolutely|also|too|still|now|always|honestly|genuinely|deeply|especially|particularly|beyond|all|more than|feeling|getting|not|never|as|even|ever|already|finally|definitely|seriously|actually|literally|currently|lately|recently|sooo+|soo|real|mega|hella)";
const FEELING =
  "(?:happy|glad|excited|thrilled|stoked|pumped|psyched|hyped|proud|grateful|thankful|sorry|sad|upset|bummed|nervous|scared|afraid|terrified|worried|anxious|stressed|overwhelmed|relieved|touched|moved|honou?red|blessed|lucky|fortunate|inspired|impressed|amazed|blown away|curious|sure|certain|confident|positive|optimistic|hopeful|eager|keen to|looking forward|bored|tired|exhausted|busy|swamped|fine|good|great|ok|okay|well|alright|down|jealous|envious|surprised|shocked|speechless|flattered|humbled|delighted|ecstatic|overjoyed|in awe|determined|motivated|ready|there for|here for|on board|up for|down for|all for|thinking|wondering|unsure|cool with|fine with|into it|in love with|obsessed|hooked|loving|enjoying|digging|glad to|happy to|going to make|about to|feeling|remembering|reminiscing)";
/** Words that end a clause of agreement or presence ("I'm in!", "I am as well", "I really do"). */
const ELLIPTIC =
  "(?:do|did|does|have|had|has|will|would|can|could|should|must|might|may|am|was|were|are|is|too|as well|so|not|though|indeed|either|neither|here|back|in|out|off|done|game|same|right|wrong|kidding|joking|serious|late|away|ready|now|again|then|lol|haha)";
/** Reactions, agreement, wishes, feelings of the moment and farewells, with the user as subject. */
const REACTION = new RegExp(
  [
    // "I'm so happy for ...", "We were thrilled", "I feel great", "I've been so busy"
    `^(?:i|we)(?:'m| am|'re| are| was| were|'ve been| have been|'ll be| will be| feel| felt| get| got| stay| keep| remain)(?: ${DEGREE})* ${FEELING}\\b(?!(?<=(?:good|great|bad|terrible|awesome|amazing|okay|ok|fine)) at\\b)`,
    // "I appreciate ...", "I totally agree", "I can't wait ...", "I hope ...", "I love that ..."
    `^(?:i|we)(?: ${DEGREE})* (?:feel|felt|appreciate|admire|respect|agree|disagree|relate|understand|know|knew|bet|guess|suppose|hope|wish|believe|think|thought|mean|meant|promise|must say|have to say|gotta say|can imagine|can't imagine|cannot imagine|can only imagine|can see|could see|can tell|miss|owe|love hearing|love seeing|loved hearing|loved seeing|love that|love how|love it|love this|love the idea|like that|like how|like the idea|can't wait|cannot wait|couldn't agree|could not agree|can't believe|cannot believe|couldn't be|could not be|second that|concur|doubt|wonder|wondered|figured|reckon|trust|noticed|realized|realised|remember when|hate to|hate that|would love|would like that|would be happy|would be glad|will let|will keep|will try|will do|will make it|will get back|have to go|got to go|gotta go|gotta run|got this|got it|did it|made it)\\b`,
    // "I'd love to ...", "I'll let you know", "I'll try"
    `^(?:i|we)(?:'d|'ll)(?: ${DEGREE})* (?:love|like that|be happy|be glad|let|keep|try|do|make it|get back|be there|be right back)\\b`,
    // "I am as well", "I really do", "I'm in!", "I did too"
    `^(?:i|we)(?:'m|'ve|'d|'ll|'re)?(?: (?:${DEGREE}|${ELLIPTIC}))*$`,
    // "I'm off" (a farewell), "I've got to go"
    `^(?:i|we)(?:'m| am|'ve| have)(?: got)? (?:off|heading (?:out|off)|got to go|gotta go|to go)$`,
  ].join("|"),
);
/** "We" that takes in the listener or everyone: "we all", "each other", "together", "we can/should ...". */
const INCLUSIVE_WE =
  /^(?:[a-z ,]*\b)?we (?:(?:actually|first|just|finally|both|all|eventually|quickly) )*(?:met|became friends|got to know each other|hit it off|bonded|clicked)\b|\b(?:we all|we both|all of us|both of us|each other|one another|together|with each other|we can|we could|we should|we need to|we must|we have to|we've got to|we gotta|we're all|we are all|us all|us both|let us|let's|lets)\b/;
/** Talk about the conversation itself ("we last chatted", "we talk about the weather, travel and food"). */
const TALK =
  /(?<!(?:where|which|that) )\b(?:i|we)(?:'ve| have| had| haven't| hadn't| didn't| don't| are|'re| were| was| am|'m| will|'ll| can| could| should)?(?: (?:just|last|already|often|always|never|been|to|also|really|so|finally))* (?:talk(?:ed|ing|s)?|chat(?:ted|ting|s)?|spoke|speak(?:ing|s)?|discuss(?:ed|ing|es)?|catch(?:ing)? up|caught up|chit-?chat(?:ted|ting)?|convers(?:e|ed|ing))\b(?! (?:to|with) (?!you\b)[a-z]+ about\b)(?! at\b)|\b(?:talk|chat|discuss|speak|conversation|catch up)s? (?:about|on|over) (?:the )?(?:weather|travel|food|topics?|stuff|things|anything|everything|life|this|that)\b|\btopics?\b/;

/** Words that start a subject: after them, "that" is a conjunction ("I found out that my ..."), not a pointer. */
const SUBJECT_START =
  /^(?:i|i'm|i've|i'd|i'll|we|we're|we've|he|she|they|it|it's|there|my|our|his|her|their|the|a|an|some|many|most|all|no|one|someone|everyone|everybody|people|nobody|nothing|something|everything|what|how|why|when|where|if|[0-9]+)$/;
/** Words after a relative "that" ("a club that meets", "the book that really changed"): a verb or an adverb. */
const VERB_LIKE =
  /^(?:[a-z]+(?:ed|ly)|[a-z]+[^su]s|is|are|was|were|has|have|had|will|would|can|could|should|might|must|does|did|do|took|made|gave|got|went|came|brought|taught|kept|left|felt|meant|saw|won|lost|ran|began|grew|knew|built|became|helps|makes|means|never|always|just|also|still|really)$/;
/** Words after "this"/"that" that make a time phrase, resolved or readable ("this week", "that summer" is not). */
const TIME_AFTER_DEMONSTRATIVE =
  /^(?:week|weekend|month|year|morning|afternoon|evening|time|past|coming|monday|tuesday|wednesday|thursday|friday|saturday|sunday|semester|term|season)$/;
const PERSON = new RegExp(`^(?:${PEOPLE})$`);
/** Any word the check below looks at; most clauses have none. */
const POINTER =
  /\b(?:it|its|itself|he|she|him|his|hers|her|they|them|their|theirs|himself|herself|themselves|this|these|those|that|there|here|one|same|such|like|another)\b|'em\b/;

/**
 * Whether a pronoun or pointer in the clause has nothing to point at within it: "it" with no thing
 * named before it ("a/my + noun", a name), "he"/"she"/"they" with no person or animal named before
 * them, "there" with no place named, "this"/"these"/"those" and a pointing "that" (not a time,
 * not "that" as a conjunction or a relative pronoun), "here", "one"/"the same"/"such"/"'em".
 */
export function unresolvedReference(clause: string): boolean {
  if (!POINTER.test(clause.toLowerCase())) return false;
  const cased = clause
    .replace(/["\u201c\u201d]/g, " ")
    .replace(/[^A-Za-z0-9'\s-]/g, " $& ")
    .split(/\s+/)
    .filter(Boolean);
  const tokens = cased.map((t) => t.toLowerCase());
  let thingBefore = false;
  let personBefore = false;
  let placeBefore = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = tokens[i - 1] ?? "";
    const next = tokens[i + 1] ?? "";
    // A name ("Samuel", "Max", "Tampa") is a person, a pet, a place or a title something can point back to.
    const named = i > 0 && /^[A-Z][a-z]/.test(cased[i]!) && t !== "i" && !/^i'/.test(t);
    if (PERSON.test(t) || named) personBefore = true;
    if (named) thingBefore = placeBefore = true;
    if (t === "it" || t === "its" || t === "it's" || t === "itself") {
      if (!thingBefore) return true;
    } else if (
      /^(?:he|she|him|his|hers|her|they|them|their|theirs|they're|they've|they'll|he's|she's|himself|herself|themselves|'em)$/.test(t)
    ) {
      if (!personBefore || t === "'em") return true;
    } else if (t === "this" || t === "these" || t === "those") {
      if (!TIME_AFTER_DEMONSTRATIVE.test(next)) return true;
    } else if (t === "that" || t === "that's") {
      if (t === "that's" || next === "" || /^(?:is|was|will|would|has|had|must|'s|[,.;!?-])$/.test(next)) return true;
      if (!SUBJECT_START.test(next) && !VERB_LIKE.test(next) && !TIME_AFTER_DEMONSTRATIVE.test(next)) return true;
    } else if (t === "there") {
      if (!/^(?:is|are|was|were|'s|will|has|have|had|used)$/.test(next) && !placeBefore) return true;
    } else if (t === "here" || t === "here's") return true;
    else if (
      t === "one" &&
      (next === "" ||
        /^(?:with|for|and|but|in|at|to|from|on|too|yet|now|while|when|after|before|because|since|so|as|about|[,.;!?-])$/.test(next)) &&
      !/^(?:no|each|every|any|which|only|number)$/.test(prev)
    )
      return true;
    else if (t === "another" && (next === "" || /^(?:at|in|on|from|for|with|and|too|[,.;!?-])$/.test(next))) return true;
    else if (t === "same" && prev === "the" && next !== "as" && next !== "age") return true;
    else if ((t === "such" && next !== "as") || (t === "like" && /^(?:that|this|these|those)$/.test(next))) return true;
    // "a/my/our + noun" names a thing an "it" can point back to; "my sister" is no "it".
    if (/^(?:a|an|my|our|his|her|their|some|every|another)$/.test(t) && next !== "" && !/^(?:same|one)$/.test(next)) {
      if (!PERSON.test(next) && !PERSON.test(tokens[i + 2] ?? "")) thingBefore = true;
    }
  }
  return false;
}

/** The clause without its time lead and hedges, for the subject checks. */
const LEAD_START = new RegExp(`^(?:${LEAD})`);
const stripLead = (clause: string): string => clause.replace(LEAD_START, "");

/**
 * Why an English clause with a first-person word teaches nothing, or null when it may state a fact.
 * `clause` is the clause as said (first person, its case kept: names count), before dates are resolved.
 */
export function englishNoise(clause: string): string | null {
  const c = clause.toLowerCase().replace(YOU_FILLERS, " ").replace(/\s+/g, " ").trim();
  if (SECOND_PERSON.test(c)) return "addressed to the other person";
  if (!USER_SUBJECT.test(c) && !USER_SUBJECT.test(stripLead(c))) return "not about the user";
  if (REACTION.test(c) || REACTION.test(stripLead(c))) return "reaction";
  if (INCLUSIVE_WE.test(c)) return "inclusive we";
  if (TALK.test(c)) return "talk about the conversation";
  if (unresolvedReference(clause)) return "unresolved reference";
  return null;
}

// ---- the canonical clause -----------------------------------------------------------------------

/** Past events worth a fact on their own: life changes, milestones, trips, achievements. */
const EVENT =
  /^(?:joined|started|began|quit|left|graduated|married|divorced|adopted|bought|sold|moved|relocated|retired|won|lost|visited|travel(?:l)?ed|went|volunteered|signed|opened|launched|founded|published|wrote|learn(?:ed|t)(?! that| how much)|took up|ran|completed|finished|built|created|painted|attended|participated|competed|performed|hosted|organi[sz]ed|celebrated|received|earned|passed|failed|applied|enrolled|met|switched|flew|drove|hiked|climbed|camped|cycled|sailed|skied|surfed|toured|returned|came back|renovated|remodel(?:l)?ed|planted|donated|raised|taught|mentored|coached|trained|recorded|released|broke|injured|hurt|gave birth|had (?:a baby|twins|surgery|an operation|an accident|an interview)|got (?:married|engaged|divorced|promoted|hired|fired|laid off|injured|hurt|sick|pregnant|a (?:new )?(?:job|dog|cat|puppy|kitten|pet|car|house|tattoo|degree|promotion|scholarship|raise)|into|accepted|admitted|certified|the user's)|became|turned|reached|achieved|signed up|registered|studied|worked|lived|grew up|was born|served|scored|submitted|designed|directed|produced|starred|played|sang|watched|read)\b(?!')/;
/** Events that say enough with their verb alone ("graduated", "got married"). */
const MILESTONE =
  /^(?:graduated|retired|got (?:married|engaged|divorced|promoted|hired|fired|laid off|pregnant)|married|divorced|moved|relocated|gave birth|had (?:a baby|twins|surgery)|was born|passed away|quit|resigned)\b/;
/** Ongoing activities ("is learning German", "has been writing articles"). */
const ACTIVITY =
  /^(?:learning|studying|training|writing|working (?:on|at|as|for|in|with|part-time|full-time|remotely|from home)|volunteering|taking (?:a|an|classes|lessons|courses)|building|starting (?:a|an|the user's|at|work|school|college|university|classes|lessons)|running (?:a|an|the user's|for|in)|teaching|coaching|mentoring|practi[cs]ing|renovating|raising|saving (?:up )?for|preparing for|planning (?:a|an|to)|organi[sz]ing|playing (?:in|for|on|the|a|an)|painting|recording|developing|launching|opening|applying|looking for (?:a|an) (?:job|apartment|house|place|flat)|dating|expecting|pregnant|recovering|moving|collecting|growing|fostering|competing|performing|touring|travel(?:l)?ing|attending|doing (?:a|an) |making (?:a|an) (?!difference|change|impact)|designing|creating|producing|directing|hosting|streaming|blogging|vlogging|knitting|sewing|gardening|hiking|reading)\b/;
/** Verbs of lasting activities and states: with "every", "always", ... they describe the user's life. */
const DURABLE =
  /^(?:owns|plays|speaks|collects|paints|draws|knits|sews|cooks|bakes|writes|sings|dances|runs|volunteers|teaches|coaches|mentors|trains|works|lives|studies|grows|rides|surfs|climbs|hikes|swims|skis|games|reads|goes|attends|does|practi[cs]es|competes|drives|takes|wears|drinks|eats|avoids|follows|uses|loves|likes|enjoys|prefers|hates|dislikes|adores|cycles|bikes|walks|jogs|sails|fishes|hunts|gardens|streams|blogs|designs|builds|makes|manages|leads|rents|raises|fosters|celebrates|visits|watches|listens|meditates|journals|prays|feeds|walks|plants|attends)\b/;
const FREQUENCY =
  /\b(?:every|each|always|usually|often|regularly|daily|weekly|monthly|yearly|annually|sometimes|never|twice|once a|times a|all day|most days|on weekends|at weekends|at night|nights|in the evenings|in the mornings|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays))\b/;
/** Pastimes said in the present without "how often" ("I play clarinet", "I knit"). */
const PASTIME =
  /^(?:plays|speaks|collects|owns|volunteers|teaches|coaches|mentors|paints|knits|sews|bakes|gardens|fosters|rides|surfs|climbs|hikes|swims|skis|sails|cycles|meditates|journals|runs (?:a|an|marathons)|writes (?:for|a |an |books|novels|poetry|poems|songs|music|articles|code))\b/;
/** What the user is, said with an adjective: nationality, faith, family status, identity. */
const IDENTITY =
  /^(?:is|has been) (?:(?:a |an )?(?:single|married|engaged|divorced|widowed|separated|retired|pregnant|unemployed|self-employed|left-handed|right-handed|deaf|blind|autistic|dyslexic|introverted|extroverted|an introvert|an extrovert|trans|transgender|gay|lesbian|bi|bisexual|queer|non-?binary|straight|asexual|christian|muslim|jewish|catholic|buddhist|hindu|atheist|agnostic|vegan|vegetarian|pescatarian|(?!human\b)[a-z]+(?:an|ese|ish|i|ch)(?: [a-z-]+)?)|(?:a|an) (?:[a-z-]+ ){0,2}(?:woman|man|person|mom|mum|dad|mother|father|parent|grandparent|grandmother|grandfather|wife|husband|twin|only child|veteran|immigrant|citizen|native))\b/;
/** Things a user owns that say something lasting about them. */
const POSSESSION = new RegExp(
  `^(?:has|owns|has got) (?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\\d+|no|many|several|some) (?:[a-z-]+ ){0,3}?(?:${PEOPLE}|car|bike|motorcycle|house|home|apartment|flat|garden|farm|cabin|boat|tattoo|degree|diploma|collection|business|company|shop|store|studio|bakery|restaurant|cafe|blog|channel|podcast|band|allerg(?:y|ies)|condition|disease|disorder)\\b`,
);
/** Verbs after "will", "is going to", "plans to" that make a plan ("will move to Lisbon"), not a resolution ("won't give up"). */
const PLAN_VERB =
  /\b(?:will|is going to|is gonna|plans? to|is planning to|intends to|hopes to|wants to|is hoping to|is about to)(?: (?:be|definitely|probably|finally|also|soon|really))* (?:go(?:ing)? to|head(?:ing)? to|visit(?:ing)?|mov(?:e|ing)|start(?:ing)?|join(?:ing)?|attend(?:ing)?|travel(?:l?ing)?|fly(?:ing)?|tak(?:e|ing) (?:a|an|the user's) (?:trip|vacation|holiday|class|course|break|year off|gap year)|begin(?:ning)?|get(?:ting)? (?:married|engaged|a (?:dog|cat|puppy))|hav(?:e|ing) a baby|retir(?:e|ing)|graduat(?:e|ing)|open(?:ing)?|launch(?:ing)?|host(?:ing)?|run(?:ning)? (?:a|in|for)|compet(?:e|ing)|perform(?:ing)?|buy(?:ing)?|sell(?:ing)?|adopt(?:ing)?|apply(?:ing)?|enroll?(?:ing)?|stay(?:ing)? (?:in|at|with)(?! touch)|spend(?:ing)? (?:a|the|two|three|some) (?:week|weekend|month|summer|holiday|holidays|vacation)|celebrat(?:e|ing))\b/;
/** One of the user's own particulars and its value ("The user's birthday is 5 May", "The user's email is ..."). */
const ATTRIBUTE =
  /^the user's (?:(?:full|middle|last|first|maiden|legal|home|work|mobile|cell|phone|email|e-mail) )?(?:birthday|birth date|date of birth|address|email|e-mail|phone|phone number|number|blood type|height|weight|shoe size|zodiac sign|star sign|password|pin|username|handle|nickname|pronouns|nationality|religion|native language|first language|mother tongue|hometown|home town)(?: address| number)? (?:is|are) [^ ].*$/;
const DATE_IN_TEXT =
  /\b(?:in|on|since|from|until|by|around|before) (?:the (?:week|weekend) of )?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day )?(?:\d{1,2} )?(?:january|february|march|april|may|june|july|august|september|october|november|december|\d{4})\b/;
const ADVERBS_START = new RegExp(`^(?:${ADVERB} )+`);
const RELATIVE_SUBJECT = new RegExp(`^The user's (?:[a-z-]+ ){0,2}?(?:${PEOPLE})(?: [A-Z][A-Za-z'-]*)*,? (.*)$`);
/** A relative's clause starts with its verb ("just had twins", "lives in Lisbon", "went on a road trip"). */
const VERB_START =
  /^(?:(?:just|also|still|now|recently|finally|always|usually|often|never|even|really|already|actually) )*(?:[a-z]+(?:ed|[^su]s)|is|are|was|were|has|have|had|will|won't|can|could|does|did|got|went|came|took|made|gave|grew|began|became|left|met|ran|won|lost|wrote|built|bought|sold|taught|kept|turned|quit|broke)\b/;
/** Words that carry nothing on their own: in a fact at least one other word must say what happened. */
const EMPTY = new Set(
  "the user user's themselves a an to of in on at for with and or but so too also just really very even still as well it its this that there here some any all more most much many lot lots bit ton tons up out off over back again now then not no never always ever is are was were be been being has have had do does did will would can could should gonna going get got gets getting make makes made making take takes took taking go goes went gone one ones thing things stuff something anything everything nothing time times fun blast day days way ways great good nice amazing awesome cool fantastic wonderful incredible special tough hard crazy wild new big huge little few other others own best better part project projects experience experiences recently lately finally definitely sure such how what when where why who fan fans loves love likes like enjoys enjoy adores prefers is into 's around before week weekend difference change impact memories progress effort exciting interesting lovely beautiful gorgeous stunning unbelievable intense emotional meaningful rewarding fulfilling powerful enlightening inspiring wicked real whole entire different various several people folks guys someone somebody don't doesn't didn't won't can't isn't aren't wasn't end very later afterward afterwards usual lately recently currently world complicated particular skill skills game games milestone accomplishment achievement setback adventure win breakthrough incident moment moments issue issues problem problems month months year years weeks two three four five six seven eight nine ten somewhere somehow similar personal major unexpected january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday".split(
    " ",
  ),
);
/** Places and things "the" needs no context for ("loves the ocean"); "loves the colors" needs one. */
const THE_GENERIC =
  /^the (?:ocean|sea|beach|mountains|outdoors|countryside|rain|snow|sun|forest|woods|desert|lake|river|city|theat(?:er|re)|gym|library|park|zoo|museum|opera|ballet|cinema|movies|radio|news|piano|guitar|violin|drums|cello|flute|saxophone|trumpet|clarinet|stars|night sky|winter|summer|spring|autumn|fall|holidays)\b/;

/** Whether a clause's predicate says something beyond light verbs, praise and dates ("won." and "had a great time" do not). */
function hasContent(predicate: string): boolean {
  if (/\b(?:to|with|for|of|about|in|on|at)$/.test(predicate)) return false;
  return predicate.split(/[^a-z0-9'-]+/).some((w) => w !== "" && !EMPTY.has(w) && !/^\d+(?:st|nd|rd|th)?$/.test(w));
}

/**
 * The kind of fact a canonical English clause states ("The user ...", "The user's sister ..."), or
 * null when it is none the learner can be sure of. `dated`/`future`: a relative date was resolved
 * in it / one of its dates lies ahead.
 */
export function englishFactKind(text: string, extra: { dated: boolean; future: boolean }): string | null {
  const t = text.toLowerCase().replace(/[.!]+$/, "");
  const favourite = /^(.+?) (?:is|are) (?:one of )?the user's (?:all-time |absolute )?favou?rites?\b/.exec(t);
  if (favourite) return hasContent(favourite[1] ?? "") ? "favourite" : null;
  const relative = RELATIVE_SUBJECT.exec(text.replace(/[.!]+$/, ""));
  const own = /^the user(?: and [^,]{1,40}?)? (.*)$/.exec(t);
  const said = relative?.[1]?.toLowerCase() ?? own?.[1] ?? "";
  const rest = said.replace(ADVERBS_START, "");
  const key = relationKey(text);
  if (key && !["likes", "plan", "other"].includes(key.kind)) return "relation";
  if (ATTRIBUTE.test(t)) return "attribute";
  if (!rest) return null;
  if (!hasContent(rest)) return null;
  if (relative) {
    // "The user's sister just had twins" tells something; "The user's kids are awesome" only how the user feels about them.
    if (!VERB_START.test(rest)) return null;
    // "The user's dogs will tag along", "can come too": what a relative may do is no fact about them.
    if (/^(?:will|would|can|could|might|may|should)\b/.test(rest) && !(extra.future || DATE_IN_TEXT.test(t))) return null;
    const copula = /^(?:is|are|was|were|'s|'re|has been|have been|had been|seems|seem|looks|look|feels|feel)\b(.*)$/.exec(rest);
    if (!copula) return "relative";
    return /^ (?:a|an|in|at|from|on|\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b/.test(
      copula[1] ?? "",
    )
      ? "relative"
      : null;
  }
  // "would", "could", "might": what the user would do is no fact.
  if (/^(?:would|could|might|should|must|may)\b/.test(rest)) return null;
  const dated = extra.dated || DATE_IN_TEXT.test(t);
  if (key?.kind === "likes" && !hasContent(key.relation.slice("likes:".length))) return null;
  if (key?.kind === "likes") {
    // "loves the color and texture" points at something shown; "loves the ocean", "loves the Beatles" do not.
    const object = /^(?:[a-z']+ )(?:to |playing |watching |eating |drinking )?(.*)$/.exec(rest)?.[1] ?? "";
    const cased = text.slice(text.toLowerCase().lastIndexOf(object), text.toLowerCase().lastIndexOf(object) + object.length);
    const pointing = /^(?:all )?(?:the|these|those) /.test(object) && !THE_GENERIC.test(object.replace(/^all /, ""));
    return !pointing || /[A-Z]/.test(cased) ? "likes" : null;
  }
  if (key?.kind === "plan" || extra.future) {
    // A plan has a date, a destination or a verb of doing; "won't give up" is a resolution.
    if (
      !hasContent(
        rest.replace(/^(?:is|will|plans|wants|hopes|intends)(?: (?:going|gonna|be|to|planning|hoping|about))* (?:[a-z]+(?: |$))?/, ""),
      )
    )
      return null;
    return dated || (key?.relation.startsWith("plan:") ?? false) || PLAN_VERB.test(t) ? "plan" : null;
  }
  if (key) return "relation";
  // "won't give up", "didn't go": what did not happen is no fact (a diet or a health condition has its key above).
  if (/^(?:won't|doesn't|didn't|isn't|can't|cannot|hasn't|haven't|wasn't|don't|never|no longer)\b/.test(rest)) return null;
  // An event needs more than its verb ("won.", "had a great time"), unless the verb says it all ("graduated").
  const object = /^(?:is|are|was|were) (?![a-z]+ing\b)/.test(rest)
    ? rest.replace(/^[a-z]+ /, "")
    : rest.replace(/^(?:has |have |had |is |are |was |were )?(?:been )?(?:[a-z]+(?: |$))?/, "");
  if (!MILESTONE.test(rest) && !hasContent(object)) return null;
  if (dated) return "dated event";
  if (/^used to\b/.test(rest)) return "past habit";
  if (IDENTITY.test(rest)) return "identity";
  if (POSSESSION.test(rest)) return "possession";
  const perfect = /^(?:has|have|had)(?: been)? (.*)$/.exec(rest);
  if (EVENT.test(rest) || (perfect && EVENT.test((perfect[1] ?? "").replace(ADVERBS_START, "")))) return "event";
  const progressive = /^(?:is|are|was|were|has been|have been|had been) (.*)$/.exec(rest);
  if (progressive && ACTIVITY.test((progressive[1] ?? "").replace(ADVERBS_START, ""))) return "activity";
  if (DURABLE.test(rest) && FREQUENCY.test(t)) return "habit";
  if (PASTIME.test(rest)) return "pastime";
  if (/^is (?:(?:really|very|pretty|quite|so) )?(?:good|great|skilled|talented|experienced|fluent) (?:at|in)\b/.test(rest))
    return "ability";
  if (/^can (?:speak|play|cook|swim|drive|sing|dance|code|ski|surf|ride|knit|sew|paint|draw)\b/.test(rest)) return "ability";
  return null;
}
