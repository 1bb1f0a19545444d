"""The service's messages as the clients return them: proto3 JSON as dicts.

Field names are the proto's (``game_id``, ``open_pip``), enums are their names
(``"PLAY"``, ``"MATCH_OVER"``), ``state`` is the opaque base64 token. Fields without
presence are always there, zero values included; ``NotRequired`` fields (``optional``
ones, messages and oneof members) appear only when set. Both clients, REST and gRPC,
return the very same dicts.

The contract is ``proto/domino_rules/v1/domino_rules.proto`` in the service's repository.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "ApplyMoveResponse",
    "BotInfo",
    "BotLevel",
    "End",
    "Event",
    "GetLegalMovesResponse",
    "GetScoreResponse",
    "GetViewResponse",
    "HandScore",
    "Move",
    "MoveEstimate",
    "MoveKind",
    "NewGameResponse",
    "OptionInfo",
    "RulesetInfo",
    "SeatScore",
    "Status",
    "SuggestMoveResponse",
    "Tile",
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
End = Literal["END_UNSPECIFIED", "LEFT", "RIGHT"]
Status = Literal["STATUS_UNSPECIFIED", "IN_PROGRESS", "HAND_OVER", "MATCH_OVER"]
#: How strong a SuggestMove bot plays; ``BOT_LEVEL_UNSPECIFIED`` is ``STRONG``.
BotLevel = Literal["BOT_LEVEL_UNSPECIFIED", "RANDOM", "GREEDY", "STRONG"]


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
    # the table, under the ruleset's id (one of these is set)
    one_arm_joe: NotRequired[dict[str, Any]]
    tsair_deng: NotRequired[dict[str, Any]]
    tiu_u: NotRequired[dict[str, Any]]
    throw_up: NotRequired[dict[str, Any]]
    block: NotRequired[dict[str, Any]]
    dancing_dragons: NotRequired[dict[str, Any]]


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
