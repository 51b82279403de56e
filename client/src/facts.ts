/** @module FactsClient: one user's long-term facts through the API (add, recall, list, get, update, delete). */
import type { Client } from "openapi-fetch";
import { toQuery, unwrap } from "./call.ts";
import { MemoryApiError } from "./errors.ts";
import type { paths } from "./schema.ts";
import type { FactList, FactPatch, FactRecall, FactResult, FactsPage, NewFact, QueryInput, QueryParams, Success } from "./types.ts";

type SearchQuery = QueryInput<QueryParams<"searchFacts">>;

/** `searchFacts` answers a recall when asked with `query`, a page of all facts without. */
const isRecall = (page: FactsPage): page is FactRecall => "query" in page;

function expected<T extends FactsPage>(page: FactsPage, is: (p: FactsPage) => p is T, what: string): T {
  if (!is(page))
    throw new MemoryApiError(200, "unexpected_answer", `expected ${what} from GET /v1/users/{userId}/facts`, undefined, undefined);
  return page;
}

/** One user's long-term facts: add, recall by meaning, list page by page, get, update, delete. */
export class FactsClient {
  constructor(
    private readonly api: Client<paths>,
    readonly userId: string,
  ) {}

  private get path(): { userId: string } {
    return { userId: this.userId };
  }

  /** Stores a fact; the same text twice is one fact (`created: false` the second time). */
  add(fact: NewFact): Promise<Success<"addFact">> {
    return unwrap(this.api.POST("/v1/users/{userId}/facts", { params: { path: this.path }, body: fact }));
  }

  /** The facts most relevant to `query`, best first (`k`, `types`, `minScore` narrow it). */
  async recall(query: string, options: Omit<SearchQuery, "query" | "cursor" | "limit"> = {}): Promise<FactRecall> {
    const page = await unwrap(
      this.api.GET("/v1/users/{userId}/facts", { params: { path: this.path, query: toQuery({ ...options, query }) } }),
    );
    return expected(page, isRecall, "recalled facts");
  }

  /** One page of every fact; pass the answer's `nextCursor` back as `cursor` for the next page. */
  async list(
    options: Pick<SearchQuery, "cursor" | "limit" | "types" | "agentId" | "createdAfter" | "createdBefore"> = {},
  ): Promise<FactList> {
    const page = await unwrap(this.api.GET("/v1/users/{userId}/facts", { params: { path: this.path, query: toQuery(options) } }));
    return expected(page, (p): p is FactList => !isRecall(p), "a page of facts");
  }

  get(factId: string): Promise<FactResult> {
    return unwrap(this.api.GET("/v1/users/{userId}/facts/{factId}", { params: { path: { ...this.path, factId } } }));
  }

  /** Changes a fact; a new text keeps the old one in the fact's history. */
  update(factId: string, patch: FactPatch): Promise<Success<"updateFact">> {
    return unwrap(this.api.PATCH("/v1/users/{userId}/facts/{factId}", { params: { path: { ...this.path, factId } }, body: patch }));
  }

  delete(factId: string): Promise<Success<"deleteFact">> {
    return unwrap(this.api.DELETE("/v1/users/{userId}/facts/{factId}", { params: { path: { ...this.path, factId } } }));
  }
}
