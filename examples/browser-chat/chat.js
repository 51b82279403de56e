// A chat page on the Agent Memory API in plain browser JavaScript: no build, no dependency.
//
// The page never sees an API key. It asks its own backend (serve.ts, POST /token) for a short-lived
// token bound to one user and one session, then calls the API directly, cross-origin, with
// `Authorization: Bearer <token>`; the API lets this origin in through CORS_ORIGINS. A token is
// minted again a minute before it expires, and whenever the user or the session changes.
//
// A chat turn is POST /v1/sessions/{sessionId}/chat with `stream: true`, read as server-sent events
// (`delta`, then `done` with the stored reply and what memory injected, or `error`). What memory
// holds for the session is shown from GET /v1/sessions/{sessionId}/context.

const REFRESH_BEFORE_MS = 60_000;
const $ = (id) => document.getElementById(id);

/** The current token: {token, expiresAt, apiBase, userId, sessionId}, or null before the first. */
let credential = null;

function who() {
  return { userId: $("user").value.trim() || "browser-user", sessionId: $("session").value.trim() || "browser-chat" };
}

/** A token for the chosen user and session, minted anew when it is about to expire or they changed. */
async function token() {
  const { userId, sessionId } = who();
  const fresh =
    credential &&
    credential.userId === userId &&
    credential.sessionId === sessionId &&
    credential.expiresAt - Date.now() > REFRESH_BEFORE_MS;
  if (fresh) return credential;
  const response = await fetch("/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userId, sessionId }),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error ? `token: ${body.error.code}: ${body.error.message}` : `token: HTTP ${response.status}`);
  credential = { ...body, userId, sessionId };
  $("expires").textContent = `token for ${userId} / ${sessionId} until ${new Date(body.expiresAt).toLocaleTimeString()}`;
  return credential;
}

/** fetch() against the API with the current token; throws with the service's error code. */
async function api(path, init = {}) {
  const { token: bearer, apiBase, sessionId } = await token();
  const response = await fetch(`${apiBase}/v1/sessions/${encodeURIComponent(sessionId)}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
  });
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new Error(body?.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`);
  }
  return response;
}

function addTurn(role, text) {
  const div = document.createElement("div");
  div.className = `turn ${role}`;
  div.textContent = text;
  $("log").append(div);
  div.scrollIntoView({ block: "end" });
  return div;
}

/** Yields {event, data} for each server-sent event of a fetch response body. */
async function* serverSentEvents(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    buffer += decoder.decode(value, { stream: !done }).replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length > 0) yield { event, data: JSON.parse(data.join("\n")) };
    }
    if (done) return;
  }
}

function describeMemory(memory) {
  if (!memory) return "";
  const recalled = Array.isArray(memory.recalled) ? memory.recalled.length : 0;
  const tokens = memory.contextTokens?.total;
  return `memory: ${recalled} fact(s) recalled${tokens ? `, context ${tokens} tokens` : ""}`;
}

/** Shows what memory holds for the session: the window as turns, the rest (system, summary, facts) as a note. */
async function showContext() {
  $("log").replaceChildren();
  try {
    const context = await (await api("/context")).json();
    for (const m of context.messages) {
      if (m.role === "user" || m.role === "assistant") addTurn(m.role, m.content);
    }
    const t = context.tokens;
    addTurn(
      "meta",
      `context: ${context.stats.messages} message(s) stored; ${t.total} tokens (system ${t.system}, summary ${t.summary}, facts ${t.facts}, window ${t.window})`,
    );
  } catch (err) {
    addTurn("error", String(err.message || err));
  }
}

async function send(message) {
  addTurn("user", message);
  const reply = addTurn("assistant", "");
  $("send").disabled = true;
  try {
    const response = await api("/chat", { method: "POST", body: JSON.stringify({ message, userId: who().userId, stream: true }) });
    for await (const { event, data } of serverSentEvents(response.body)) {
      if (event === "delta") reply.textContent += data.content;
      else if (event === "error") throw new Error(`${data.error.code}: ${data.error.message}`);
      else if (event === "done") {
        reply.textContent = data.reply.content;
        addTurn("meta", describeMemory(data.memory));
      }
    }
  } catch (err) {
    reply.remove();
    addTurn("error", String(err.message || err));
  } finally {
    $("send").disabled = false;
  }
}

$("form").addEventListener("submit", (event) => {
  event.preventDefault();
  const message = $("message").value.trim();
  if (!message) return;
  $("message").value = "";
  void send(message);
});

for (const id of ["user", "session"]) $(id).addEventListener("change", () => void showContext());

// `?say=...` sends one message on load: a link that opens a conversation, and a smoke test.
const say = new URLSearchParams(location.search).get("say");
void showContext().then(() => (say ? send(say) : undefined));
