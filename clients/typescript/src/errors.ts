/** The one error both clients throw. */

import type { ErrorReason } from "./types.js";

/** `google.rpc.Code` names, by number. */
export const CODES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

export type CodeName = (typeof CODES)[number];

/** The name of a `google.rpc.Code` number (`UNKNOWN` for a number it does not know). */
export function codeName(code: number): CodeName {
  return CODES[code] ?? "UNKNOWN";
}

export interface DominoRulesErrorInit {
  /** The `google.rpc.Code` number. */
  grpcCode: number;
  /** The `ErrorInfo.reason`, when the answer carried one. */
  reason?: ErrorReason | (string & {}) | undefined;
  /** The HTTP status of a REST answer. */
  httpStatus?: number | undefined;
  /** `ErrorInfo.metadata`. */
  metadata?: Readonly<Record<string, string>> | undefined;
  /** Which door answered. */
  door: "rest" | "grpc";
  /** The `x-request-id` of the call, when the answer named it. */
  requestId?: string | undefined;
  /** The error that caused this one (a network failure, a gRPC `ServiceError`). */
  cause?: unknown;
}

/**
 * What the service refused, or why it could not be reached: the same on both doors.
 *
 * `reason` is what a program should look at (`ILLEGAL_MOVE`, `STALE_STATE`, ...); `code`
 * is the gRPC status name; `httpStatus` is the REST answer's status.
 */
export class DominoRulesError extends Error {
  override readonly name = "DominoRulesError";
  /** The gRPC status name: `INVALID_ARGUMENT`, `FAILED_PRECONDITION`, `ABORTED`, `UNAVAILABLE`, ... */
  readonly code: CodeName;
  /** The gRPC status number (`google.rpc.Code`). */
  readonly grpcCode: number;
  /**
   * The `ErrorInfo.reason`: `ILLEGAL_MOVE`, `NOT_YOUR_TURN`, `STALE_STATE`, ...;
   * `undefined` when no answer came or the transport refused the call without one.
   */
  readonly reason: ErrorReason | (string & {}) | undefined;
  /** The HTTP status of the REST answer; `undefined` over gRPC or when no answer came. */
  readonly httpStatus: number | undefined;
  /** `ErrorInfo.metadata` (`STALE_STATE`: the state's `version`); usually empty. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Which door answered: `rest` or `grpc`. */
  readonly door: "rest" | "grpc";
  /** The call's `x-request-id`, when the answer carried it: quote it when reporting a problem. */
  readonly requestId: string | undefined;

  constructor(message: string, init: DominoRulesErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.grpcCode = init.grpcCode;
    this.code = codeName(init.grpcCode);
    this.reason = init.reason;
    this.httpStatus = init.httpStatus;
    this.metadata = init.metadata ?? {};
    this.door = init.door;
    this.requestId = init.requestId;
  }
}

/** Code numbers used by the clients themselves. */
export const Code = {
  CANCELLED: 1,
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;
