/**
 * `domino-rules-client`: the REST door, over `fetch`, for browsers and servers, and the
 * match records both doors replay. The gRPC door (Node) is the `domino-rules-client/grpc`
 * entry point.
 */
export { DominoRulesClient, type ClientOptions } from "./rest.js";
export { MatchRecorder, RECORD_FORMAT, type MatchRecorderInit } from "./records.js";
export { CODES, DominoRulesError, codeName, type CodeName, type DominoRulesErrorInit } from "./errors.js";
export * from "./types.js";
export type { components, operations, paths } from "./schema.js";
