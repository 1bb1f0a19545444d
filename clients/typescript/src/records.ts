/**
 * Match records: a match written down as it is played, for `replay` to check.
 *
 * A record holds what it takes to deal the match again (ruleset, players, options, the game
 * id and seed commitment of `newGame`, then the seed once it is revealed) and every move
 * with what it produced. `MatchRecorder` builds one:
 *
 * - the platform's record (no `seat`, viewpoint `MOVER`): each move's events as its mover
 *   saw them, which is what `applyMove` answers. It keeps `newGame`'s token as `first_state`,
 *   so `replay` checks it while the seed is still secret. Keep it private: an unsealed token
 *   can be decoded, and it holds every hand.
 * - a seat's record (`seat: k`, viewpoint `SEAT`): every event as seat `k` saw it. For its
 *   own moves that is `applyMove`'s answer; for another seat's move, the `events` of
 *   `getView({ state, seat: k })` right after it (the view also gives `match_points`). It
 *   never holds the first state: the seed (`reveal`, or `finish`) completes it once the
 *   match is over, and `replay` can check it from then on. Nor does it hold what the seat
 *   could not see: another seat's tile laid face down (a discard in some games) stays hidden
 *   from the seat, at the hand's end too. The event of that move's own kind by its mover
 *   comes hidden in the seat's events, and `add` keeps the move without its tile (`target`
 *   and `open_pip` too). `replay` stops at such a move with `MOVE_HIDDEN`: to check further,
 *   the seat compares its record with the platform's (`replay` of the platform's record with
 *   `seat: k` answers every step as seat `k` saw it). So a seat's record takes the events
 *   with every other seat's move that names a tile: without them it could not tell a hidden
 *   move, and `add` refuses the move.
 *
 * A take-back (`undo`, `{"undo": k}` in the record) returns the match `k` moves, as a
 * person's undo against bots does (their move and the bots' after it); the moves recorded
 * after it go on from there.
 *
 * The record is its JSON form: proto3 JSON with the proto's field names and every field at
 * its default left out, the form the service writes itself.
 *
 * Nothing here needs Node: the seed's SHA-256 is computed in plain TypeScript, so this runs
 * in browsers (insecure origins included) as the REST entry does.
 */

import type {
  CallOptions,
  DominoRules,
  Event,
  GetScoreResponse,
  MatchRecord,
  MoveInput,
  NewGameResponse,
  Options,
  RecordedMove,
  Viewpoint,
} from "./types.js";

/** The record format written. */
export const RECORD_FORMAT = 1;
/** The most moves one take-back may take back (the service's limit). */
export const MAX_UNDO = 64;

/** What a `MatchRecorder` starts from: the `newGame` request's setup and its answer. */
export interface MatchRecorderInit {
  /** The ruleset id given to `newGame`. */
  ruleset: string;
  /** The players given to `newGame`. */
  players: number;
  /** The options given to `newGame`, under the ruleset's id: `{ tiu_u: { hands: 1 } }`. */
  options?: Options | null | undefined;
  /** `newGame`'s answer: its game id, seed commitment, deal and (for the platform) state. */
  newGame: NewGameResponse;
  /**
   * The seat whose record this is; omitted, the platform's record. `newGame`'s events are
   * a spectator's: where a deal shows a seat something of its own (a tile drawn in the
   * hunt for an engine), give seat k's recorder `newGame` with the deal's events as that
   * seat saw them, `(await client.getView({ state, seat: k })).events`.
   */
  seat?: number | undefined;
}

type Json = Record<string, unknown>;
// How each field is written at its default: "zero" fields (no presence: 0, false) and enums
// (their *_UNSPECIFIED) are left out, lists when empty; "optional" fields and tiles
// (messages) are written whenever they are set.
type Kind = "zero" | "enum" | "optional" | "tile" | "tiles" | "list";
const MOVE_FIELDS: readonly (readonly [string, Kind])[] = [
  ["seat", "zero"],
  ["kind", "enum"],
  ["tile", "tile"],
  ["target", "tile"],
  ["end", "enum"],
  ["open_pip", "optional"],
  ["train", "optional"],
];
const EVENT_FIELDS: readonly (readonly [string, Kind])[] = [
  ["kind", "enum"],
  ["seat", "optional"],
  ["tile", "tile"],
  ["target", "tile"],
  ["end", "enum"],
  ["open_pip", "optional"],
  ["dice", "list"],
  ["tiles", "tiles"],
  ["count", "optional"],
  ["points", "optional"],
  ["seats", "list"],
  ["scores", "list"],
  ["hidden", "zero"],
  ["train", "optional"],
];
/** A move's fields that name what its mover laid: what a seat may not have seen. */
const SECRET = ["tile", "target", "open_pip"] as const;
// The kinds a move and an event share, by enum number, for moves and events given with
// numbers rather than names (proto3 JSON readers take either).
const MOVE_KINDS: Readonly<Record<number, string>> = {
  1: "PLAY",
  2: "DRAW",
  3: "PASS",
  4: "DISCARD",
  5: "CAPTURE",
  7: "PILE",
  8: "NEXT_HAND",
};
const EVENT_KINDS: Readonly<Record<number, string>> = {
  3: "PLAY",
  5: "DRAW",
  7: "PASS",
  9: "DISCARD",
  10: "CAPTURE",
  11: "PILE",
  20: "NEXT_HAND",
};

/** Builds the record of one match as it is played; `JSON.stringify(recorder)` writes it. */
export class MatchRecorder {
  readonly ruleset: string;
  readonly players: number;
  /** The seat of a seat's record; `undefined` for the platform's. */
  readonly seat: number | undefined;
  /** `MOVER` for the platform's record, `SEAT` for a seat's. */
  readonly viewpoint: Viewpoint;
  private readonly options: Json | undefined;
  private readonly gameId: string;
  private readonly seedCommitment: string;
  private readonly firstState: string | undefined;
  private readonly deal: Json[];
  private readonly moves: RecordedMove[] = [];
  private revealed: string | undefined;
  /** The moves a take-back may take back now, as `replay` counts them. */
  private takeable = 0;

  constructor(init: MatchRecorderInit) {
    const { seat } = init;
    if (seat !== undefined && !(Number.isInteger(seat) && seat >= 0 && seat < init.players)) {
      throw new RangeError(`seat ${seat} is not at a table of ${init.players}`);
    }
    this.ruleset = init.ruleset;
    this.players = init.players;
    this.seat = seat;
    this.viewpoint = seat === undefined ? "MOVER" : "SEAT";
    this.options = init.options ? writtenOptions(init.options) : undefined;
    this.gameId = init.newGame.game_id ?? "";
    this.seedCommitment = init.newGame.seed_commitment ?? "";
    this.firstState = seat === undefined && init.newGame.state ? init.newGame.state : undefined;
    this.deal = (init.newGame.events ?? []).map((event) => written(event, EVENT_FIELDS));
  }

  /** The seed, once revealed. */
  get seed(): string | undefined {
    return this.revealed;
  }

  /** The moves recorded, take-backs included: the record's steps after the deal. */
  get length(): number {
    return this.moves.length;
  }

  /**
   * Record the next move, as it was applied (it names its `seat`), with the events it
   * produced as the record's viewpoint saw them and every seat's match points after it.
   * Both are optional: left out, `replay` does not check them. What is given is copied.
   *
   * In a seat's record, another seat's move whose own event (of the move's kind, by its
   * mover) the seat saw hidden is kept without its tile, `target` and `open_pip`: the seat
   * never saw them. Without the events that cannot be told, so a seat's record refuses
   * another seat's move that names a tile without its events (it throws).
   */
  add(move: MoveInput, events?: readonly Event[] | null, matchPoints?: readonly number[] | null): void {
    const seat: unknown = (move as Json).seat;
    if (typeof seat !== "number" || !Number.isInteger(seat)) {
      throw new TypeError("a recorded move names its seat, as the service gave the move");
    }
    if (seat < 0 || seat >= this.players) throw new RangeError(`seat ${seat} is not at a table of ${this.players}`);
    const writtenMove = written(move as Json, MOVE_FIELDS);
    const writtenEvents = (events ?? []).map((event) => written(event, EVENT_FIELDS));
    const points = this.matchPoints(matchPoints);
    if (this.seat !== undefined && seat !== this.seat) {
      if (writtenEvents.length === 0 && SECRET.some((name) => name in writtenMove)) {
        throw new Error(
          `seat ${seat}'s move is recorded in seat ${this.seat}'s record with the events that seat saw ` +
            "of it: without them a tile it never saw (one laid face down) could be written",
        );
      }
      if (hidden(writtenMove, writtenEvents)) for (const name of SECRET) delete writtenMove[name];
    }
    const recorded: Json = { move: writtenMove };
    if (writtenEvents.length > 0) recorded.events = writtenEvents;
    if (points.length > 0) recorded.match_points = points;
    this.moves.push(recorded as RecordedMove);
    this.takeable = Math.min(this.takeable + 1, MAX_UNDO);
  }

  /**
   * Record a take-back: the match goes back `count` moves (a person's last move against
   * bots, and the bots' moves after it), and the next move recorded is played from there.
   * `matchPoints` are every seat's after it (optional, as with `add`).
   *
   * Throws (`RangeError`) unless `count` is at least 1 and at most the moves that may be
   * taken back: those recorded less those taken back already, counted as `replay` counts
   * them (it keeps the match before each of the last `MAX_UNDO` moves only, and a take-back
   * uses up those it goes back over).
   */
  undo(count: number, matchPoints?: readonly number[] | null): void {
    if (typeof count !== "number" || !Number.isInteger(count)) {
      throw new TypeError("a take-back's count is a whole number of moves");
    }
    if (count < 1 || count > this.takeable) {
      throw new RangeError(
        `undo ${count}: ${this.takeable} moves at most may be taken back here ` +
          `(those recorded, less those taken back, and at most ${MAX_UNDO})`,
      );
    }
    const recorded: Json = { undo: count };
    const points = this.matchPoints(matchPoints);
    if (points.length > 0) recorded.match_points = points;
    this.moves.push(recorded as RecordedMove);
    this.takeable -= count;
  }

  private matchPoints(matchPoints: readonly number[] | null | undefined): number[] {
    if (!matchPoints || matchPoints.length === 0) return [];
    if (matchPoints.length !== this.players || !matchPoints.every(Number.isInteger)) {
      throw new RangeError(`match points are ${this.players} numbers, one per seat`);
    }
    return [...matchPoints];
  }

  /**
   * Add the seed (`getScore` answers it once the match is over). Throws if its SHA-256 is
   * not the seed commitment `newGame` answered.
   */
  reveal(seed: string): void {
    if (typeof seed !== "string") throw new TypeError("a seed is a string");
    if (sha256Hex(seed) !== this.seedCommitment) {
      throw new Error("the seed's SHA-256 is not the match's seed commitment");
    }
    this.revealed = seed;
  }

  /**
   * `client.getScore({ state })`, answered as it came; when the match is over, its seed is
   * revealed into the record. `state` is the latest token of this match (another match's is
   * refused).
   */
  async finish(client: Pick<DominoRules, "getScore">, state: string, options?: CallOptions): Promise<GetScoreResponse> {
    const score = await client.getScore({ state }, options);
    if (this.gameId && score.game_id && score.game_id !== this.gameId) {
      throw new Error("the state is of another match than the record's");
    }
    if (score.seed !== undefined) this.reveal(score.seed);
    return score;
  }

  /** The record so far, in its JSON form (a copy: change it freely). */
  get record(): MatchRecord {
    const record: Json = { format: RECORD_FORMAT };
    if (this.ruleset) record.ruleset = this.ruleset;
    if (this.players) record.players = this.players;
    if (this.options !== undefined) record.options = copy(this.options);
    if (this.gameId) record.game_id = this.gameId;
    if (this.seedCommitment) record.seed_commitment = this.seedCommitment;
    if (this.revealed !== undefined) record.seed = this.revealed;
    if (this.firstState !== undefined) record.first_state = this.firstState;
    record.viewpoint = this.viewpoint;
    if (this.seat !== undefined) record.seat = this.seat;
    if (this.deal.length > 0) record.deal = copy(this.deal);
    if (this.moves.length > 0) record.moves = copy(this.moves);
    return record as MatchRecord;
  }

  /** The record, for `JSON.stringify`. */
  toJSON(): MatchRecord {
    return this.record;
  }
}

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function isDefaultEnum(value: unknown): boolean {
  return value === 0 || (typeof value === "string" && value.endsWith("_UNSPECIFIED"));
}

/** The options as a record writes them: enums at their default (by name) left out. */
function writtenOptions(options: Options): Json {
  const out: Json = {};
  for (const [name, value] of Object.entries(options as Json)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== "object" || Array.isArray(value)) {
      out[name] = copy(value);
      continue;
    }
    const own: Json = {};
    for (const [key, option] of Object.entries(value as Json)) {
      if (option === null || option === undefined) continue;
      if (typeof option === "string" && option.endsWith("_UNSPECIFIED")) continue;
      own[key] = copy(option);
    }
    out[name] = own;
  }
  return out;
}

/** An enum's name, given by name or number; `undefined` for one a move and an event do not share. */
function kindName(value: unknown, byNumber: Readonly<Record<number, string>>): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return byNumber[value];
  return undefined;
}

/**
 * Whether the move's own event (of the move's kind, by its mover) is hidden among `events`,
 * as the record's seat saw them: the seat never saw what the move laid.
 */
function hidden(move: Json, events: readonly Json[]): boolean {
  const kind = kindName(move.kind, MOVE_KINDS);
  const seat = move.seat ?? 0; // the JSON form leaves seat 0 out
  return (
    kind !== undefined &&
    events.some(
      (event) => event.hidden === true && event.seat === seat && kindName(event.kind, EVENT_KINDS) === kind,
    )
  );
}

function tile(value: unknown): Json {
  const out: Json = {};
  for (const end of ["high", "low"]) {
    const pips = (value as Json)[end];
    if (pips) out[end] = pips;
  }
  return out;
}

/** A move or an event as a record writes it; a key that is not a field is copied as it is. */
function written(message: object, fields: readonly (readonly [string, Kind])[]): Json {
  const source = message as Json;
  const out: Json = {};
  for (const [name, kind] of fields) {
    const value = source[name];
    if (value === null || value === undefined) continue;
    if (kind === "optional") out[name] = value;
    else if (kind === "tile") out[name] = tile(value);
    else if (kind === "tiles") {
      if (Array.isArray(value) && value.length > 0) out[name] = value.map(tile);
    } else if (kind === "list") {
      if (Array.isArray(value) && value.length > 0) out[name] = [...(value as unknown[])];
    } else if (kind === "enum") {
      if (!isDefaultEnum(value)) out[name] = value;
    } else if (value) out[name] = value;
  }
  const known = new Set(fields.map(([name]) => name));
  for (const [name, value] of Object.entries(source)) {
    if (!known.has(name) && value !== null && value !== undefined) out[name] = copy(value);
  }
  return out;
}

// ------------------------------------------------------------ SHA-256 (FIPS 180-4)

const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** The hex SHA-256 of `text`'s UTF-8 bytes, as the service commits to a seed. */
export function sha256Hex(text: string): string {
  const data = new TextEncoder().encode(text);
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = data.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  const hash = Uint32Array.from([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = w[i - 16]! + s0 + w[i - 7]! + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, h].forEach((value, i) => {
      hash[i] = hash[i]! + value;
    });
  }
  return Array.from(hash, (word) => word.toString(16).padStart(8, "0")).join("");
}
