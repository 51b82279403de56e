/**
 * @module Assembling a session's context: the window a budget allows, the rolling summary, recalled facts and notes, in the order a model reads them.
 */
export type { WindowStats } from "./window.ts";
