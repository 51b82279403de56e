/** @module Context assembly: builds one request's prompt messages (system, summary, facts, window) within its token budget. */
import { BudgetLedger, planBudget, type BudgetReport } from "./budget.ts";
import { factsSection, summarySection } from "./sections.ts";
import type { MemoryOptions } from "../options.ts";
import type { ChatMessage, TokenCounter } from "../ports/llm.ts";
import { selectWindow } from "./window-selection.ts";
import type { RecalledFact, StoredMessage, Summary, SummaryMethod } from "../model.ts";
import { sumTokens } from "./window.ts";

export interface ContextInput {
  system: readonly StoredMessage[];
  summary: Summary | null;
  /** Recalled facts, best first; they appear in the context only, never in storage. */
  facts?: readonly RecalledFact[] | undefined;
  /** The session being assembled: a fact learned from one of its messages still shown is not repeated. */
  sessionId?: string | undefined;
  /** Unsummarized messages, oldest first. */
  window: readonly StoredMessage[];
  /** Uses window, shares, importanceThreshold, factsLabel, summaryLabel (and budget by default). */
  options: MemoryOptions;
  /** Token budget of this context. Default `options.budget`. */
  budget?: number | undefined;
  /** Counts only the labels and fact lines; messages and the summary carry stored counts. */
  counter: TokenCounter;
}

export interface AssembledContext {
  /** system -> summary -> recalled facts -> window, each part in chronological order. */
  messages: ChatMessage[];
  tokens: { system: number; summary: number; facts: number; window: number; total: number };
  budget: BudgetReport;
  omitted: { window: number; facts: number; summary: boolean };
  /** The summary as shown (null when there is none or it did not fit at all). */
  summary: null | { version: number; tokens: number; covered: number; method: SummaryMethod; truncated: boolean };
  /** The recalled facts that made it into the context. */
  facts: RecalledFact[];
  /** Ids of the window messages in the context, oldest first (what a trace shows). */
  windowIds: string[];
}

export function toChatMessage(m: StoredMessage): ChatMessage {
  const chat: ChatMessage = { role: m.role, content: m.content };
  if (m.name !== undefined) chat.name = m.name;
  if (m.tool_calls !== undefined) chat.tool_calls = m.tool_calls;
  if (m.tool_call_id !== undefined) chat.tool_call_id = m.tool_call_id;
  return chat;
}

/** Builds the context of one request within its token budget. Pure: nothing is written. */
export function assembleContext(input: ContextInput): AssembledContext {
  const { options, counter } = input;
  const facts = input.facts ?? [];
  const ledger = new BudgetLedger(planBudget(input.budget ?? options.budget, options.shares));
  const messages: ChatMessage[] = input.system.map(toChatMessage);
  const systemTokens = sumTokens(input.system);
  ledger.spend(systemTokens);

  let summaryTokens = 0;
  let summaryInfo: AssembledContext["summary"] = null;
  if (input.summary && input.summary.text.trim() !== "") {
    const part = summarySection(input.summary, options.summaryLabel, ledger.allowance("summary"), counter);
    if (part) {
      messages.push({ role: "system", content: part.content });
      summaryTokens = part.tokens;
      ledger.spend(part.tokens);
      const { version, covered, method } = input.summary;
      summaryInfo = { version, tokens: part.tokens, covered, method, truncated: part.truncated };
    }
  }

  const factsAllowance = ledger.allowance("facts");
  const select = (factTokens: number) =>
    selectWindow(input.window, {
      limit: options.window,
      allowance: ledger.remaining - factTokens,
      importanceThreshold: options.importanceThreshold,
    });
  let factPart = facts.length > 0 ? factsSection(facts, options.factsLabel, factsAllowance, counter) : null;
  let selected = select(factPart?.tokens ?? 0);
  // A fact whose source message the window still shows would say the same thing twice: leave it
  // out. The window then gets more room, so it keeps every message it had (and maybe more).
  const shown = new Set(selected.messages.map((m) => m.id));
  const repeats = (r: RecalledFact) =>
    r.fact.sourceSession === input.sessionId && r.fact.sourceMessage !== undefined && shown.has(r.fact.sourceMessage);
  if (input.sessionId && factPart?.included.some(repeats)) {
    const rest = facts.filter((r) => !repeats(r));
    factPart = rest.length > 0 ? factsSection(rest, options.factsLabel, factsAllowance, counter) : null;
    selected = select(factPart?.tokens ?? 0);
  }
  if (factPart) {
    messages.push({ role: "system", content: factPart.content });
    ledger.spend(factPart.tokens);
  }
  const windowAllowance = ledger.remaining;
  for (const m of selected.messages) messages.push(toChatMessage(m));
  ledger.spend(selected.tokens);

  const factTokens = factPart?.tokens ?? 0;
  return {
    messages,
    tokens: {
      system: systemTokens,
      summary: summaryTokens,
      facts: factTokens,
      window: selected.tokens,
      total: systemTokens + summaryTokens + factTokens + selected.tokens,
    },
    budget: ledger.report(windowAllowance, systemTokens),
    omitted: {
      window: selected.omitted,
      facts: facts.length - (factPart?.included.length ?? 0),
      summary: input.summary !== null && summaryInfo === null && input.summary.text.trim() !== "",
    },
    summary: summaryInfo,
    facts: factPart?.included ?? [],
    windowIds: selected.messages.map((m) => m.id),
  };
}
