// The inspector: plain browser JavaScript over the public API (no build step, nothing from a CDN).
// The API key lives in sessionStorage only: never in the URL, gone when the tab closes.

import { $, age, clip, el, fillTable, reveal, row } from "./dom.js";
import { initTraces, loadTraces, renderTrace } from "./traces.js";

const KEY_STORE = "agent-memory.inspector.key";

const state = { userId: "", sessionId: "", traces: [], tracesShown: 0, facts: [] };

function apiKey() {
  return sessionStorage.getItem(KEY_STORE) ?? "";
}

class ApiFailure extends Error {}

async function api(path) {
  const key = apiKey();
  if (!key) throw new ApiFailure("enter an API key first");
  const res = await fetch(path, { headers: { authorization: `Bearer ${key}` } });
  const body = await res.json().catch(() => null);
  // A key that is refused must not leave what another key read on screen.
  if (res.status === 401 || res.status === 403) clearShown();
  if (!res.ok) throw new ApiFailure(`${res.status}: ${body?.error?.message ?? res.statusText}`);
  return body;
}

const PANELS = ["budget-panel", "system-panel", "summary-panel", "window-panel", "archive-panel", "facts-panel", "traces-panel"];

/** Hides and empties every panel and the session list: nothing read with an earlier key stays shown. */
function clearShown() {
  state.sessionId = "";
  state.traces = [];
  state.tracesShown = 0;
  state.facts = [];
  for (const id of PANELS) $(id).hidden = true;
  for (const id of ["window", "archive", "facts"]) fillTable(id, []);
  for (const id of ["session-select", "system", "summary-meta", "budget-bar", "budget-legend", "traces", "trace-detail"])
    $(id).replaceChildren();
  $("summary-text").textContent = "";
}

function showError(err) {
  $("error").textContent = err instanceof Error ? err.message : String(err);
}

// --- key, user, session ---------------------------------------------------------------------

function showKeyStatus() {
  $("key-status").textContent = apiKey() ? "key set for this tab" : "no key";
}

$("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const value = $("api-key").value.trim();
  if (value) sessionStorage.setItem(KEY_STORE, value);
  $("api-key").value = "";
  initTraces({ api, state, showError });
  showKeyStatus();
  $("user-id").focus();
});

$("forget-key").addEventListener("click", () => {
  sessionStorage.removeItem(KEY_STORE);
  clearShown();
  initTraces({ api, state, showError });
  showKeyStatus();
});

$("user-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  state.userId = $("user-id").value.trim();
  try {
    const page = await api(`/v1/users/${encodeURIComponent(state.userId)}/sessions?limit=100`);
    const select = $("session-select");
    select.replaceChildren(
      ...page.sessions.map((s) => {
        const option = el("option", `${s.sessionId} · ${s.messages} messages${s.title ? ` · ${clip(s.title, 40)}` : ""}`);
        option.value = s.sessionId;
        return option;
      }),
    );
    if (page.sessions.length === 0) showError(`no sessions for ${state.userId}`);
    else select.focus();
  } catch (err) {
    showError(err);
  }
});

async function openSession(sessionId) {
  showError("");
  state.sessionId = sessionId;
  if (!state.sessionId) return showError("pick a session");
  try {
    await inspect();
  } catch (err) {
    showError(err);
  }
}

$("session-form").addEventListener("submit", (event) => {
  event.preventDefault();
  openSession($("session-id").value.trim() || $("session-select").value);
});

// Picking a session in the list opens it (the id field is for sessions not listed).
$("session-select").addEventListener("change", () => {
  $("session-id").value = "";
  openSession($("session-select").value);
});

$("query-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  try {
    await readContext($("query").value.trim());
    await loadTraces();
  } catch (err) {
    showError(err);
  }
});

// --- panels ---------------------------------------------------------------------------------

async function inspect() {
  const sid = encodeURIComponent(state.sessionId);
  const [session, history] = await Promise.all([api(`/v1/sessions/${sid}`), api(`/v1/sessions/${sid}/history?limit=100`)]);
  if (!state.userId && session.userId) state.userId = session.userId;
  renderSystem(session.system ?? []);
  renderSummary(session.summary);
  renderWindow(session.window ?? []);
  renderArchive(history.archived ?? []);
  await Promise.all([readContext(""), state.userId ? loadFacts() : Promise.resolve()]);
  await loadTraces();
  reveal(...PANELS);
}

function renderSystem(system) {
  const box = $("system");
  box.replaceChildren(
    ...(system.length === 0
      ? [el("p", "none pinned", "dropped")]
      : system.map((m) => el("pre", `${m.content}\n(${m.tokens} tokens)`, "msg"))),
  );
}

function renderSummary(summary) {
  const meta = $("summary-meta");
  if (!summary) {
    meta.replaceChildren(el("dt", "Summary"), el("dd", "none yet"));
    $("summary-text").textContent = "";
    return;
  }
  const items = [
    ["Version", summary.version],
    ["Covers", `${summary.covered} messages`],
    ["Method", summary.method],
    ["Tokens", summary.tokens],
    ["Last ratio", summary.lastRatio],
    ["Updated", `${age(summary.updatedAt)} ago`],
  ];
  meta.replaceChildren(...items.flatMap(([k, v]) => [el("dt", k), el("dd", v)]));
  $("summary-text").textContent = summary.text;
}

/** What a message says: its text, the tools an assistant message calls, the call a tool result answers. */
function messageText(m) {
  const parts = [];
  if (m.role === "tool") parts.push(`result of ${m.tool_call_id ?? "a tool call"}${m.name ? ` (${m.name})` : ""}:`);
  if (m.content) parts.push(m.content);
  for (const call of m.tool_calls ?? []) parts.push(`calls ${call.function.name}(${clip(call.function.arguments, 200)}) [${call.id}]`);
  return parts.join(" ");
}

function renderWindow(window) {
  fillTable(
    "window",
    window.map((m, i) => row([[i + 1, "num"], [m.role], [m.tokens, "num"], [m.importance, "num"], [clip(messageText(m)), "text"]])),
  );
  $("window-h").textContent = `Window (${window.length} messages, ${window.reduce((s, m) => s + m.tokens, 0)} tokens)`;
}

function renderArchive(archived) {
  fillTable(
    "archive",
    archived.map((m) => row([[m.role], [m.tokens, "num"], [clip(messageText(m)), "text"]])),
  );
  $("archive-h").textContent = `Archived originals (${archived.length})`;
}

async function loadFacts() {
  const page = await api(`/v1/users/${encodeURIComponent(state.userId)}/facts?limit=100`);
  state.facts = page.facts ?? [];
  renderFacts();
}

/** A fact's value cell: a superseded one is struck through after a badge with the date it stopped being true. */
function factValue(f) {
  const td = el("td", undefined, "text");
  if (f.supersededAt) {
    const when = new Date(f.supersededAt);
    const badge = el("span", `superseded ${when.toISOString().slice(0, 10)}`, "badge superseded-badge");
    badge.title = `superseded ${when.toLocaleString()}${f.supersededBy ? ` by fact ${f.supersededBy}` : ""}`;
    td.append(badge, " ", el("s", f.text));
  } else td.textContent = f.text;
  return td;
}

function renderFacts() {
  const currentOnly = $("facts-current-only").checked;
  const shown = currentOnly ? state.facts.filter((f) => !f.supersededAt) : state.facts;
  fillTable(
    "facts",
    shown.map((f) => {
      const tr = row([[f.type], [f.importance, "num"], [age(f.createdAt), "num"], [f.accessCount, "num"]]);
      tr.append(factValue(f));
      if (f.supersededAt) tr.className = "superseded";
      return tr;
    }),
  );
  const superseded = state.facts.filter((f) => f.supersededAt).length;
  $("facts-h").textContent =
    `Facts of ${state.userId} (${state.facts.length - superseded} current${superseded > 0 ? `, ${superseded} superseded` : ""})`;
}

$("facts-current-only").addEventListener("change", renderFacts);

const PARTS = ["system", "summary", "facts", "window"];

async function readContext(query) {
  const params = new URLSearchParams({ trace: "true" });
  if (state.userId) params.set("userId", state.userId);
  if (query) params.set("query", query);
  const context = await api(`/v1/sessions/${encodeURIComponent(state.sessionId)}/context?${params}`);
  renderBudget(context);
  if (context.trace) renderTrace(context.trace);
}

function renderBudget(context) {
  const { budget, tokens } = context;
  const total = Math.max(1, budget.total);
  const bar = $("budget-bar");
  const spans = PARTS.filter((p) => tokens[p] > 0).map((p) => {
    const span = el("span", undefined, `part-${p}`);
    span.style.width = `${(100 * tokens[p]) / total}%`;
    span.title = `${p}: ${tokens[p]} tokens`;
    return span;
  });
  const reserve = el("span", undefined, "part-reserve");
  reserve.style.width = `${(100 * budget.reserve) / total}%`;
  reserve.style.marginLeft = "auto";
  reserve.title = `reply reserve: ${budget.reserve} tokens`;
  bar.replaceChildren(...spans, reserve);
  bar.setAttribute("aria-label", `${tokens.total} of ${budget.available} available tokens used (budget ${budget.total})`);
  const legend = $("budget-legend");
  legend.replaceChildren(
    ...PARTS.map((p) => {
      const li = el("li");
      li.dataset.part = p;
      li.append(el("i", undefined, `part-${p}`), `${p} ${tokens[p]} / ${p === "window" ? budget.windowAllowance : budget.caps[p]}`);
      return li;
    }),
    el("li", `used ${tokens.total} of ${budget.available} (reserve ${budget.reserve})`),
    el("li", `omitted: ${context.omitted.window} window, ${context.omitted.facts} facts${context.omitted.summary ? ", summary" : ""}`),
  );
}

initTraces({ api, state, showError });
showKeyStatus();
