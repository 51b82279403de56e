// The inspector's traces panel: a session's latest turns, a page at a time, and one trace in detail.
import { $, clip, el, row } from "./dom.js";

/** Turns listed per page; the server keeps a session's latest 20. */
const TRACE_PAGE = 10;
const TRACES_KEPT = 20;

/** What the panel reads with: the page's API call, its state and its error line (set by inspector.js). */
let api;
let state;
let showError;

export function initTraces(deps) {
  ({ api, state, showError } = deps);
}

/** The session's latest turns, newest first: the first page now, earlier ones on "Earlier turns". */
export async function loadTraces() {
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

export function renderTrace(trace) {
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
