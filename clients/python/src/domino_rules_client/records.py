"""Match records: a match written down as it is played, for ``replay`` to check.

A record holds what it takes to deal the match again (ruleset, players, options, the
game id and seed commitment of ``new_game``, then the seed once it is revealed) and every
move with what it produced. :class:`MatchRecorder` builds one::

    from domino_rules_client import DominoRulesClient, MatchRecorder

    client = DominoRulesClient("http://127.0.0.1:8080")
    game = client.new_game("tiu_u", 2)
    recorder = MatchRecorder("tiu_u", 2, game)
    state = game["state"]
    while (legal := client.get_legal_moves(state))["status"] != "MATCH_OVER":
        move = legal["moves"][0]
        answer = client.apply_move(state, move)
        recorder.add(move, answer["events"])
        state = answer["state"]
    recorder.finish(client, state)  # GetScore reveals the seed at MATCH_OVER
    assert client.replay(recorder.record)["verdict"] == "VALID"

Two kinds of record:

* **The platform's** (``seat=None``, viewpoint ``MOVER``): each move's events as its
  mover saw them, which is what ``apply_move`` answers. It keeps ``new_game``'s token as
  ``first_state``, so ``replay`` checks it while the seed is still secret. Keep it
  private: an unsealed token can be decoded, and it holds every hand.
* **A seat's** (``seat=k``, viewpoint ``SEAT``): every event as seat ``k`` saw it. For
  its own moves that is ``apply_move``'s answer; for another seat's move, the ``events``
  of ``get_view(state, seat=k)`` just after it (the view also gives ``match_points``).
  It never holds the first state; the seed (:meth:`MatchRecorder.reveal`, or
  :meth:`MatchRecorder.finish`) completes it once the match is over, and ``replay`` can
  check it from then on.

  Nor does it hold what the seat could not see. Another seat's tile laid face down (a
  discard in some games) stays hidden from the seat, at the hand's end too: the event of
  that move's own kind by its mover comes hidden in the seat's events, and
  :meth:`MatchRecorder.add` then keeps the move without its tile (``target`` and
  ``open_pip`` too). ``replay`` stops at such a move with ``MOVE_HIDDEN``: to check
  further, the seat compares its record with the platform's (``replay`` of the platform's
  record with ``seat=k`` answers every step as seat ``k`` saw it). So a seat's record
  takes the events with every other seat's move that names a tile: without them it could
  not tell a hidden move, and ``add`` refuses the move.

A take-back (:meth:`MatchRecorder.undo`, ``{"undo": k}`` in the record) returns the match
``k`` moves, as a person's undo against bots does (their move and the bots' after it);
the moves recorded after it go on from there.

The record is its JSON form (:attr:`MatchRecorder.record`, :meth:`MatchRecorder.to_json`):
proto3 JSON with the proto's field names and every field at its default left out, the
form the service writes itself.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from ._base import BaseClient, wrap_options
from .types import GetScoreResponse, MatchRecord, RecordedMove, Viewpoint

__all__ = ["FORMAT", "MAX_UNDO", "MatchRecorder"]

#: The record format written.
FORMAT = 1
#: The most moves one take-back may take back (the service's limit).
MAX_UNDO = 64

JSON = dict[str, Any]

# How each field of a message is written when it is at its default: "zero" fields (no
# presence: 0, false, an empty string) and enums (their *_UNSPECIFIED) are left out, lists
# when empty; "optional" fields and tiles (messages) are written whenever they are set.
_Kind = Literal["zero", "enum", "optional", "tile", "tiles", "list"]
_MOVE: tuple[tuple[str, _Kind], ...] = (
    ("seat", "zero"),
    ("kind", "enum"),
    ("tile", "tile"),
    ("target", "tile"),
    ("end", "enum"),
    ("open_pip", "optional"),
    ("train", "optional"),
)
_EVENT: tuple[tuple[str, _Kind], ...] = (
    ("kind", "enum"),
    ("seat", "optional"),
    ("tile", "tile"),
    ("target", "tile"),
    ("end", "enum"),
    ("open_pip", "optional"),
    ("dice", "list"),
    ("tiles", "tiles"),
    ("count", "optional"),
    ("points", "optional"),
    ("seats", "list"),
    ("scores", "list"),
    ("hidden", "zero"),
    ("train", "optional"),
)
#: A move's fields that name what its mover laid: what a seat may not have seen.
_SECRET = ("tile", "target", "open_pip")
# The kinds a move and an event share, by enum number, for moves and events given with
# numbers rather than names (proto3 JSON readers take either).
_MOVE_KINDS = {
    1: "PLAY",
    2: "DRAW",
    3: "PASS",
    4: "DISCARD",
    5: "CAPTURE",
    7: "PILE",
    8: "NEXT_HAND",
}
_EVENT_KINDS = {
    3: "PLAY",
    5: "DRAW",
    7: "PASS",
    9: "DISCARD",
    10: "CAPTURE",
    11: "PILE",
    20: "NEXT_HAND",
}


class MatchRecorder:
    """Builds the record of one match as it is played.

    ``ruleset``, ``players`` and ``options`` are those given to ``new_game`` (the
    ruleset's own options or wrapped under its id, as ``new_game`` takes them), and
    ``new_game`` is its answer: the record takes the game id, the seed commitment, the
    deal's events and, for the platform's record, the first state from it.

    ``seat=None`` records as the platform (viewpoint ``MOVER``, with the first state);
    ``seat=k`` as seat ``k`` (viewpoint ``SEAT``, never the first state). See the module's
    documentation for the events each expects. ``new_game``'s events are a spectator's:
    where a deal shows a seat something of its own (a tile drawn in the hunt for an
    engine), give seat ``k``'s recorder the deal's events as the seat saw them,
    ``get_view(state, seat=k)["events"]`` in place of ``new_game``'s.
    """

    def __init__(
        self,
        ruleset: str,
        players: int,
        new_game: Mapping[str, Any],
        *,
        options: Mapping[str, Any] | None = None,
        seat: int | None = None,
    ) -> None:
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        self._ruleset = ruleset
        self._players = players
        self._options = _options(ruleset, options) if options else None
        self._game_id: str = new_game.get("game_id", "")
        self._seed_commitment: str = new_game.get("seed_commitment", "")
        self._seat = seat
        state = new_game.get("state") if seat is None else None
        self._first_state: str | None = state or None
        self._deal = [_written(event, _EVENT) for event in new_game.get("events", ())]
        self._moves: list[RecordedMove] = []
        self._seed: str | None = None
        self._takeable = 0  # the moves a take-back may take back now, as replay counts them

    def __repr__(self) -> str:
        return (
            f"MatchRecorder({self._ruleset!r}, {self._players}, game {self._game_id!r}, "
            f"{self.viewpoint}, {len(self._moves)} moves)"
        )

    def __len__(self) -> int:
        """The moves recorded, take-backs included: the record's steps after the deal."""
        return len(self._moves)

    @property
    def viewpoint(self) -> Viewpoint:
        """``"MOVER"`` for the platform's record, ``"SEAT"`` for a seat's."""
        return "MOVER" if self._seat is None else "SEAT"

    @property
    def seat(self) -> int | None:
        """The seat of a seat's record; ``None`` for the platform's."""
        return self._seat

    @property
    def seed(self) -> str | None:
        """The seed, once revealed."""
        return self._seed

    def add(
        self,
        move: Mapping[str, Any],
        events: Iterable[Mapping[str, Any]] | None = None,
        match_points: Iterable[int] | None = None,
    ) -> None:
        """Record the next move, as it was applied (it names its ``seat``), with the events
        it produced as the record's viewpoint saw them and every seat's match points after
        it. Both are optional: left out, they are not checked by ``replay``. What is given
        is copied.

        In a seat's record, another seat's move whose own event (of the move's kind, by
        its mover) the seat saw hidden is kept without its tile, ``target`` and
        ``open_pip``: the seat never saw them. Without the events that cannot be told, so
        a seat's record refuses another seat's move that names a tile without its events
        (``ValueError``)."""
        seat = move.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValueError("a recorded move names its seat, as the service gave the move")
        if not 0 <= seat < self._players:
            raise ValueError(f"seat {seat} is not at a table of {self._players}")
        written_move = _written(move, _MOVE)
        written = [_written(event, _EVENT) for event in events or ()]
        points = self._match_points(match_points)
        if self._seat is not None and seat != self._seat:
            if not written and any(name in written_move for name in _SECRET):
                raise ValueError(
                    f"seat {seat}'s move is recorded in seat {self._seat}'s record with the "
                    "events that seat saw of it: without them a tile it never saw (one laid "
                    "face down) could be written"
                )
            if _hidden(written_move, written):
                for name in _SECRET:
                    written_move.pop(name, None)
        recorded: RecordedMove = {"move": written_move}
        if written:
            recorded["events"] = written
        if points:
            recorded["match_points"] = points
        self._moves.append(recorded)
        self._takeable = min(self._takeable + 1, MAX_UNDO)

    def undo(self, count: int, match_points: Iterable[int] | None = None) -> None:
        """Record a take-back: the match goes back ``count`` moves (a person's last move
        against bots, and the bots' moves after it), and the next move recorded is played
        from there. ``match_points`` are every seat's after it (optional, as with
        :meth:`add`).

        ``ValueError`` unless ``count`` is at least 1 and at most the moves that may be
        taken back: those recorded less those taken back already, counted as ``replay``
        counts them (it keeps the match before each of the last :data:`MAX_UNDO` moves
        only, and a take-back uses up those it goes back over)."""
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"a take-back's count is a number of moves, not {type(count).__name__}")
        if not 1 <= count <= self._takeable:
            raise ValueError(
                f"undo {count}: {self._takeable} moves at most may be taken back here "
                f"(those recorded, less those taken back, and at most {MAX_UNDO})"
            )
        recorded: RecordedMove = {"undo": count}
        points = self._match_points(match_points)
        if points:
            recorded["match_points"] = points
        self._moves.append(recorded)
        self._takeable -= count

    def _match_points(self, match_points: Iterable[int] | None) -> list[int]:
        points = list(match_points or ())
        if points and (
            len(points) != self._players
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
        ):
            raise ValueError(f"match points are {self._players} numbers, one per seat")
        return points

    def reveal(self, seed: str) -> None:
        """Add the seed (``get_score`` answers it once the match is over). ``ValueError``
        if its SHA-256 is not the seed commitment ``new_game`` answered."""
        if not isinstance(seed, str):
            raise TypeError(f"a seed is a string, not {type(seed).__name__}")
        if hashlib.sha256(seed.encode()).hexdigest() != self._seed_commitment:
            raise ValueError("the seed's SHA-256 is not the match's seed commitment")
        self._seed = seed

    def finish(
        self, client: BaseClient, state: str, *, timeout: float | None = None
    ) -> GetScoreResponse:
        """``client.get_score(state)``, answered as it came; when the match is over, its
        seed is revealed into the record. ``state`` is the latest token of this match
        (``ValueError`` for another match's)."""
        score = client.get_score(state, timeout=timeout)
        if self._game_id and score.get("game_id") not in (None, "", self._game_id):
            raise ValueError("the state is of another match than the record's")
        seed = score.get("seed")
        if seed is not None:
            self.reveal(seed)
        return score

    @property
    def record(self) -> MatchRecord:
        """The record so far, in its JSON form (a copy: change it freely)."""
        record: MatchRecord = {"format": FORMAT}
        if self._ruleset:
            record["ruleset"] = self._ruleset
        if self._players:
            record["players"] = self._players
        if self._options is not None:
            record["options"] = copy.deepcopy(self._options)
        if self._game_id:
            record["game_id"] = self._game_id
        if self._seed_commitment:
            record["seed_commitment"] = self._seed_commitment
        if self._seed is not None:
            record["seed"] = self._seed
        if self._first_state is not None:
            record["first_state"] = self._first_state
        record["viewpoint"] = self.viewpoint
        if self._seat is not None:
            record["seat"] = self._seat
        if self._deal:
            record["deal"] = copy.deepcopy(self._deal)
        if self._moves:
            record["moves"] = copy.deepcopy(self._moves)
        return record

    def to_json(self, *, indent: int | None = None) -> str:
        """The record as JSON text: one line, or ``indent`` spaces a level."""
        separators = (",", ":") if indent is None else None
        return json.dumps(self.record, indent=indent, separators=separators, ensure_ascii=False)


def _options(ruleset: str, options: Mapping[str, Any]) -> JSON:
    """The options as the record writes them: under the ruleset's id, enums at their
    default (by name) left out; every other option has presence, and is written when
    given, zero or false included."""
    written: JSON = {}
    for name, value in wrap_options(ruleset, options).items():
        if isinstance(value, Mapping):
            value = {
                k: v
                for k, v in value.items()
                if v is not None and not (isinstance(v, str) and v.endswith("_UNSPECIFIED"))
            }
        written[name] = copy.deepcopy(value)
    return written


def _written(message: Mapping[str, Any], fields: tuple[tuple[str, _Kind], ...]) -> JSON:
    """A move or an event as the JSON form writes it; a key that is not a field of the
    message is copied as it is."""
    out: JSON = {}
    for name, kind in fields:
        value = message.get(name)
        if value is None:
            continue
        if kind == "optional":
            out[name] = value
        elif kind == "tile":
            out[name] = _tile(value)
        elif kind == "tiles":
            if value:
                out[name] = [_tile(tile) for tile in value]
        elif kind == "list":
            if value:
                out[name] = list(value)
        elif kind == "enum":
            if not _is_default_enum(value):
                out[name] = value
        elif value:
            out[name] = value
    known = {name for name, _ in fields}
    for name, value in message.items():
        if name not in known and value is not None:
            out[name] = copy.deepcopy(value)
    return out


def _hidden(move: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> bool:
    """Whether the move's own event (of the move's kind, by its mover) is hidden among
    ``events``, as the record's seat saw them: the seat never saw what the move laid."""
    kind = _kind(move.get("kind"), _MOVE_KINDS)
    seat = move.get("seat", 0)  # the JSON form leaves seat 0 out
    return kind is not None and any(
        event.get("hidden") is True
        and event.get("seat") == seat
        and _kind(event.get("kind"), _EVENT_KINDS) == kind
        for event in events
    )


def _kind(value: Any, by_number: Mapping[int, str]) -> str | None:
    """An enum's name, given by name or number; ``None`` for one a move and an event do
    not share."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return by_number.get(value)
    return None


def _tile(tile: Mapping[str, Any]) -> JSON:
    return {end: tile[end] for end in ("high", "low") if tile.get(end)}


def _is_default_enum(value: Any) -> bool:
    if isinstance(value, str):
        return value.endswith("_UNSPECIFIED")
    return value is None or (value == 0 and isinstance(value, int) and not isinstance(value, bool))
