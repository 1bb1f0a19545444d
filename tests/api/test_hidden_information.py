"""Leak-proof views: no answer ever shows a seat a tile it could not see at the table.

The property, over random matches (seeded random legal moves) of every registered
ruleset, checked after every move, for every seat and for the spectator (no seat):

* ``GetView``: the tiles of ``hand`` and of the ruleset's table, as a multiset, lie
  within what that seat sees at the table now; the tiles of ``legal_moves`` lie within
  it (as a set); the tiles of ``events`` lie within what the seat sees now or saw just
  before the move (an event may describe a tile that has moved since: played, captured,
  drawn). No other field of the answer holds a tile at all.
* ``ApplyMove``'s ``events`` (redacted for the moving seat) lie within the mover's
  knowledge: what the mover sees after the move or saw before it.
* ``NewGame``'s ``events`` (the deal as a spectator sees it) lie within the public part.
* ``GetLegalMoves`` asked for a seat shows only tiles that seat sees.
* ``GetScore`` holds no tile at all.
* An event that is private (a tile drawn into a hand, a face-down discard) reaches every
  other seat and the spectator with ``hidden`` set and no tile, target, tiles or
  ``open_pip``.

What a seat may see is computed here, independently of the service's views, from the
decoded internal state (``RulesService().decode(token).match.hand_state``, the ruleset's hand
dataclass) and RULES.md / DESIGN.md ("Views"):

* One Arm Joe: own hand + the arm. Not: others' hands, the boneyard.
* Tsair Deng: own hand + own face-down discards + the top tile of each of the 8 places
  of the serpentine ``[TD-6]``, computed here from the order of play. Not: others' hands,
  others' discards (only their number), covered tiles, the tiles left over ``[TD-2]``.
* Tiu U: own hand + the lake + every pile (3 tiles each) + every catch + the drawn tile
  waiting for its capture. Not: others' hands, the woodpile (contents or order).
* Throw-up: own hand + the line. Not: others' hands, the boneyard.

A spectator sees only the public part (the same without "own").

Western sets (One Arm Joe, Throw-up, double-six Tsair Deng) hold each tile once, so a
tile value names one physical tile and the checks are exact. The Chinese sets (Tsair
Deng ``CHINESE``, Tiu U) hold copies of the civil tiles, so a value check is weaker: a
covered ``[6-6]`` shown in place of the visible ``[6-6]`` on top, or another seat's
``[1-1]`` when the viewer holds one too, would pass the value check. For Tsair Deng the
view is therefore also checked structurally: the places show exactly the computed tops
and depths, the seat's own discards exactly, and others' discards only as counts.
"""

from __future__ import annotations

import base64
import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.api.service import Game
from domino_rules.internal import state_pb2
from domino_rules.rules import EventKind, Status, Tile
from domino_rules.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

# --------------------------------------------------------------------------- matches


def _seeds(prefix: str, count: int) -> tuple[str, ...]:
    return tuple(f"leak-{prefix}-{n}" for n in range(count))


#: Per ruleset: (players, options as proto3 JSON, seeds). The option combinations that
#: change what is hidden: set size (boneyard size), tile set (Chinese copies, leftovers
#: with 3 players), forced play, declining, rethrows. Matches are kept short.
CASES: dict[str, list[tuple[int, dict[str, Any], tuple[str, ...]]]] = {
    "one_arm_joe": [
        (2, {"target_score": 0}, _seeds("oaj2", 4)),
        (3, {"target_score": 30, "lead_double_bonus": True}, _seeds("oaj3", 3)),
        (4, {"target_score": 0, "set_max_pip": 9}, _seeds("oaj4", 3)),
        (6, {"target_score": 0, "set_max_pip": 12}, _seeds("oaj6", 2)),
        (9, {"target_score": 0}, _seeds("oaj9", 2)),
    ],
    "tsair_deng": [
        (2, {"tile_set": "CHINESE", "hands": 2}, _seeds("tdc2", 3)),
        (3, {"tile_set": "CHINESE", "hands": 2}, _seeds("tdc3", 3)),
        (4, {"tile_set": "CHINESE", "hands": 2, "must_play_if_able": True}, _seeds("tdc4", 3)),
        (2, {"tile_set": "DOUBLE_SIX", "hands": 2}, _seeds("td62", 3)),
        (3, {"tile_set": "DOUBLE_SIX", "hands": 2}, _seeds("td63", 3)),
        (4, {"tile_set": "DOUBLE_SIX", "hands": 2, "must_play_if_able": True}, _seeds("td64", 3)),
    ],
    "tiu_u": [
        (2, {"hands": 1}, _seeds("tu2", 4)),
        (3, {"hands": 2, "may_decline": True}, _seeds("tu3", 2)),
        (4, {"hands": 1}, _seeds("tu4", 4)),
        (4, {"hands": 1, "may_decline": True, "red_sixes": "ALL_SIXES"}, _seeds("tu4d", 2)),
    ],
    "throw_up": [
        (2, {"hands_per_player": 1}, _seeds("thr2", 5)),
        (3, {"hands_per_player": 1, "rethrow_repeats": True}, _seeds("thr3", 4)),
    ],
}

#: Rulesets with private events (a draw into a hand, a face-down discard): the runs must
#: meet at least one, so that the "hidden to others" check is not vacuous.
HAS_PRIVATE_EVENTS = {"one_arm_joe", "tsair_deng", "throw_up"}

#: Event kinds that describe a tile only one seat may see (RULES.md, DESIGN.md "Views").
PRIVATE_KINDS = {EventKind.DRAW, EventKind.DISCARD}

# --------------------------------------------------------------------------- visibility

#: The fields of each ruleset's hand dataclass this file knows how to judge. A new
#: field (a new place a tile can lie) must be judged here before the test passes.
HAND_FIELDS = {
    "one_arm_joe": {
        "hands",
        "boneyard",
        "line",
        "open_end",
        "to_act",
        "bonus",
        "leader",
        "dominoed",
    },
    "tsair_deng": {"hands", "discards", "played", "open_pip", "to_act", "leader", "unused"},
    "tiu_u": {"hands", "woodpile", "lake", "piles", "catches", "to_act", "leader", "drawn"},
    "throw_up": {
        "hands",
        "boneyard",
        "line",
        "dice",
        "round",
        "leader",
        "to_act",
        "pegs",
        "idle_rounds",
        "laid_this_round",
    },
}

PLACES = 8


def serpentine_tops(played: tuple[Tile, ...]) -> list[tuple[Tile | None, int]]:
    """[TD-6] (top tile, depth) of each of the 8 places, from the order of play.

    Tiles 1-8 lie left to right; tile 9 covers tile 8, tile 16 covers tile 1, tile 17
    covers tile 16, and so on: even rows run left to right, odd rows right to left.
    """
    places: list[tuple[Tile | None, int]] = [(None, 0)] * PLACES
    for index, tile in enumerate(played):
        row, column = divmod(index, PLACES)
        place = column if row % 2 == 0 else PLACES - 1 - column
        places[place] = (tile, places[place][1] + 1)
    return places


def _own(tiles_by_seat: tuple[tuple[Tile, ...], ...], seat: int | None) -> tuple[Tile, ...]:
    return tiles_by_seat[seat] if seat is not None else ()


def _visible_one_arm_joe(hand: Any, seat: int | None) -> list[Tile]:
    return [*_own(hand.hands, seat), *hand.line]


def _visible_tsair_deng(hand: Any, seat: int | None) -> list[Tile]:
    tops = [top for top, _ in serpentine_tops(hand.played) if top is not None]
    return [*_own(hand.hands, seat), *_own(hand.discards, seat), *tops]


def _visible_tiu_u(hand: Any, seat: int | None) -> list[Tile]:
    piles = [tile for tile in hand.piles for _ in range(3)]
    catches = [tile for caught in hand.catches for tile in caught]
    drawn = [hand.drawn] if hand.drawn is not None else []
    return [*_own(hand.hands, seat), *hand.lake, *piles, *catches, *drawn]


def _visible_throw_up(hand: Any, seat: int | None) -> list[Tile]:
    return [*_own(hand.hands, seat), *(laid.tile for laid in hand.line)]


VISIBLE: dict[str, Callable[[Any, int | None], list[Tile]]] = {
    "one_arm_joe": _visible_one_arm_joe,
    "tsair_deng": _visible_tsair_deng,
    "tiu_u": _visible_tiu_u,
    "throw_up": _visible_throw_up,
}


def visible(game: Game, seat: int | None) -> Counter[Tile]:
    """The multiset of tiles ``seat`` (``None``: a spectator) sees at the table now."""
    return Counter(VISIBLE[game.ruleset.id](game.match.hand_state, seat))


# --------------------------------------------------------------------------- tiles in messages

TILE_TYPE = pb.Tile.DESCRIPTOR.full_name


def tiles_in(message: Message) -> list[Tile]:
    """Every ``domino_rules.v1.Tile`` anywhere in ``message``, repeated or not, at any depth."""
    found: list[Tile] = []
    for desc, value in message.ListFields():
        found.extend(_tiles_of(desc, value))
    return found


def tiles_of_field(message: Message, name: str) -> list[Tile]:
    desc = message.DESCRIPTOR.fields_by_name[name]
    if not desc.is_repeated and desc.message_type is not None and not message.HasField(name):
        return []
    return _tiles_of(desc, getattr(message, name))


def _tiles_of(desc: Any, value: Any) -> list[Tile]:
    """The tiles in one field's value (a Tile, a message holding tiles, or a list of them)."""
    if desc.message_type is None:
        return []
    found: list[Tile] = []
    for item in value if desc.is_repeated else (value,):
        if desc.message_type.full_name == TILE_TYPE:
            found.append(Tile(item.high, item.low))
        else:
            found.extend(tiles_in(item))
    return found


def show(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in sorted(tiles)) or "(none)"


# --------------------------------------------------------------------------- the checks


@dataclasses.dataclass
class Stats:
    steps: int = 0
    views: int = 0
    tiles_checked: int = 0
    hidden_events: int = 0
    covered_tiles: int = 0  # Tsair Deng: most tiles covered at once


class Checker:
    """Checks every answer of one match against what each seat may see."""

    def __init__(self, service: RulesService, ruleset_id: str, context: str) -> None:
        self.service = service
        self.ruleset_id = ruleset_id
        self.context = context
        self.stats = Stats()

    def where(self, step: int, seat: int | None, what: str) -> str:
        who = "spectator" if seat is None else f"seat {seat}"
        return f"{self.context}, step {step}, {who}, {what}"

    # ---- one answer ---------------------------------------------------------

    def within_multiset(self, shown: list[Tile], allowed: Counter[Tile], where: str) -> None:
        extra = Counter(shown) - allowed
        assert not extra, (
            f"LEAK in {where}: shows {show(extra.elements())} beyond what the seat sees"
            f" ({show(allowed.elements())})"
        )
        self.stats.tiles_checked += len(shown)

    def within_set(self, shown: list[Tile], allowed: Iterable[Tile], where: str) -> None:
        extra = set(shown) - set(allowed)
        assert not extra, f"LEAK in {where}: refers to {show(extra)}, which the seat does not see"
        self.stats.tiles_checked += len(shown)

    def events_redacted(
        self, shown: Any, internal: tuple[Any, ...], seat: int | None, where: str
    ) -> None:
        """Private events reach other seats hidden and tile-free; public ones unhidden."""
        assert len(shown) == len(internal), (
            f"{where}: {len(shown)} events, the state has {len(internal)}"
        )
        for message, event in zip(shown, internal, strict=True):
            if event.kind in PRIVATE_KINDS:
                # the rules make these private to their seat, whatever the service's flag says
                assert event.private_to == event.seat, (
                    f"{where}: {event} is not private to its seat"
                )
            secret = event.private_to is not None and event.private_to != seat
            if secret:
                self.stats.hidden_events += 1
                assert message.hidden, f"LEAK in {where}: private {event.kind.name} not hidden"
                for name in ("tile", "target", "open_pip"):
                    assert not message.HasField(name), (
                        f"LEAK in {where}: hidden {event.kind.name} has {name}"
                    )
                assert not message.tiles, f"LEAK in {where}: hidden {event.kind.name} has tiles"
            else:
                assert not message.hidden, (
                    f"{where}: {event.kind.name} hidden from the seat it is for"
                )

    def view(
        self,
        game: Game,
        state: bytes,
        seat: int | None,
        now: Counter[Tile],
        before: Counter[Tile],
        step: int,
    ) -> None:
        request = (
            pb.GetViewRequest(state=state)
            if seat is None
            else pb.GetViewRequest(state=state, seat=seat)
        )
        answer = self.service.GetView(request)
        self.check_view(answer, game, seat, now, before, step)

    def check_view(
        self,
        answer: pb.GetViewResponse,
        game: Game,
        seat: int | None,
        now: Counter[Tile],
        before: Counter[Tile],
        step: int,
    ) -> None:
        self.stats.views += 1
        table = self.ruleset_id
        assert answer.WhichOneof("table") == table
        # every field that holds a tile is judged below; no other field may hold one
        judged = {"hand", table, "legal_moves", "events"}
        for desc, _ in answer.ListFields():
            if desc.name not in judged:
                stray = tiles_of_field(answer, desc.name)
                assert not stray, (
                    f"LEAK in {self.where(step, seat, 'GetView.' + desc.name)}: {show(stray)}"
                )
        self.within_multiset(
            tiles_of_field(answer, "hand") + tiles_of_field(answer, table),
            now,
            self.where(step, seat, "GetView.hand + table"),
        )
        own = list(_own(game.match.hand_state.hands, seat))
        assert sorted(tiles_of_field(answer, "hand")) == sorted(own), self.where(
            step, seat, "GetView.hand is not the own hand"
        )
        self.within_set(
            tiles_of_field(answer, "legal_moves"),
            now,
            self.where(step, seat, "GetView.legal_moves"),
        )
        self.within_set(
            tiles_of_field(answer, "events"), now | before, self.where(step, seat, "GetView.events")
        )
        self.events_redacted(
            answer.events, game.match.last_events, seat, self.where(step, seat, "GetView.events")
        )
        if seat is None:
            assert not answer.legal_moves and not answer.hand
        if table == "tsair_deng":
            self.tsair_deng_structure(answer.tsair_deng, game, seat, step)

    def tsair_deng_structure(
        self, shown: pb.TsairDengTable, game: Game, seat: int | None, step: int
    ) -> None:
        """A covered tile's place is never shown: each place shows exactly its computed top
        and depth; own discards exactly; others' discards only as counts."""
        hand, where = game.match.hand_state, self.where(step, seat, "TsairDengTable")
        expected = serpentine_tops(hand.played)
        assert len(shown.places) == PLACES, where
        for number, (place, (top, depth)) in enumerate(zip(shown.places, expected, strict=True)):
            got = Tile(place.top.high, place.top.low) if place.HasField("top") else None
            assert (got, place.depth) == (top, depth), (
                f"LEAK in {where}: place {number} shows {got} x{place.depth},"
                f" the table shows {top} x{depth}"
            )
        assert [Tile(t.high, t.low) for t in shown.discards] == list(_own(hand.discards, seat)), (
            f"LEAK in {where}: discards are not the seat's own"
        )
        assert list(shown.discard_counts) == [len(d) for d in hand.discards], where
        self.stats.covered_tiles = max(
            self.stats.covered_tiles, len(hand.played) - sum(1 for t, _ in expected if t)
        )

    def score(self, state: bytes, step: int) -> None:
        answer = self.service.GetScore(pb.GetScoreRequest(state=state))
        tiles = tiles_in(answer)
        assert not tiles, f"LEAK in {self.context}, step {step}, GetScore: {show(tiles)}"

    def legal_moves(self, state: bytes, seat: int, now: Counter[Tile], step: int) -> None:
        answer = self.service.GetLegalMoves(pb.GetLegalMovesRequest(state=state, seat=seat))
        self.within_set(tiles_in(answer), now, self.where(step, seat, "GetLegalMoves"))

    def mover_events(
        self, answer: pb.ApplyMoveResponse, after: Game, seat: int, before: Counter[Tile], step: int
    ) -> None:
        now = visible(after, seat)
        where = self.where(step, seat, "ApplyMove.events (the mover)")
        stray = [
            t
            for d, _ in answer.ListFields()
            if d.name != "events"
            for t in tiles_of_field(answer, d.name)
        ]
        assert not stray, f"LEAK in {where}: {show(stray)} outside events"
        self.within_set(tiles_of_field(answer, "events"), now | before, where)
        self.events_redacted(answer.events, after.match.last_events, seat, where)

    # ---- one match ----------------------------------------------------------

    def play(self, players: int, options: dict[str, Any], seed: str) -> Stats:
        service, chooser = self.service, random.Random(seed)
        request = pb.NewGameRequest(ruleset=self.ruleset_id, players=players, seed=seed)
        json_format.ParseDict({self.ruleset_id: options}, request.options)
        new = service.NewGame(request)
        state = new.state
        game = service.decode(state)
        seats: list[int | None] = [None, *range(players)]
        # before the deal nobody has seen anything
        before: dict[int | None, Counter[Tile]] = {s: Counter() for s in seats}
        self.within_set(tiles_in(new), visible(game, None), f"{self.context}, NewGame (spectator)")
        self.events_redacted(new.events, game.match.last_events, None, f"{self.context}, NewGame")
        for step in range(100_000):
            assert sorted(HAND_FIELDS[self.ruleset_id]) == sorted(
                f.name for f in dataclasses.fields(game.match.hand_state)
            ), f"{self.ruleset_id}'s hand has new fields: judge what a seat sees of them"
            now = {s: visible(game, s) for s in seats}
            for seat in seats:
                self.view(game, state, seat, now[seat], before[seat], step)
                if seat is not None:
                    self.legal_moves(state, seat, now[seat], step)
            self.score(state, step)
            if game.match.status is Status.MATCH_OVER:
                return self.stats
            # the platform's call (no seat): the moves of the seat to act, whoever that is;
            # it is how a platform drives the game, not a view, so it is not judged here
            moves = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state)).moves
            move = chooser.choice(list(moves))
            answer = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
            after = service.decode(answer.state)
            self.mover_events(answer, after, move.seat, now[move.seat], step)
            before, state, game = now, answer.state, after
            self.stats.steps += 1
        raise AssertionError(f"{self.context}: the match did not end")


# --------------------------------------------------------------------------- the tests

RULESET_IDS = [r.id for r in rules.all_rulesets()]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_views_events_and_scores_never_show_a_tile_the_seat_cannot_see(ruleset_id: str) -> None:
    """RULES.md / DESIGN.md "Views": each seat sees its own tiles and the face-up table only."""
    if ruleset_id not in CASES or ruleset_id not in VISIBLE:
        pytest.fail(f"ruleset {ruleset_id!r} is registered but has no leak-proof-view cases here")
    service = RulesService()
    total = Stats()
    for players, options, seeds in CASES[ruleset_id]:
        for seed in seeds:
            checker = Checker(
                service, ruleset_id, f"{ruleset_id} {players}p {options} seed {seed!r}"
            )
            stats = checker.play(players, options, seed)
            assert stats.steps > 0
            total.steps += stats.steps
            total.views += stats.views
            total.tiles_checked += stats.tiles_checked
            total.hidden_events += stats.hidden_events
            total.covered_tiles = max(total.covered_tiles, stats.covered_tiles)
    assert total.tiles_checked > 0
    if ruleset_id in HAS_PRIVATE_EVENTS:
        assert total.hidden_events > 0, "no private event met: the redaction check was vacuous"
    if ruleset_id == "tsair_deng":
        assert total.covered_tiles >= 8, "no covered tile met: the serpentine check was vacuous"


def test_the_test_knows_every_registered_ruleset() -> None:
    assert set(CASES) == set(RULESET_IDS) == set(VISIBLE) == set(HAND_FIELDS)
    for ruleset in rules.all_rulesets():
        assert {f.name for f in dataclasses.fields(ruleset.hand_state_type)} == HAND_FIELDS[
            ruleset.id
        ]


def test_the_visibility_judge_catches_a_leak() -> None:
    """The checks are not vacuous: a view showing a covered Tsair Deng tile, on a place or
    among the discards, or an event showing another seat's tile, is reported."""
    service = RulesService()
    request = pb.NewGameRequest(ruleset="tsair_deng", players=2, seed="judge")
    request.options.tsair_deng.tile_set = pb.TsairDengOptions.DOUBLE_SIX
    state = service.NewGame(request).state
    chooser = random.Random("judge")
    game = service.decode(state)
    while len(game.match.hand_state.played) <= PLACES + 1 or not all(
        game.match.hand_state.discards
    ):
        moves = list(service.GetLegalMoves(pb.GetLegalMovesRequest(state=state)).moves)
        plays = [m for m in moves if m.kind == pb.PLAY]
        discards = [m for m in moves if m.kind == pb.DISCARD]
        pick = plays if plays and (chooser.random() < 0.8 or not discards) else discards
        state = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=chooser.choice(pick))).state
        game = service.decode(state)
        assert game.match.status is Status.IN_PROGRESS, "pick a seed that covers a tile mid-hand"
    hand = game.match.hand_state
    checker = Checker(service, "tsair_deng", "judge")
    now = visible(game, 0)
    honest = service.GetView(pb.GetViewRequest(state=state, seat=0))
    checker.check_view(honest, game, 0, now, now, 0)
    tops = {top for top, _ in serpentine_tops(hand.played)}
    covered = next(t for t in hand.played if t not in tops)
    assert now[covered] == 0
    forged = pb.GetViewResponse()
    # a covered tile among the viewer's discards
    forged.CopyFrom(honest)
    forged.tsair_deng.discards.add(high=covered.high, low=covered.low)
    with pytest.raises(AssertionError, match="LEAK"):
        checker.check_view(forged, game, 0, now, now, 0)
    # a covered tile shown on top of its place instead of the tile covering it
    forged.CopyFrom(honest)
    place = next(p for p in forged.tsair_deng.places if p.depth > 1)
    place.top.CopyFrom(pb.Tile(high=covered.high, low=covered.low))
    with pytest.raises(AssertionError, match="LEAK"):
        checker.check_view(forged, game, 0, now, now, 0)
    # seat 1's discard shown to seat 0 in an event
    forged.CopyFrom(honest)
    other = hand.discards[1][0]
    forged.events.add(kind=pb.Event.DISCARD, seat=1, tile=pb.Tile(high=other.high, low=other.low))
    with pytest.raises(AssertionError, match="LEAK"):
        checker.check_view(forged, game, 0, now, now, 0)
    # the walker finds tiles nested in messages (Place.top) and in repeated fields
    shown = Counter(tiles_in(honest.tsair_deng))
    assert shown == Counter([t for t in tops if t is not None] + list(hand.discards[0]))


# --------------------------------------------------------------------------- over the wire

WIRE_CASE = ("one_arm_joe", 3, {"target_score": 0}, ("wire-a", "wire-b"))


def test_views_are_leak_proof_over_the_wire(door: Any) -> None:
    """The same property through a real server (gRPC and REST), for one ruleset."""
    ruleset_id, players, options, seeds = WIRE_CASE
    local = RulesService()  # only to decode the (unsealed) tokens the server hands out
    hidden = 0
    for seed in seeds:
        checker = Checker(local, ruleset_id, f"{door.name} {ruleset_id} seed {seed!r}")
        chooser = random.Random(seed)
        new = door.call(
            "NewGame",
            {
                "ruleset": ruleset_id,
                "players": players,
                "seed": seed,
                "options": {ruleset_id: options},
            },
        )
        state = new["state"]
        game = local.decode(base64.b64decode(state))
        seats: list[int | None] = [None, *range(players)]
        before: dict[int | None, Counter[Tile]] = {s: Counter() for s in seats}
        for step in range(10_000):
            now = {s: visible(game, s) for s in seats}
            for seat in seats:
                body: dict[str, Any] = {"state": state}
                if seat is not None:
                    body["seat"] = seat
                answer = json_format.ParseDict(door.call("GetView", body), pb.GetViewResponse())
                checker.check_view(answer, game, seat, now[seat], before[seat], step)
            score = json_format.ParseDict(
                door.call("GetScore", {"state": state}), pb.GetScoreResponse()
            )
            assert not tiles_in(score), (
                f"LEAK over {door.name}: GetScore shows {show(tiles_in(score))}"
            )
            if game.match.status is Status.MATCH_OVER:
                break
            move = chooser.choice(door.call("GetLegalMoves", {"state": state})["moves"])
            raw = door.call("ApplyMove", {"state": state, "move": move})
            answer_msg = json_format.ParseDict(raw, pb.ApplyMoveResponse())
            after = local.decode(answer_msg.state)
            checker.mover_events(answer_msg, after, move["seat"], now[move["seat"]], step)
            before, state, game = now, raw["state"], after
        else:
            raise AssertionError("the match did not end")
        hidden += checker.stats.hidden_events
    assert hidden > 0, "no DRAW met: pick seeds with a draw"


# --------------------------------------------------------------------------- sealed tokens


def test_sealed_tokens_hold_no_readable_tiles_ruleset_or_seed() -> None:
    """DESIGN.md "State token": sealed, nobody holding the token can read hands or the boneyard."""
    seed = "sealed-seed-7f3a9c"
    request = pb.NewGameRequest(ruleset="one_arm_joe", players=4, seed=seed)
    plain_service = RulesService()
    sealed_service = RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("k1"))))
    plain = plain_service.NewGame(request).state
    sealed = sealed_service.NewGame(request).state
    game = plain_service.decode(plain)
    assert sealed_service.decode(sealed).match == game.match  # the same game, only sealed
    # codec.py stores a tuple of tiles as one byte per tile (Tile.code) in a `tiles`
    # bytes field; the needle is that field as serialized, framing included, so a chance
    # match in the random ciphertext is out of the question (about 2**-40 per position).
    secrets = {
        f"seat {s}'s hand": bytes(t.code for t in game.match.hand_state.hands[s])
        for s in range(game.match.players)
    }
    secrets["the boneyard"] = bytes(t.code for t in game.match.hand_state.boneyard)
    for what, codes in secrets.items():
        needle = state_pb2.Value(tiles=codes).SerializeToString()
        assert codes in plain and needle in plain, f"{what} is not where codec.py puts it"
        assert needle not in sealed, f"the sealed token shows {what}"
    assert len(secrets["the boneyard"]) == 28 - 12
    assert secrets["the boneyard"] not in sealed
    for text in ("one_arm_joe", seed):
        assert text.encode() in plain
        assert text.encode() not in sealed, f"the sealed token shows {text!r}"
