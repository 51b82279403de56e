/** @module Builds the `/openapi.json` document in Node, without Worker bindings or network. */
import { buildApp } from "../src/http/app.ts";
import type { RuntimeFactory } from "../src/http/context-types.ts";
import { openApiDocument, type OpenAPIDocument } from "../src/http/docs/openapi-document.ts";

// The routes register their schemas when the app is built; no request is served, so no runtime is needed.
const noRuntime: RuntimeFactory = () => {
  throw new Error("the spec is built without a runtime: no request can be served");
};

/** The document `GET /openapi.json` serves, built in Node without bindings or network. */
export function buildSpec(): OpenAPIDocument {
  return openApiDocument(buildApp(noRuntime));
}
