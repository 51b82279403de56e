/** @module How a person of the learning dataset is described once, before the generator (dataset.ts) picks phrasings and interleaves chatter. */

/** One fact a person tells: its phrasing variants, the words a stored fact must hold, its session and the questions about it. */
export interface FactSpec {
  id: string;
  variants: string[];
  keywords: string[];
  session: number;
  contradicts?: string;
  questions: { text: string; expect: string[]; stale?: string[] }[];
}

/** One person: their language, how many sessions they talk in, their facts, and questions about nothing they said. */
export interface PersonSpec {
  id: string;
  lang: "en" | "zh";
  sessions: number;
  facts: FactSpec[];
  unrelated: string[];
}
