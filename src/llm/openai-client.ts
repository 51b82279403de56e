/** @module Builds the OpenAI SDK client from explicit options (never process.env), with timeout and retry defaults for Workers. */
import OpenAI from "openai";

/** How to reach an OpenAI-compatible API. Nothing here is read from the environment. */
export interface OpenAIClientOptions {
  /** API key. Local OpenAI-compatible servers often accept any non-empty string. */
  apiKey: string;
  /** Base URL of any OpenAI-compatible API. Default `https://api.openai.com/v1`. */
  baseURL?: string | undefined;
  /**
   * Timeout of one attempt, in ms (until the response headers arrive). Default 15000: the SDK's
   * own default (10 min) would outlive a Worker's 30 s `waitUntil` window.
   */
  timeoutMs?: number | undefined;
  /** Retries after a connection error, 408/409/429 or 5xx. Default 1 (SDK default: 2). */
  maxRetries?: number | undefined;
  /** The fetch to use. Default: the global `fetch` (workerd, Node 20, browsers). */
  fetch?: typeof fetch | undefined;
}

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_LLM_TIMEOUT_MS = 15_000;
export const DEFAULT_LLM_MAX_RETRIES = 1;

/**
 * Builds an `OpenAI` client from explicit options. Every option the SDK would otherwise take from
 * `process.env` (base URL, organization, project, admin key, webhook secret, log level) is set
 * here, so the client behaves the same in workerd, where there is no `process`, and in Node tests.
 */
export function createOpenAIClient(options: OpenAIClientOptions): OpenAI {
  if (!options.apiKey) throw new TypeError("createOpenAIClient: apiKey is required");
  return new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? DEFAULT_OPENAI_BASE_URL,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    logLevel: "warn",
    timeout: options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_LLM_MAX_RETRIES,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
