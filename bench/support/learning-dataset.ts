/**
 * Generator of the learning benchmark's dataset (bench/data/learning/dataset.json): people who
 * talk to an assistant over several sessions, in English and Chinese. Each person is described
 * once - what they tell (fact lines with phrasing variants, some contradicting an earlier line),
 * the small talk and questions to the assistant around it, and what they ask in a new session
 * later with the answers expected - and a seeded PRNG picks the phrasing and interleaves the
 * chatter, so the file is the same on every run.
 *
 * Run with `npx tsx bench/support/learning-dataset.ts` (writes the file; commit it).
 */
import { writeFileSync } from "node:fs";
import { prng } from "../../test/support/prng.ts";

/** One line the user says. Fact lines carry the words a stored fact must hold to count as learned. */
export interface DatasetLine {
  id: string;
  text: string;
  kind: "fact" | "noise";
  /** Fact lines: every one of these must appear in the user's stored facts (case-insensitive). */
  keywords?: string[];
  /** Fact lines that contradict an earlier one: its id. */
  contradicts?: string;
}

export interface DatasetQuestion {
  text: string;
  /** The fact line the question is about. */
  about: string;
  /** Recalled when one of these appears in a top-3 fact. */
  expect: string[];
  /** For a contradiction: words of the older fact, which must not rank above the newer one. */
  stale?: string[];
}

export interface DatasetPerson {
  id: string;
  lang: "en" | "zh";
  sessions: { startedAt: number; lines: DatasetLine[] }[];
  questions: DatasetQuestion[];
  /** Questions about nothing the person said: recall should return nothing. */
  unrelated: string[];
}

interface FactSpec {
  id: string;
  variants: string[];
  keywords: string[];
  session: number;
  contradicts?: string;
  questions: { text: string; expect: string[]; stale?: string[] }[];
}

interface PersonSpec {
  id: string;
  lang: "en" | "zh";
  sessions: number;
  facts: FactSpec[];
  unrelated: string[];
}

const EN_NOISE = [
  "Can you recommend a good podcast about history?",
  "The weather is lovely today.",
  "Thanks, that's really helpful!",
  "lol that's funny",
  "Write me a haiku about autumn.",
  "What's a good way to learn touch typing?",
  "How long should I boil an egg?",
  "Ok, got it.",
  "Hmm, interesting.",
  "Could you summarize that in two sentences?",
  "I think you're right about that.",
  "Tell me a joke about programmers.",
  "What time zone is Singapore in?",
  "That sounds great, thank you!",
  "Any tips for staying focused in the afternoon?",
  "Good morning!",
  "I see what you mean.",
  "Explain recursion like I'm five.",
  "Is it going to rain this weekend in general?",
  "Haha, nice one.",
  "Give me three ideas for a birthday card message.",
  "Which is healthier, rice or quinoa?",
  "I'll think about it.",
  "Never mind, forget it.",
  "Translate 'good luck' into Spanish.",
  "What do you think about electric cars?",
  "I'm not sure about that.",
  "Can you make the list shorter?",
  "Cool, thanks!",
  "Why is the sky blue?",
  "Let's talk about something else.",
  "What is my hobby?",
  "I'd like a short answer please.",
  "Nice, I love that idea.",
];

const ZH_NOISE = [
  "你觉得哪本书适合入门？",
  "今天天气真不错。",
  "谢谢你的建议！",
  "哈哈哈，太好笑了",
  "帮我写一首关于秋天的诗。",
  "怎么才能早点睡着？",
  "好的，明白了。",
  "嗯嗯",
  "你能再解释一下吗？",
  "给我讲个笑话吧。",
  "推荐几部好看的电影。",
  "早上好！",
  "我觉得你说得有道理。",
  "番茄炒蛋怎么做比较好吃？",
  "这个问题有点难。",
  "周末去哪里玩比较好？",
  "请把刚才的内容总结一下。",
  "为什么天空是蓝色的？",
  "我再想想。",
  "太棒了，谢谢！",
  "翻译一下“早安”成英文。",
  "你知道明天会下雨吗？",
  "算了，换个话题吧。",
  "可以说得简单一点吗？",
  "有什么提高效率的小技巧？",
  "哦，原来是这样。",
  "我叫什么名字来着？",
  "晚安～",
  "咖啡和茶哪个更提神？",
  "我也是这么想的。",
];

const PEOPLE: PersonSpec[] = [
  {
    id: "ada",
    lang: "en",
    sessions: 3,
    unrelated: ["What's the capital of Peru?", "How do I reset a router?", "Who wrote Pride and Prejudice?"],
    facts: [
      {
        id: "ada-name",
        session: 0,
        variants: ["Hi! I'm Ada.", "Hey, I'm Ada by the way."],
        keywords: ["Ada"],
        questions: [{ text: "What's my name?", expect: ["Ada"] }],
      },
      {
        id: "ada-home",
        session: 0,
        variants: ["I live in Paris, not far from the canal.", "I live in Paris these days."],
        keywords: ["Paris"],
        questions: [],
      },
      {
        id: "ada-sister",
        session: 0,
        variants: ["My sister Mia lives in Lisbon and works as an architect."],
        keywords: ["Mia", "Lisbon", "architect"],
        questions: [
          { text: "Where does my sister live?", expect: ["Lisbon"] },
          { text: "What does Mia do for a living?", expect: ["architect"] },
        ],
      },
      {
        id: "ada-sailing",
        session: 0,
        variants: ["My name is Ada and I love sailing.", "I love sailing more than anything."],
        keywords: ["sailing"],
        questions: [{ text: "Which sport do I love?", expect: ["sailing"] }],
      },
      {
        id: "ada-allergy",
        session: 1,
        variants: ["I'm allergic to shellfish.", "Just so you know, I'm allergic to shellfish."],
        keywords: ["shellfish"],
        questions: [{ text: "What am I allergic to?", expect: ["shellfish"] }],
      },
      {
        id: "ada-moved",
        session: 1,
        contradicts: "ada-home",
        variants: ["We moved to Berlin last month.", "I moved to Berlin a few weeks ago."],
        keywords: ["Berlin"],
        questions: [{ text: "Which city do I live in?", expect: ["Berlin"], stale: ["Paris"] }],
      },
      {
        id: "ada-job",
        session: 1,
        variants: ["I work as a data engineer at a logistics startup."],
        keywords: ["data engineer"],
        questions: [{ text: "What's my job?", expect: ["data engineer"] }],
      },
      {
        id: "ada-trip",
        session: 2,
        variants: ["I'm flying to Tokyo next Friday for a conference."],
        keywords: ["Tokyo"],
        questions: [{ text: "When is my trip to Tokyo?", expect: ["Tokyo"] }],
      },
      {
        id: "ada-tea",
        session: 2,
        variants: ["I can't stand coffee, I drink green tea all day."],
        keywords: ["green tea"],
        questions: [{ text: "What do I drink during the day?", expect: ["tea"] }],
      },
    ],
  },
  {
    id: "nora",
    lang: "en",
    sessions: 3,
    unrelated: ["How many moons does Mars have?", "What's a good stretching routine?"],
    facts: [
      {
        id: "nora-husband",
        session: 0,
        variants: ["My husband Karim is a paramedic and works nights."],
        keywords: ["Karim", "paramedic"],
        questions: [{ text: "What's my husband's name?", expect: ["Karim"] }],
      },
      {
        id: "nora-dog",
        session: 0,
        variants: ["We adopted a rescue greyhound called Biscuit last month."],
        keywords: ["Biscuit"],
        questions: [{ text: "What's my dog's name?", expect: ["Biscuit"] }],
      },
      {
        id: "nora-job",
        session: 0,
        variants: ["I'm a primary school teacher in Leeds.", "I teach at a primary school in Leeds."],
        keywords: ["Leeds"],
        questions: [{ text: "Where do I teach?", expect: ["Leeds"] }],
      },
      {
        id: "nora-veg",
        session: 1,
        variants: ["I've been vegetarian for ten years.", "I'm vegetarian, have been for ten years."],
        keywords: ["vegetarian"],
        questions: [{ text: "Do I eat meat?", expect: ["vegetarian"] }],
      },
      {
        id: "nora-son",
        session: 1,
        variants: ["Our son Leo just turned seven.", "My son Leo is seven now."],
        keywords: ["Leo", "seven"],
        questions: [{ text: "How old is my son?", expect: ["seven"] }],
      },
      {
        id: "nora-car",
        session: 1,
        variants: ["I drive an old blue Volvo."],
        keywords: ["Volvo"],
        questions: [{ text: "What car do I drive?", expect: ["Volvo"] }],
      },
      {
        id: "nora-husband-job",
        session: 2,
        contradicts: "nora-husband",
        variants: ["Karim quit the ambulance service, my husband is a nurse now."],
        keywords: ["nurse"],
        questions: [{ text: "What is my husband's job now?", expect: ["nurse"], stale: ["paramedic"] }],
      },
      {
        id: "nora-knit",
        session: 2,
        variants: ["I really enjoy knitting in the evenings."],
        keywords: ["knitting"],
        questions: [{ text: "What do I do in the evenings?", expect: ["knitting"] }],
      },
      {
        id: "nora-party",
        session: 2,
        variants: ["We're throwing Leo a birthday party next Saturday."],
        keywords: ["party"],
        questions: [{ text: "When is Leo's birthday party?", expect: ["party"] }],
      },
    ],
  },
  {
    id: "sam",
    lang: "en",
    sessions: 2,
    unrelated: ["What's the boiling point of water at altitude?", "How do vaccines work?"],
    facts: [
      {
        id: "sam-name",
        session: 0,
        variants: ["Hi! I'm Sam."],
        keywords: ["Sam"],
        questions: [{ text: "Do you know my name?", expect: ["Sam"] }],
      },
      {
        id: "sam-team",
        session: 0,
        variants: ["Our team switched the backend from Django to FastAPI."],
        keywords: ["FastAPI"],
        questions: [{ text: "Which framework does our backend use?", expect: ["FastAPI"] }],
      },
      {
        id: "sam-employer",
        session: 0,
        variants: ["I work at a fintech company called Ledgerly.", "I work for Ledgerly, a small fintech."],
        keywords: ["Ledgerly"],
        questions: [{ text: "Where do I work?", expect: ["Ledgerly"] }],
      },
      {
        id: "sam-editor",
        session: 0,
        variants: ["I use Neovim for all my coding."],
        keywords: ["Neovim"],
        questions: [{ text: "Which editor do I use?", expect: ["Neovim"] }],
      },
      { id: "sam-db", session: 1, variants: ["We use Postgres for the main database."], keywords: ["Postgres"], questions: [] },
      {
        id: "sam-db-new",
        session: 1,
        contradicts: "sam-db",
        variants: ["We migrated the main database from Postgres to CockroachDB last week."],
        keywords: ["CockroachDB"],
        questions: [{ text: "What database do we use for the main database?", expect: ["CockroachDB"], stale: ["We use Postgres"] }],
      },
      {
        id: "sam-climb",
        session: 1,
        variants: ["I go bouldering twice a week."],
        keywords: ["bouldering"],
        questions: [{ text: "How do I stay fit?", expect: ["bouldering"] }],
      },
      {
        id: "sam-friend",
        session: 1,
        variants: ["My best friend Priya is a marine biologist in Cape Town."],
        keywords: ["Priya", "marine biologist"],
        questions: [{ text: "What does Priya do?", expect: ["marine biologist"] }],
      },
    ],
  },
  {
    id: "omar",
    lang: "en",
    sessions: 2,
    unrelated: ["Who painted the Mona Lisa?", "What's the difference between TCP and UDP?"],
    facts: [
      {
        id: "omar-name",
        session: 0,
        variants: ["My name's Omar and I'm a pharmacist.", "My name is Omar and I work as a pharmacist."],
        keywords: ["Omar", "pharmacist"],
        questions: [{ text: "What do I do for work?", expect: ["pharmacist"] }],
      },
      {
        id: "omar-diabetes",
        session: 0,
        variants: ["I have type 1 diabetes, so I watch my sugar."],
        keywords: ["diabetes"],
        questions: [{ text: "Do I have any health conditions?", expect: ["diabetes"] }],
      },
      {
        id: "omar-daughter",
        session: 0,
        variants: ["My daughter Lina starts university in Manchester next month."],
        keywords: ["Lina", "Manchester"],
        questions: [{ text: "Where is my daughter going to university?", expect: ["Manchester"] }],
      },
      {
        id: "omar-chess",
        session: 0,
        variants: ["I'm a big fan of chess, I play online every night."],
        keywords: ["chess"],
        questions: [{ text: "What game do I play?", expect: ["chess"] }],
      },
      { id: "omar-home", session: 1, variants: ["I live in Birmingham."], keywords: ["Birmingham"], questions: [] },
      {
        id: "omar-moving",
        session: 1,
        contradicts: "omar-home",
        variants: ["I live in Bristol now, we moved in the spring."],
        keywords: ["Bristol"],
        questions: [{ text: "Where do I live?", expect: ["Bristol"], stale: ["Birmingham"] }],
      },
      {
        id: "omar-cat",
        session: 1,
        variants: ["Our cat Pepper is fourteen and still very lively."],
        keywords: ["Pepper"],
        questions: [{ text: "What is my cat called?", expect: ["Pepper"] }],
      },
      {
        id: "omar-jazz",
        session: 1,
        variants: ["I hate loud music but I like jazz."],
        keywords: ["jazz"],
        questions: [{ text: "What music do I like?", expect: ["jazz"] }],
      },
    ],
  },
  {
    id: "xiaolin",
    lang: "zh",
    sessions: 3,
    unrelated: ["长城有多长？", "怎么煮意大利面？"],
    facts: [
      {
        id: "lin-name",
        session: 0,
        variants: ["你好，我叫林晓。", "我叫林晓，很高兴认识你。"],
        keywords: ["林晓"],
        questions: [{ text: "我叫什么名字？", expect: ["林晓"] }],
      },
      {
        id: "lin-sister",
        session: 0,
        variants: ["我妹妹在深圳当小学老师。"],
        keywords: ["深圳", "老师"],
        questions: [{ text: "我妹妹在哪里工作？", expect: ["深圳"] }],
      },
      {
        id: "lin-cat",
        session: 0,
        variants: ["我们家的猫叫团子，三岁了。"],
        keywords: ["团子"],
        questions: [{ text: "我家的猫叫什么？", expect: ["团子"] }],
      },
      { id: "lin-home", session: 0, variants: ["我住在杭州。", "我现在住在杭州。"], keywords: ["杭州"], questions: [] },
      {
        id: "lin-job",
        session: 1,
        variants: ["我是一名产品经理，在一家电商公司上班。"],
        keywords: ["产品经理"],
        questions: [{ text: "我是做什么工作的？", expect: ["产品经理"] }],
      },
      {
        id: "lin-moved",
        session: 1,
        contradicts: "lin-home",
        variants: ["我上个月搬到上海了。"],
        keywords: ["上海"],
        questions: [{ text: "我现在住在哪个城市？", expect: ["上海"], stale: ["杭州"] }],
      },
      {
        id: "lin-allergy",
        session: 1,
        variants: ["我对芒果过敏。"],
        keywords: ["芒果"],
        questions: [{ text: "我对什么过敏？", expect: ["芒果"] }],
      },
      {
        id: "lin-trip",
        session: 2,
        variants: ["下周五我要去成都出差。"],
        keywords: ["成都"],
        questions: [{ text: "我什么时候去成都？", expect: ["成都"] }],
      },
      {
        id: "lin-hotpot",
        session: 2,
        variants: ["我特别喜欢吃火锅。"],
        keywords: ["火锅"],
        questions: [{ text: "我喜欢吃什么？", expect: ["火锅"] }],
      },
    ],
  },
  {
    id: "wangfang",
    lang: "zh",
    sessions: 2,
    unrelated: ["地球到月球有多远？", "怎样学好英语口语？"],
    facts: [
      {
        id: "fang-husband",
        session: 0,
        variants: ["我老公是做牙医的。"],
        keywords: ["牙医"],
        questions: [{ text: "我老公是做什么的？", expect: ["牙医"] }],
      },
      {
        id: "fang-son",
        session: 0,
        variants: ["我儿子今年八岁，在上二年级。"],
        keywords: ["八岁"],
        questions: [{ text: "我儿子多大了？", expect: ["八岁"] }],
      },
      {
        id: "fang-veg",
        session: 0,
        variants: ["我吃素已经五年了。"],
        keywords: ["吃素"],
        questions: [{ text: "我有什么饮食习惯？", expect: ["吃素"] }],
      },
      {
        id: "fang-yoga",
        session: 0,
        variants: ["我平时喜欢练瑜伽。"],
        keywords: ["瑜伽"],
        questions: [{ text: "我平时有什么爱好？", expect: ["瑜伽"] }],
      },
      { id: "fang-employer", session: 1, variants: ["我在一家外企做会计。"], keywords: ["会计"], questions: [] },
      {
        id: "fang-newjob",
        session: 1,
        contradicts: "fang-employer",
        variants: ["我现在是财务经理了，上个月刚升职。"],
        keywords: ["财务经理"],
        questions: [{ text: "我现在是什么职位？", expect: ["财务经理"], stale: ["会计"] }],
      },
      {
        id: "fang-mother",
        session: 1,
        variants: ["我妈妈住在青岛，每年夏天我们都回去看她。"],
        keywords: ["青岛"],
        questions: [{ text: "我妈妈住在哪里？", expect: ["青岛"] }],
      },
      {
        id: "fang-trip",
        session: 1,
        variants: ["明年春天我们全家打算去日本旅游。"],
        keywords: ["日本"],
        questions: [{ text: "我们全家打算去哪里旅游？", expect: ["日本"] }],
      },
    ],
  },
  {
    id: "chenhao",
    lang: "zh",
    sessions: 2,
    unrelated: ["光速是多少？", "如何写一封求职信？"],
    facts: [
      {
        id: "hao-name",
        session: 0,
        variants: ["我是陈浩，在北京做前端开发。"],
        keywords: ["陈浩"],
        questions: [{ text: "我的名字是什么？", expect: ["陈浩"] }],
      },
      {
        id: "hao-team",
        session: 0,
        variants: ["我们团队把前端从Vue换成了React。"],
        keywords: ["React"],
        questions: [{ text: "我们团队前端用什么框架？", expect: ["React"] }],
      },
      {
        id: "hao-girlfriend",
        session: 0,
        variants: ["我女朋友是护士，经常上夜班。"],
        keywords: ["护士"],
        questions: [{ text: "我女朋友做什么工作？", expect: ["护士"] }],
      },
      {
        id: "hao-football",
        session: 0,
        variants: ["我每周六都去踢足球。"],
        keywords: ["足球"],
        questions: [{ text: "我周末做什么运动？", expect: ["足球"] }],
      },
      { id: "hao-coffee", session: 1, variants: ["我以前很喜欢喝咖啡。"], keywords: ["咖啡"], questions: [] },
      {
        id: "hao-nocoffee",
        session: 1,
        contradicts: "hao-coffee",
        variants: ["我现在不喜欢喝咖啡了，改喝茶。"],
        keywords: ["不喜欢喝咖啡"],
        questions: [{ text: "我喜欢喝咖啡吗？", expect: ["不喜欢"], stale: ["很喜欢喝咖啡"] }],
      },
      {
        id: "hao-dog",
        session: 1,
        variants: ["我养了一只柯基，叫豆豆。"],
        keywords: ["豆豆"],
        questions: [{ text: "我的狗叫什么名字？", expect: ["豆豆"] }],
      },
      {
        id: "hao-wedding",
        session: 1,
        variants: ["我们打算明年十月结婚。"],
        keywords: ["结婚"],
        questions: [{ text: "我们什么时候结婚？", expect: ["结婚"] }],
      },
    ],
  },
  {
    id: "lili",
    lang: "zh",
    sessions: 2,
    unrelated: ["如何保养皮鞋？", "黑洞是怎么形成的？"],
    facts: [
      {
        id: "li-name",
        session: 0,
        variants: ["嗨，我叫丽丽，是个大学生。"],
        keywords: ["丽丽"],
        questions: [{ text: "你还记得我叫什么吗？", expect: ["丽丽"] }],
      },
      {
        id: "li-major",
        session: 0,
        variants: ["我在武汉大学读化学专业。"],
        keywords: ["化学"],
        questions: [{ text: "我学的是什么专业？", expect: ["化学"] }],
      },
      {
        id: "li-brother",
        session: 0,
        variants: ["我哥哥在杭州开了一家面馆。"],
        keywords: ["面馆"],
        questions: [{ text: "我哥哥是做什么的？", expect: ["面馆"] }],
      },
      {
        id: "li-piano",
        session: 0,
        variants: ["我从小就喜欢弹钢琴。"],
        keywords: ["钢琴"],
        questions: [{ text: "我会什么乐器？", expect: ["钢琴"] }],
      },
      { id: "li-dorm", session: 1, variants: ["我住在学校宿舍。"], keywords: ["宿舍"], questions: [] },
      {
        id: "li-moved",
        session: 1,
        contradicts: "li-dorm",
        variants: ["我搬到校外和室友合租了。"],
        keywords: ["合租"],
        questions: [{ text: "我现在住在哪里？", expect: ["合租"], stale: ["宿舍"] }],
      },
      {
        id: "li-exam",
        session: 1,
        variants: ["下个月我要考英语六级。"],
        keywords: ["六级"],
        questions: [{ text: "我下个月要考什么试？", expect: ["六级"] }],
      },
      { id: "li-spicy", session: 1, variants: ["我不太能吃辣。"], keywords: ["辣"], questions: [{ text: "我能吃辣吗？", expect: ["辣"] }] },
    ],
  },
];

const DAY_MS = 86_400_000;
/** The first session of everyone starts here; later ones 10-20 days apart. */
const EPOCH = Date.UTC(2026, 2, 2, 9, 0, 0);

export function generateDataset(seed = 19): DatasetPerson[] {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  return PEOPLE.map((person, p) => {
    const noisePool = [...(person.lang === "en" ? EN_NOISE : ZH_NOISE)];
    let startedAt = EPOCH + p * DAY_MS;
    const sessions: DatasetPerson["sessions"] = [];
    for (let s = 0; s < person.sessions; s++) {
      const facts = person.facts.filter((f) => f.session === s);
      const lines: DatasetLine[] = facts.map((f) => ({
        id: f.id,
        text: pick(f.variants),
        kind: "fact",
        keywords: f.keywords,
        ...(f.contradicts ? { contradicts: f.contradicts } : {}),
      }));
      // As much chatter as facts (at least three lines), each line spoken once per person.
      const chatter = Math.max(3, facts.length);
      for (let n = 0; n < chatter && noisePool.length > 0; n++) {
        const text = noisePool.splice(Math.floor(random() * noisePool.length), 1)[0] as string;
        lines.splice(Math.floor(random() * (lines.length + 1)), 0, { id: `${person.id}-noise-${s}-${n}`, text, kind: "noise" });
      }
      // An earlier fact must stay before the line that contradicts it.
      lines.sort((a, b) => {
        const ia = facts.findIndex((f) => f.id === a.id);
        const ib = facts.findIndex((f) => f.id === b.id);
        return ia >= 0 && ib >= 0 ? ia - ib : 0;
      });
      sessions.push({ startedAt, lines });
      startedAt += (10 + Math.floor(random() * 10)) * DAY_MS;
    }
    const questions = person.facts.flatMap((f) => f.questions.map((q) => ({ ...q, about: f.id })));
    return { id: person.id, lang: person.lang, sessions, questions, unrelated: person.unrelated };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const people = generateDataset();
  const lines = people.flatMap((p) => p.sessions.flatMap((s) => s.lines));
  writeFileSync(new URL("../data/learning/dataset.json", import.meta.url), `${JSON.stringify({ seed: 19, people }, null, 1)}\n`);
  console.log(
    `${people.length} people, ${lines.filter((l) => l.kind === "fact").length} fact lines (${lines.filter((l) => l.contradicts).length} contradictions), ` +
      `${lines.filter((l) => l.kind === "noise").length} chatter lines, ${people.reduce((n, p) => n + p.questions.length, 0)} questions, ${people.reduce((n, p) => n + p.unrelated.length, 0)} unrelated`,
  );
}
