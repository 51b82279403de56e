// A chat page on the Agent Memory API in plain browser JavaScript: no build, no dependency.
//
// It calls POST /v1/sessions/{sessionId}/chat with `stream: true` and reads the server-sent events
// (`delta`, then `done` with the stored reply and what memory injected, or `error`). The page is
// served by serve.ts, which also forwards /v1 to the API, so the browser sees one origin.
//
// Moving to scoped tokens and CORS (once the service has POST /v1/tokens and CORS_ORIGINS):
//  1. your backend keeps the tenant key and calls POST /v1/tokens for the signed-in user (and
//     session), handing the page the short-lived token it returns;
//  2. the page sends that token as `Authorization: Bearer <token>` instead of the key field below;
//  3. with the page's origin in CORS_ORIGINS, set API_BASE to the service's URL and drop the proxy.
"use strict";

const API_BASE = "";
const $ = (id) => document.getElementById(id);

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
  const tokens = memory.contextTokens && memory.contextTokens.total;
  return `memory: ${recalled} fact(s) recalled${tokens ? `, context ${tokens} tokens` : ""}`;
}

async function send(message) {
  const sessionId = encodeURIComponent($("session").value.trim());
  addTurn("user", message);
  const reply = addTurn("assistant", "");
  $("send").disabled = true;
  try {
    const response = await fetch(`${API_BASE}/v1/sessions/${sessionId}/chat`, {
      method: "POST",
      headers: { authorization: `Bearer ${$("key").value.trim()}`, "content-type": "application/json" },
      body: JSON.stringify({ message, userId: $("user").value.trim() || undefined, stream: true }),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      throw new Error(body && body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`);
    }
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

// `?say=...` sends one message on load: a link that opens a conversation, and a smoke test.
const say = new URLSearchParams(location.search).get("say");
if (say) void send(say);
