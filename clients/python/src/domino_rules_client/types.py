"""The service's messages as the clients return them: proto3 JSON as dicts.

Field names are the proto's (``game_id``, ``open_pip``), enums are their names
(``"PLAY"``, ``"MATCH_OVER"``), ``state`` is the opaque base64 token. Fields without
presence are always there, zero values included; ``NotRequired`` fields (``optional``
ones, messages and oneof members) appear only when set. Both clients, REST and gRPC,
return the very same dicts.

A match record (:class:`MatchRecord`) is the one message written rather than answered:
its JSON form leaves out every field at its default, so all its fields are
``NotRequired``, down to the moves and events it holds.

The contract is ``proto/domino_rules/v1/domino_rules.proto`` in the service's repository.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "ApplyMoveResponse",
    "BotInfo",
    "BotLevel",
    "Divergence",
    "DivergenceReason",
    "End",
    "Event",
    "GetLegalMovesResponse",
    "GetScoreResponse",
    "GetViewResponse",
    "HandScore",
    "MatchRecord",
    "Move",
    "MoveEstimate",
    "MoveKind",
    "NewGameResponse",
    "OptionInfo",
    "Profile",
    "RecordedMove",
    "ReplayResponse",
    "ReplayStep",
    "RulesetInfo",
    "SeatHand",
    "SeatScore",
    "Status",
    "SuggestMoveResponse",
    "Tile",
    "Verdict",
    "Viewpoint",
]

MoveKind = Literal[
    "MOVE_KIND_UNSPECIFIED",
    "PLAY",
    "DRAW",
    "PASS",
    "DISCARD",
    "CAPTURE",
    "CAPTURE_DRAWN",
    "PILE",
    "NEXT_HAND",
]
End = Literal["END_UNSPECIFIED", "LEFT", "RIGHT", "UP", "DOWN"]
Status = Literal["STATUS_UNSPECIFIED", "IN_PROGRESS", "HAND_OVER", "MATCH_OVER"]
#: How strong a SuggestMove bot plays; ``BOT_LEVEL_UNSPECIFIED`` is ``STRONG``.
BotLevel = Literal["BOT_LEVEL_UNSPECIFIED", "RANDOM", "GREEDY", "STRONG"]
#: Whose eyes a record's events were seen with; ``VIEWPOINT_UNSPECIFIED`` is ``MOVER``.
Viewpoint = Literal["VIEWPOINT_UNSPECIFIED", "MOVER", "SEAT", "SPECTATOR"]
Verdict = Literal["VERDICT_UNSPECIFIED", "VALID", "DIVERGED"]
DivergenceReason = Literal[
    "REASON_UNSPECIFIED",
    "BAD_SETUP",
    "SEED_MISMATCH",
    "FIRST_STATE_MISMATCH",
    "GAME_ID_MISMATCH",
    "MALFORMED_MOVE",
    "NOT_YOUR_TURN",
    "ILLEGAL_MOVE",
    "GAME_OVER",
    "EVENTS_DIFFER",
    "SCORES_DIFFER",
    "MOVE_HIDDEN",
    "BAD_UNDO",
]


class Tile(TypedDict):
    """A domino, high end first: ``[6-4]`` is ``{"high": 6, "low": 4}``."""

    high: int
    low: int


class Move(TypedDict):
    """A move is flat: the fields its kind does not use stay unset.

    Send a legal move (from ``get_legal_moves``, ``get_view``'s ``legal_moves`` or
    ``suggest_move``) back exactly as it came; do not rebuild it from its fields.
    """

    seat: int
    kind: MoveKind
    tile: NotRequired[Tile]  # the tile played, discarded, captured with or piled
    target: NotRequired[Tile]  # the lake tile captured (Tiu U)
    end: NotRequired[End]  # the end of the line played on (Throw-up)
    open_pip: NotRequired[int]  # the half a Tsair Deng leader leaves open
    train: NotRequired[int]  # the train (Mexican Train) or arm (Chicken Foot) a PLAY goes on


class Event(TypedDict):
    """Something that happened inside a move; another seat's secrets are removed
    (``hidden`` is true, no tile)."""

    kind: str
    seat: NotRequired[int]
    tile: NotRequired[Tile]
    target: NotRequired[Tile]
    end: End
    open_pip: NotRequired[int]
    dice: list[int]
    tiles: list[Tile]
    count: NotRequired[int]
    points: NotRequired[int]
    seats: list[int]
    scores: list[int]
    hidden: bool
    train: NotRequired[int]  # the train or arm of a PLAY


class OptionInfo(TypedDict):
    name: str
    type: str  # "int", "bool" or "enum"
    default: str  # as JSON writes it: "6", "false", "OTHERS_TOTAL"
    allowed_values: list[str]
    min: NotRequired[int]
    max: NotRequired[int]
    description: str


class BotInfo(TypedDict):
    level: BotLevel
    description: str
    default_playouts: int
    max_playouts: int


class RulesetInfo(TypedDict):
    id: str
    name: str
    min_players: int
    max_players: int  # with the default options
    players: str
    options: list[OptionInfo]
    source: str
    description: str
    bots: list[BotInfo]
    low_wins: bool  # the fewest match points win
    drawing: dict[str, Any]  # how a client draws it: layout, table fields, tile faces
    profiles: list[Profile]  # named option sets (empty for a ruleset without any)


class Profile(TypedDict):
    """A named set of options: a complete, valid options value for the ruleset."""

    id: str
    name: str
    description: str
    options: dict[str, Any]  # under the ruleset's id, as NewGame takes them


class NewGameResponse(TypedDict):
    state: str
    version: int
    game_id: str
    status: Status
    to_act: NotRequired[int]
    events: list[Event]  # the deal, as a spectator sees it
    seed_commitment: str  # hex SHA-256 of the seed


class GetLegalMovesResponse(TypedDict):
    to_act: NotRequired[int]
    moves: list[Move]
    status: Status
    version: int
    game_id: str


class ApplyMoveResponse(TypedDict):
    state: str
    version: int
    game_id: str
    status: Status
    to_act: NotRequired[int]
    events: list[Event]  # as the moving seat may see them


class SeatScore(TypedDict):
    seat: int
    hand_points: int
    match_points: int
    net: NotRequired[int]


class HandScore(TypedDict):
    hand: int
    counts: list[int]
    points: list[int]
    winners: list[int]
    settlement: list[int]
    end: str
    reason: str  # how the hand was decided, in words (tie-breaks with their rule tags)


class GetScoreResponse(TypedDict):
    status: Status
    seats: list[SeatScore]
    hands: list[HandScore]
    winners: list[int]
    version: int
    game_id: str
    hand: int
    seed_commitment: str
    seed: NotRequired[str]  # revealed once the match is over


class GetViewResponse(TypedDict):
    ruleset: str
    seat: NotRequired[int]
    status: Status
    to_act: NotRequired[int]
    hand_number: int
    hand: list[Tile]
    hand_sizes: list[int]
    stock: int
    legal_moves: list[Move]
    events: list[Event]
    match_points: list[int]
    version: int
    game_id: str
    shown_hands: list[SeatHand]  # once the hand is over: every seat's tiles left in hand
    # the table, under the ruleset's id (one of these is set)
    one_arm_joe: NotRequired[dict[str, Any]]
    tsair_deng: NotRequired[dict[str, Any]]
    tiu_u: NotRequired[dict[str, Any]]
    throw_up: NotRequired[dict[str, Any]]
    block: NotRequired[dict[str, Any]]
    dancing_dragons: NotRequired[dict[str, Any]]
    all_fives: NotRequired[dict[str, Any]]
    mexican_train: NotRequired[dict[str, Any]]
    chicken_foot: NotRequired[dict[str, Any]]


class MoveEstimate(TypedDict):
    move: Move
    value: float  # the move's expected share of the win, 0..1
    playouts: int


class SuggestMoveResponse(TypedDict):
    move: Move  # a legal move: send it back unchanged
    estimates: list[MoveEstimate]  # STRONG: every legal move, best first
    level: BotLevel
    seat: int
    version: int
    game_id: str


# ------------------------------------------------------------------ match records


class RecordedMove(TypedDict):
    """One move of a record and, optionally, what it produced (JSON form: a field at its
    default is left out, so a move of seat 0 has no ``seat``)."""

    move: NotRequired[dict[str, Any]]  # a Move: the seat that made it, the kind and its fields
    events: NotRequired[list[dict[str, Any]]]  # Events, as the record's viewpoint saw them
    match_points: NotRequired[list[int]]  # every seat's match points after the move
    undo: NotRequired[int]  # a take-back in place of a move: the moves it takes back


class MatchRecord(TypedDict):
    """A match record, format 1, in its JSON form: what it takes to deal and play a match
    again, and what each move produced. Build one with
    :class:`~domino_rules_client.records.MatchRecorder`; check one with ``replay``."""

    format: NotRequired[int]  # 1
    ruleset: NotRequired[str]
    players: NotRequired[int]
    options: NotRequired[dict[str, Any]]  # under the ruleset's id, as NewGame takes them
    game_id: NotRequired[str]  # NewGame's
    seed_commitment: NotRequired[str]  # NewGame's: hex SHA-256 of the seed
    seed: NotRequired[str]  # once revealed (GetScore at MATCH_OVER)
    first_state: NotRequired[str]  # NewGame's token: replays a match whose seed is secret
    viewpoint: NotRequired[Viewpoint]
    seat: NotRequired[int]  # the seat of a SEAT record
    deal: NotRequired[list[dict[str, Any]]]  # NewGame's events
    moves: NotRequired[list[RecordedMove]]


class SeatHand(TypedDict):
    tiles: list[Tile]


class ReplayStep(TypedDict):
    """The deal (step 0) or the n-th move, and the table after it."""

    step: int
    move: NotRequired[Move]  # unset at step 0
    events: list[Event]  # as the asked-for seat (or a spectator) sees them
    match_points: list[int]  # every seat's, after the step
    view: GetViewResponse  # the asked-for seat's (or a spectator's) view after it
    hands: list[SeatHand]  # every seat's hand, when the record holds the seed
    undo: int  # a take-back: the moves it took back (no move then)


class Divergence(TypedDict):
    """Where and why a record parts from the match its seed (or first state) deals."""

    step: int  # 0: the record's header or deal; n: its n-th move
    reason: DivergenceReason
    message: str
    events: list[Event]  # EVENTS_DIFFER: the step's events, as the record saw them
    match_points: list[int]  # SCORES_DIFFER: the match points after the step


class ReplayResponse(TypedDict):
    verdict: Verdict
    divergence: NotRequired[Divergence]  # DIVERGED
    steps: list[ReplayStep]  # the steps asked for, up to the divergence
    moves: int  # the record's moves
    next_step: NotRequired[int]  # set when the steps asked for did not fit one answer
    state: str  # the match after the last move that replayed: a token to go on with
    version: int
    game_id: str
    status: Status
    to_act: NotRequired[int]
