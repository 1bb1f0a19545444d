/**
 * The types of every call, from the service's OpenAPI document (`npm run generate`
 * writes `schema.ts`), shared by the REST and the gRPC entry points: both doors send
 * and answer the same proto3 JSON shapes.
 */

import type { components, operations } from "./schema.js";

export type Schemas = components["schemas"];
export type Tile = Schemas["Tile"];
/** A move as the service returns it (legal moves, suggestions): send it back unchanged. */
export type Move = Schemas["Move"];
/** A move as `applyMove` accepts it; every `Move` the service returns is one. */
export type MoveInput = ApplyMoveRequest["move"];
export type MoveKind = Schemas["MoveKind"];
export type Event = Schemas["Event"];
export type Status = Schemas["Status"];
export type BotLevel = Schemas["BotLevel"];
export type RulesetInfo = Schemas["RulesetInfo"];
export type RulesetId = Schemas["NewGameRequest"]["ruleset"];
export type Options = Schemas["Options"];
export type ErrorReason = Schemas["ErrorReason"];
/** The REST door's error body, `{code, message, details}`. */
export type ErrorBody = Schemas["google.rpc.Status"];

export type ListRulesetsResponse = Schemas["ListRulesetsResponse"];
export type NewGameRequest = Schemas["NewGameRequest"];
export type NewGameResponse = Schemas["NewGameResponse"];
export type GetLegalMovesRequest = Schemas["GetLegalMovesRequest"];
export type GetLegalMovesResponse = Schemas["GetLegalMovesResponse"];
export type ApplyMoveRequest = Schemas["ApplyMoveRequest"];
export type ApplyMoveResponse = Schemas["ApplyMoveResponse"];
export type GetScoreRequest = Schemas["GetScoreRequest"];
export type GetScoreResponse = Schemas["GetScoreResponse"];
export type GetViewRequest = Schemas["GetViewRequest"];
export type GetViewResponse = Schemas["GetViewResponse"];
export type SuggestMoveRequest = Schemas["SuggestMoveRequest"];
export type SuggestMoveResponse = Schemas["SuggestMoveResponse"];
export type ReplayRequest = Schemas["ReplayRequest"];
export type ReplayResponse = Schemas["ReplayResponse"];

/**
 * A match record, format 1, in its JSON form (proto field names, fields at their default
 * left out): what it takes to deal a match again and every move with what it produced.
 * `MatchRecorder` writes one; `replay` checks one.
 */
export type MatchRecord = Schemas["MatchRecord"];
/**
 * One move of a record: the move (with its seat) and, optionally, its events and match points;
 * or a take-back, `{ undo: k }` (no move, no events): the match goes back `k` moves.
 */
export type RecordedMove = Schemas["RecordedMove"];
/** Whose eyes a record's events were seen with (`MOVER`: each move's mover; `SEAT`: one seat). */
export type Viewpoint = Schemas["MatchRecord.Viewpoint"];
/**
 * One step of a replay: the deal (step 0), the n-th move, or a take-back (`undo`: the moves it
 * took back, and no move), and the table after it.
 */
export type ReplayStep = Schemas["ReplayStep"];
/**
 * A seat's tiles: a replay shows every hand once the record holds the seed, and a view's
 * `shown_hands` every seat's tiles left in hand once the hand is over.
 */
export type SeatHand = Schemas["SeatHand"];
/** Where and why a record parts from the match its seed (or first state) deals. */
export type Divergence = Schemas["Divergence"];
/**
 * Why a record parts from its match: `MOVE_HIDDEN` is a seat's record stopping at another
 * seat's face-down move (kept without its tile), `BAD_UNDO` a take-back it could not make.
 */
export type DivergenceReason = Schemas["Divergence.Reason"];
export type Verdict = Schemas["ReplayResponse.Verdict"];

/** The RPCs, each with its REST method and path (checked against the document's operations). */
export const ROUTES = {
  ListRulesets: { method: "GET", path: "/v1/rulesets" },
  NewGame: { method: "POST", path: "/v1/games" },
  GetLegalMoves: { method: "POST", path: "/v1/games:legalMoves" },
  ApplyMove: { method: "POST", path: "/v1/games:applyMove" },
  GetScore: { method: "POST", path: "/v1/games:score" },
  GetView: { method: "POST", path: "/v1/games:view" },
  SuggestMove: { method: "POST", path: "/v1/games:suggestMove" },
  Replay: { method: "POST", path: "/v1/records:replay" },
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

// A promise of the contract, checked when this compiles: a legal move and a suggested move
// go back into `applyMove` as they are, without a cast.
type Assert<T extends true> = T;
export type LegalMovesGoBackUnchanged = Assert<
  [Move, NonNullable<SuggestMoveResponse["move"]>] extends [MoveInput, MoveInput] ? true : false
>;
// A record's take-backs and hidden moves, and the hands a view turns up, are in the types.
type Has<T, K extends PropertyKey> = K extends keyof T ? true : false;
export type RecordsKnowTakeBacksAndHiddenMoves = Assert<
  [
    Has<RecordedMove, "undo">,
    Has<ReplayStep, "undo">,
    Has<GetViewResponse, "shown_hands">,
    "MOVE_HIDDEN" | "BAD_UNDO" extends DivergenceReason ? true : false,
  ] extends [true, true, true, true]
    ? true
    : false
>;

/** Per-call settings, on both doors. */
export interface CallOptions {
  /** Cancels the call (the promise rejects with code `CANCELLED`). */
  signal?: AbortSignal;
  /** Milliseconds before the call is abandoned (`DEADLINE_EXCEEDED`); default: the client's. */
  timeoutMs?: number;
  /** Sent as `x-request-id` (1 to 128 of `A-Z a-z 0-9 . _ : / + = @ -`); it finds the server's log line. */
  requestId?: string;
}

/** Every RPC of the service, as both clients (REST and gRPC) offer them. */
export interface DominoRules {
  /** The catalogue: each ruleset's id, player range, options and bots. */
  listRulesets(options?: CallOptions): Promise<ListRulesetsResponse>;
  /** Start a match: `{ruleset, players, options?: {[ruleset]: {...}}, seed?}`. */
  newGame(request: NewGameRequest, options?: CallOptions): Promise<NewGameResponse>;
  /** The seat to act and its legal moves; send one back unchanged with `applyMove`. */
  getLegalMoves(request: GetLegalMovesRequest, options?: CallOptions): Promise<GetLegalMovesResponse>;
  /** Apply a move; pass `expected_version` so that a stale state is refused (`STALE_STATE`). */
  applyMove(request: ApplyMoveRequest, options?: CallOptions): Promise<ApplyMoveResponse>;
  /** Hand and match points, per-hand history, winners; the seed once the match is over. */
  getScore(request: GetScoreRequest, options?: CallOptions): Promise<GetScoreResponse>;
  /** What one seat (or, without `seat`, a spectator) may see, with its legal moves. */
  getView(request: GetViewRequest, options?: CallOptions): Promise<GetViewResponse>;
  /** A bot's move for the seat to act (`level`: `RANDOM`, `GREEDY`, `STRONG`); send it back unchanged. */
  suggestMove(request: SuggestMoveRequest, options?: CallOptions): Promise<SuggestMoveResponse>;
  /**
   * Replay a match record (`MatchRecorder`'s `record`) from its seed, or from its first state
   * while the seed is secret, checking every step: `verdict` `VALID`, or `DIVERGED` with the
   * first step that parts and why. `seat`, `from_step` and `to_step` choose the steps answered
   * and whose eyes they are seen with.
   */
  replay(request: ReplayRequest, options?: CallOptions): Promise<ReplayResponse>;
}
