/**
 * A typed client of the REST door, over the platform's `fetch` (Node 18+, browsers,
 * Deno, Bun). The types come from the service's OpenAPI document (`npm run generate`
 * writes `schema.d.ts`); this file adds the calls and a typed error.
 *
 * ```ts
 * const client = new DominoRulesClient("http://127.0.0.1:8080");
 * const game = await client.newGame({ ruleset: "tiu_u", players: 2 });
 * const { moves } = await client.legalMoves({ state: game.state });
 * const next = await client.applyMove({ state: game.state, move: moves[0], expected_version: game.version });
 * ```
 */

import type { components, operations } from "./schema.js";

export type Schemas = components["schemas"];
export type Tile = Schemas["Tile"];
export type Move = Schemas["Move"];
export type MoveInput = Schemas["MoveInput"];
export type Event = Schemas["Event"];
export type Status = Schemas["Status"];
export type RulesetId = Schemas["NewGameRequest"]["ruleset"];
export type ErrorReason = Schemas["ErrorReason"];
export type ErrorBody = Schemas["google.rpc.Status"];

/** The RPCs, each with its HTTP method and path (checked against the document's paths). */
export const ROUTES = {
  ListRulesets: { method: "GET", path: "/v1/rulesets" },
  NewGame: { method: "POST", path: "/v1/games" },
  GetLegalMoves: { method: "POST", path: "/v1/games:legalMoves" },
  ApplyMove: { method: "POST", path: "/v1/games:applyMove" },
  GetScore: { method: "POST", path: "/v1/games:score" },
  GetView: { method: "POST", path: "/v1/games:view" },
} as const satisfies {
  [Op in keyof operations]?: { method: "GET" | "POST"; path: string };
};

export type Rpc = keyof typeof ROUTES;
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
/** The request body of an RPC (`never` for `ListRulesets`, which takes none). */
export type RequestOf<Op extends Rpc> = operations[Op] extends { requestBody: infer R }
  ? Json<R>
  : never;
/** The answer of an RPC. */
export type ResponseOf<Op extends Rpc> = Json<operations[Op]["responses"][200]>;

/** `google.rpc.Code` names, by number. */
const CODES = [
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

/** What the service refused, or why it could not be reached. */
export class DominoRulesError extends Error {
  override readonly name = "DominoRulesError";

  constructor(
    message: string,
    /** The `google.rpc.Code` name: `INVALID_ARGUMENT`, `FAILED_PRECONDITION`, `ABORTED`, ... */
    readonly code: string,
    /** The `ErrorInfo.reason`: `ILLEGAL_MOVE`, `STALE_STATE`, ... (`UNAVAILABLE` when unreachable). */
    readonly reason: ErrorReason | "UNAVAILABLE" | (string & {}),
    /** The HTTP status; `undefined` when no answer came. */
    readonly httpStatus: number | undefined,
    /** `ErrorInfo.metadata` (`STALE_STATE`: the state's `version`). */
    readonly metadata: Readonly<Record<string, string>> = {},
    /** The error body as the service sent it. */
    readonly body?: ErrorBody,
  ) {
    super(message);
  }

  static fromBody(body: ErrorBody, httpStatus: number): DominoRulesError {
    const info = body.details[0];
    return new DominoRulesError(
      body.message,
      CODES[body.code] ?? String(body.code),
      info?.reason ?? "UNKNOWN",
      httpStatus,
      info?.metadata ?? {},
      body,
    );
  }
}

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

export class DominoRulesClient {
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
  async call<Op extends Rpc>(rpc: Op, ...body: RequestOf<Op> extends never ? [] : [RequestOf<Op>]): Promise<ResponseOf<Op>> {
    const route = ROUTES[rpc];
    const init: RequestInit = {
      method: route.method,
      headers: { Accept: "application/json", ...this.headers },
      signal: AbortSignal.timeout(this.timeoutMs),
    };
    if (route.method === "POST") {
      init.headers = { ...init.headers, "Content-Type": "application/json" };
      init.body = JSON.stringify(body[0] ?? {});
    }
    let response: Response;
    try {
      response = await this.fetch(this.baseUrl + route.path, init);
    } catch (error) {
      throw new DominoRulesError(
        `cannot reach ${this.baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
        "UNAVAILABLE",
        "UNAVAILABLE",
        undefined,
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.ok && parsed !== undefined) return parsed as ResponseOf<Op>;
    if (isErrorBody(parsed)) throw DominoRulesError.fromBody(parsed, response.status);
    throw new DominoRulesError(
      `${rpc}: HTTP ${response.status} ${text.slice(0, 200)}`,
      response.status >= 500 ? "UNAVAILABLE" : "UNKNOWN",
      response.status >= 500 ? "UNAVAILABLE" : "UNKNOWN",
      response.status,
    );
  }

  /** Each ruleset: id, name, player range, options with defaults and allowed values. */
  listRulesets(): Promise<ResponseOf<"ListRulesets">> {
    return this.call("ListRulesets");
  }

  /** Start a match: `{ruleset, players, options?: {[ruleset]: {...}}, seed?}`. */
  newGame(request: RequestOf<"NewGame">): Promise<ResponseOf<"NewGame">> {
    return this.call("NewGame", request);
  }

  /** The seat to act and its legal moves; send one back unchanged with `applyMove`. */
  legalMoves(request: RequestOf<"GetLegalMoves">): Promise<ResponseOf<"GetLegalMoves">> {
    return this.call("GetLegalMoves", request);
  }

  /** Apply a move; pass `expected_version` so that a stale state is refused (`STALE_STATE`). */
  applyMove(request: RequestOf<"ApplyMove">): Promise<ResponseOf<"ApplyMove">> {
    return this.call("ApplyMove", request);
  }

  /** Hand and match points, per-hand history, winners; the seed once the match is over. */
  score(request: RequestOf<"GetScore">): Promise<ResponseOf<"GetScore">> {
    return this.call("GetScore", request);
  }

  /** What one seat (or, without `seat`, a spectator) may see. */
  view(request: RequestOf<"GetView">): Promise<ResponseOf<"GetView">> {
    return this.call("GetView", request);
  }
}
