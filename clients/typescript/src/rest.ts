/**
 * The REST door, over the platform's `fetch` only (browsers, Node 20+, Deno, Bun): no
 * Node built-ins, so it bundles for the browser as it is.
 */

import { Code, DominoRulesError } from "./errors.js";
import {
  ROUTES,
  type ApplyMoveRequest,
  type ApplyMoveResponse,
  type CallOptions,
  type DominoRules,
  type ErrorBody,
  type GetLegalMovesRequest,
  type GetLegalMovesResponse,
  type GetScoreRequest,
  type GetScoreResponse,
  type GetViewRequest,
  type GetViewResponse,
  type ListRulesetsResponse,
  type NewGameRequest,
  type NewGameResponse,
  type ReplayRequest,
  type ReplayResponse,
  type RequestOf,
  type ResponseOf,
  type Rpc,
  type SuggestMoveRequest,
  type SuggestMoveResponse,
} from "./types.js";

export interface ClientOptions {
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /** Headers sent with every call (authentication at a proxy, tracing). */
  headers?: Record<string, string>;
  /** Milliseconds before a call is abandoned (default 30 000). */
  timeoutMs?: number;
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== "object" || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.code === "number" && typeof body.message === "string" && Array.isArray(body.details);
}

/** The `signal` of a call: the caller's, the timeout, whichever comes first. */
function callSignal(timeoutMs: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
}

/** A client of the REST door: `new DominoRulesClient("http://127.0.0.1:8080")`. */
export class DominoRulesClient implements DominoRules {
  readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;

  constructor(baseUrl = "http://127.0.0.1:8080", options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.headers = options.headers ?? {};
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Call an RPC by name; every method below is one line over this. */
  async call<Op extends Rpc>(
    rpc: Op,
    body: RequestOf<Op> | undefined,
    options: CallOptions = {},
  ): Promise<ResponseOf<Op>> {
    const route = ROUTES[rpc];
    const headers: Record<string, string> = { Accept: "application/json", ...this.headers };
    if (options.requestId !== undefined) headers["x-request-id"] = options.requestId;
    const init: RequestInit = {
      method: route.method,
      headers,
      signal: callSignal(options.timeoutMs ?? this.timeoutMs, options.signal),
    };
    if (route.method === "POST") {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body ?? {});
    }
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(this.baseUrl + route.path, init);
      text = await response.text();
    } catch (error) {
      const aborted = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      const grpcCode = !aborted
        ? Code.UNAVAILABLE
        : error.name === "TimeoutError"
          ? Code.DEADLINE_EXCEEDED
          : Code.CANCELLED;
      const what = error instanceof Error ? error.message : String(error);
      throw new DominoRulesError(`${rpc}: no answer from ${this.baseUrl}: ${what}`, {
        grpcCode,
        door: "rest",
        requestId: options.requestId,
        cause: error,
      });
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.ok && parsed !== undefined) return parsed as ResponseOf<Op>;
    const requestId = response.headers.get("x-request-id") ?? options.requestId;
    if (isErrorBody(parsed)) {
      const info = parsed.details[0];
      throw new DominoRulesError(parsed.message, {
        grpcCode: parsed.code,
        reason: info?.reason,
        httpStatus: response.status,
        metadata: info?.metadata,
        door: "rest",
        requestId,
      });
    }
    throw new DominoRulesError(`${rpc}: HTTP ${response.status} ${text.slice(0, 200)}`, {
      grpcCode: response.status >= 500 ? Code.UNAVAILABLE : Code.UNKNOWN,
      httpStatus: response.status,
      door: "rest",
      requestId,
    });
  }

  listRulesets(options?: CallOptions): Promise<ListRulesetsResponse> {
    return this.call("ListRulesets", undefined, options);
  }

  newGame(request: NewGameRequest, options?: CallOptions): Promise<NewGameResponse> {
    return this.call("NewGame", request, options);
  }

  getLegalMoves(request: GetLegalMovesRequest, options?: CallOptions): Promise<GetLegalMovesResponse> {
    return this.call("GetLegalMoves", request, options);
  }

  applyMove(request: ApplyMoveRequest, options?: CallOptions): Promise<ApplyMoveResponse> {
    return this.call("ApplyMove", request, options);
  }

  getScore(request: GetScoreRequest, options?: CallOptions): Promise<GetScoreResponse> {
    return this.call("GetScore", request, options);
  }

  getView(request: GetViewRequest, options?: CallOptions): Promise<GetViewResponse> {
    return this.call("GetView", request, options);
  }

  suggestMove(request: SuggestMoveRequest, options?: CallOptions): Promise<SuggestMoveResponse> {
    return this.call("SuggestMove", request, options);
  }

  replay(request: ReplayRequest, options?: CallOptions): Promise<ReplayResponse> {
    return this.call("Replay", request, options);
  }

  /** `true` when the gateway answers `GET /healthz`. */
  async healthy(options: CallOptions = {}): Promise<boolean> {
    try {
      const response = await this.fetch(`${this.baseUrl}/healthz`, {
        signal: callSignal(options.timeoutMs ?? this.timeoutMs, options.signal),
      });
      return response.ok;
    } catch {
      return false;
    }
  }
}
