// The inspector: plain browser JavaScript over the public API (no build step, nothing from a CDN).
// The API key lives in sessionStorage only: never in the URL, gone when the tab closes.

const KEY_STORE = "agent-memory.inspector.key";
const $ = (id) => document.getElementById(id);

const state = { userId: "", sessionId: "", traces: [], tracesShown: 0 };

/** Turns listed per page; the server keeps a session's latest 20. */
const TRACE_PAGE = 10;
const TRACES_KEPT = 20;

function apiKey() {
  return sessionStorage.getItem(KEY_STORE) ?? "";
}

class ApiFailure extends Error {}

async function api(path) {
  const key = apiKey();
  if (!key) throw new ApiFailure("enter an API key first");
  const res = await fetch(path, { headers: { authorization: `Bearer ${key}` } });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiFailure(`${res.status}: ${body?.error?.message ?? res.statusText}`);
  return body;
}

function showError(err) {
  $("error").textContent = err instanceof Error ? err.message : String(err);
}

/** An element with text (never HTML: everything shown comes from stored data). */
function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function row(cells) {
  const tr = document.createElement("tr");
  for (const [text, className] of cells) tr.append(el("td", text, className));
  return tr;
}

const clip = (text, n = 400) => (text.length > n ? `${text.slice(0, n)}…` : text);

function age(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

function fillTable(id, rows) {
  const body = $(id).querySelector("tbody");
  body.replaceChildren(...rows);
}

function reveal(...ids) {
  for (const id of ids) $(id).hidden = false;
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
  showKeyStatus();
  $("user-id").focus();
});

$("forget-key").addEventListener("click", () => {
  sessionStorage.removeItem(KEY_STORE);
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
  reveal("budget-panel", "system-panel", "summary-panel", "window-panel", "archive-panel", "facts-panel", "traces-panel");
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
  const facts = page.facts ?? [];
  fillTable(
    "facts",
    facts.map((f) => row([[f.type], [f.importance, "num"], [age(f.createdAt), "num"], [f.accessCount, "num"], [f.text, "text"]])),
  );
  $("facts-h").textContent = `Facts of ${state.userId} (${facts.length})`;
}

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

/** The session's latest turns, newest first: the first page now, earlier ones on "Earlier turns". */
async function loadTraces() {
  const { traces } = await api(`/v1/sessions/${encodeURIComponent(state.sessionId)}/traces?limit=${TRACES_KEPT}`);
  state.traces = traces;
  state.tracesShown = 0;
  $("traces").replaceChildren();
  if (traces.length === 0) $("traces").replaceChildren(el("li", "no traces yet", "dropped"));
  await showMoreTraces();
}

/** What a turn was about: its recall query (the user's message for a chat turn). */
function traceLabel(ref, trace) {
  const when = new Date(ref.at).toLocaleTimeString();
  const query = trace?.recall?.query;
  return `${ref.kind} · ${when} · ${query ? `“${clip(query, 80)}”` : "no query"}`;
}

async function showMoreTraces() {
  const list = $("traces");
  list.querySelector("li.more")?.remove();
  const page = state.traces.slice(state.tracesShown, state.tracesShown + TRACE_PAGE);
  state.tracesShown += page.length;
  // Each trace is read once here, for its query; opening it shows what was read.
  const details = await Promise.all(page.map((t) => api(`/v1/traces/${encodeURIComponent(t.traceId)}`).catch(() => null)));
  list.append(
    ...page.map((t, i) => {
      const li = el("li");
      const button = el("button", traceLabel(t, details[i]));
      button.type = "button";
      button.dataset.traceId = t.traceId;
      button.addEventListener("click", async () => {
        try {
          renderTrace(details[i] ?? (await api(`/v1/traces/${encodeURIComponent(t.traceId)}`)));
        } catch (err) {
          showError(err);
        }
      });
      li.append(button);
      return li;
    }),
  );
  if (state.tracesShown < state.traces.length) {
    const li = el("li", undefined, "more");
    const more = el("button", `Earlier turns (${state.traces.length - state.tracesShown} more)`);
    more.type = "button";
    more.id = "traces-more";
    more.addEventListener("click", () => showMoreTraces().catch(showError));
    li.append(more);
    list.append(li);
  }
  $("traces-h").textContent = `Latest turns (${state.tracesShown} of ${state.traces.length})`;
}

function renderTrace(trace) {
  const box = $("trace-detail");
  const parts = [];
  parts.push(el("h3", `Trace ${trace.traceId} (${trace.kind})`));
  const meta = el("dl", undefined, "meta");
  const c = trace.context;
  const items = [
    [
      "Query",
      trace.recall ? `${trace.recall.query} (${trace.recall.mode}, k=${trace.recall.k}, min score ${trace.recall.minScore})` : "none",
    ],
    [
      "Injected",
      c
        ? `system ${c.system.tokens} + summary ${c.summary?.tokens ?? 0} + facts ${c.facts.tokens} + window ${c.window.tokens} = ${c.total} tokens`
        : "-",
    ],
    ["Round trips", trace.roundTrips.map((r) => `${r.name} ${r.ms} ms${r.ok ? "" : " (failed)"}`).join(", ") || "none"],
    ["Degraded", trace.degraded.length > 0 ? trace.degraded.join(", ") : "nothing"],
  ];
  meta.append(...items.flatMap(([k, v]) => [el("dt", k), el("dd", v)]));
  parts.push(meta);
  const candidates = trace.recall?.candidates ?? [];
  if (candidates.length > 0) {
    const table = el("table");
    table.id = "candidates";
    const head = el("thead");
    const hr = el("tr");
    for (const h of ["Verdict", "Similarity", "Score", "Type", "Fact"]) {
      const th = el("th", h);
      th.scope = "col";
      hr.append(th);
    }
    head.append(hr);
    const body = el("tbody");
    body.append(
      ...candidates.map((k) =>
        row([[k.reason, k.kept ? "kept" : "dropped"], [k.similarity, "num"], [k.score, "num"], [k.type], [clip(k.text, 200), "text"]]),
      ),
    );
    table.append(head, body);
    parts.push(table);
  }
  box.replaceChildren(...parts);
}

showKeyStatus();
