import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";

/** Serves `/openapi.json` (generated from the route schemas) and a self-contained `/docs` page. */
export function mountDocs(app: OpenAPIHono<AppEnv>): void {
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Agent Memory",
      version: "1.0.0",
      description: "Memory for AI chat agents: short-term window, rolling summary, working notes, long-term facts.",
    },
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  app.get("/docs", (c) => c.html(DOCS_PAGE));
}

// No CDN: the page must work offline, so it renders the spec itself.
const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Agent Memory API</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem}
code,pre{background:#f4f4f4;padding:2px 4px;border-radius:3px}h2{margin-top:2rem}
.op{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:.5rem 0}.m{font-weight:700;text-transform:uppercase;width:4.5rem;display:inline-block}
details pre{overflow:auto;max-height:24rem}</style></head>
<body><h1>Agent Memory API</h1><p>Authenticate with <code>Authorization: Bearer &lt;key&gt;</code>. Raw spec: <a href="/openapi.json">/openapi.json</a>.</p>
<div id="ops">Loading...</div>
<script>
fetch("/openapi.json").then(r=>r.json()).then(spec=>{
  const root=document.getElementById("ops");root.textContent="";
  for(const [path,item] of Object.entries(spec.paths||{})){
    for(const [method,op] of Object.entries(item)){
      const d=document.createElement("div");d.className="op";
      const h=document.createElement("div");
      const m=document.createElement("span");m.className="m";m.textContent=method;
      const p=document.createElement("code");p.textContent=path;
      h.append(m,p," ",op.summary||"");d.append(h);
      const det=document.createElement("details");const s=document.createElement("summary");s.textContent="schema";
      const pre=document.createElement("pre");pre.textContent=JSON.stringify({parameters:op.parameters,requestBody:op.requestBody,responses:op.responses},null,2);
      det.append(s,pre);d.append(det);root.append(d);
    }
  }
});
</script></body></html>`;
