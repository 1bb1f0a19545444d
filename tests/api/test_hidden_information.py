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

What a seat may see is judged by each game's judge (its declarations' ``judge``, in its
package's module ``testing``), independently of the service's views, from the decoded
internal state (``RulesService().decode(token)``); its matches are declared there too.
They are played in process (the same JSON requests, no transport) and, for one case,
through the real servers.

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
from collections.abc import Iterable, Mapping
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.games.testing import Judge, own
from domino_rules.games.tsair_deng.testing import PLACES, serpentine_tops
from domino_rules.rules import Event, EventKind, Status, Tile
from domino_rules.state.codec import Game
from domino_rules.state.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

from ..cases import cases_for
from .doors import Door, LocalDoor
from .play import DoorStep, new_game, play_to_end

RULESET_IDS = [r.id for r in rules.all_rulesets()]

#: Event kinds that describe a tile only one seat may see (RULES.md, DESIGN.md "Views").
PRIVATE_KINDS = {EventKind.DRAW, EventKind.DISCARD}

#: The case played through the real servers: (ruleset, players, options, seeds).
WIRE_CASE = ("one_arm_joe", 3, {"target_score": 0}, ("wire-a", "wire-b"))

# --------------------------------------------------------------------------- tiles in messages

TILE_TYPE = pb.Tile.DESCRIPTOR.full_name


def tiles_in(message: Message) -> list[Tile]:
    """Every ``domino_rules.v1.Tile`` anywhere in ``message``, repeated or not, at any depth."""
    return [tile for desc, value in message.ListFields() for tile in _tiles_of(desc, value)]


def tiles_of_field(message: Message, name: str) -> list[Tile]:
    desc = message.DESCRIPTOR.fields_by_name[name]
    if not desc.is_repeated and desc.message_type is not None and not message.HasField(name):
        return []
    return _tiles_of(desc, getattr(message, name))


def _tiles_of(desc: Any, value: Any) -> list[Tile]:
    """The tiles in one field's value (a Tile, a message holding tiles, or a list of them);
    ``desc`` is the field's descriptor (of the pure-Python or the upb implementation)."""
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

    def add(self, other: Stats) -> None:
        self.steps += other.steps
        self.views += other.views
        self.tiles_checked += other.tiles_checked
        self.hidden_events += other.hidden_events
        self.covered_tiles = max(self.covered_tiles, other.covered_tiles)


Seen = dict[int | None, Counter[Tile]]


class Checker:
    """Checks every answer of one match, played through a door, against what each seat
    may see. Tokens are opened with ``local`` (so the door must hand out unsealed ones,
    or tokens sealed with a key ``local`` has)."""

    def __init__(self, door: Door, ruleset_id: str, context: str) -> None:
        self.door = door
        self.local = RulesService()
        self.ruleset_id = ruleset_id
        self.judge: Judge = cases_for(ruleset_id).judge
        self.context = context
        self.stats = Stats()

    def where(self, step: int, seat: int | None, what: str) -> str:
        who = "spectator" if seat is None else f"seat {seat}"
        return f"{self.context}, step {step}, {who}, {what}"

    def decode(self, state: str) -> Game:
        return self.local.decode(base64.b64decode(state))

    def visible(self, game: Game, seat: int | None) -> Counter[Tile]:
        return self.judge.visible(game.match.hand_state, seat)

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
        self, shown: Iterable[pb.Event], internal: tuple[Event, ...], seat: int | None, where: str
    ) -> None:
        """Private events reach other seats hidden and tile-free; public ones unhidden."""
        shown = list(shown)
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
        judged = {"hand", table, "legal_moves", "events", "shown_hands"}
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
        mine = list(own(game.match.hand_state.hands, seat))
        assert sorted(tiles_of_field(answer, "hand")) == sorted(mine), self.where(
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
        # the hands are turned up once the hand is over, and only then: each seat's own
        shown = [sorted(tiles_of_field(hand, "tiles")) for hand in answer.shown_hands]
        if game.match.status is Status.IN_PROGRESS:
            assert not shown, f"LEAK in {self.where(step, seat, 'GetView.shown_hands')}"
        else:
            left = [sorted(hand) for hand in game.match.hand_state.hands]
            assert shown == left, self.where(step, seat, "GetView.shown_hands at the hand's end")
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
        assert [Tile(t.high, t.low) for t in shown.discards] == list(own(hand.discards, seat)), (
            f"LEAK in {where}: discards are not the seat's own"
        )
        assert list(shown.discard_counts) == [len(d) for d in hand.discards], where
        self.stats.covered_tiles = max(
            self.stats.covered_tiles, len(hand.played) - sum(1 for t, _ in expected if t)
        )

    def mover_events(
        self, answer: pb.ApplyMoveResponse, after: Game, seat: int, before: Counter[Tile], step: int
    ) -> None:
        now = self.visible(after, seat)
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

    # ---- one state, one match -----------------------------------------------

    def state(self, state: str, game: Game, before: Seen, step: int) -> Seen:
        """Every seat's view and legal moves, the spectator's view, the score; returns
        what each seat sees now."""
        seats: list[int | None] = [None, *range(game.match.players)]
        now = {seat: self.visible(game, seat) for seat in seats}
        token = base64.b64decode(state)
        for seat in seats:
            view = self.door.ask("GetView", pb.GetViewRequest(state=token, seat=seat))
            assert isinstance(view, pb.GetViewResponse)
            self.check_view(view, game, seat, now[seat], before[seat], step)
            if seat is not None:
                legal = self.door.ask(
                    "GetLegalMoves", pb.GetLegalMovesRequest(state=token, seat=seat)
                )
                self.within_set(tiles_in(legal), now[seat], self.where(step, seat, "GetLegalMoves"))
        score = self.door.ask("GetScore", pb.GetScoreRequest(state=token))
        assert not tiles_in(score), f"LEAK in {self.context}, step {step}, GetScore"
        return now

    def play(self, players: int, options: Mapping[str, Any], seed: str) -> Stats:
        """A match to its end, every answer checked. The moves are the platform's call
        (``GetLegalMoves`` with no seat): how a platform drives a game, not a view."""
        new = new_game(self.door, self.ruleset_id, players, seed, options)
        game = self.decode(new["state"])
        new_message = json_format.ParseDict(new, pb.NewGameResponse())
        where = f"{self.context}, NewGame (spectator)"
        self.within_set(tiles_in(new_message), self.visible(game, None), where)
        self.events_redacted(new_message.events, game.match.last_events, None, where)
        # before the deal nobody has seen anything
        seen = self.state(new["state"], game, {s: Counter() for s in [None, *range(players)]}, 0)

        def observe(step: DoorStep) -> None:
            nonlocal seen
            answer = json_format.ParseDict(step.answer, pb.ApplyMoveResponse())
            after = self.decode(step.answer["state"])
            mover = step.move["seat"]
            self.mover_events(answer, after, mover, seen[mover], step.number)
            seen = self.state(step.answer["state"], after, seen, step.number)
            self.stats.steps += 1

        play_to_end(self.door, new, seed, observe=observe)
        return self.stats


# --------------------------------------------------------------------------- the tests


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_views_events_and_scores_never_show_a_tile_the_seat_cannot_see(ruleset_id: str) -> None:
    """RULES.md / DESIGN.md "Views": each seat sees its own tiles and the face-up table only."""
    cases = cases_for(ruleset_id)
    door = LocalDoor()
    total = Stats()
    for setup in cases.leak_games:
        for seed in setup.seeds:
            context = f"{ruleset_id} {setup.players}p {dict(setup.options)} seed {seed!r}"
            stats = Checker(door, ruleset_id, context).play(setup.players, setup.options, seed)
            assert stats.steps > 0
            total.add(stats)
    assert total.tiles_checked > 0
    if cases.private_events:
        assert total.hidden_events > 0, "no private event met: the redaction check was vacuous"
    if ruleset_id == "tsair_deng":
        assert total.covered_tiles >= 8, "no covered tile met: the serpentine check was vacuous"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_judge_knows_every_field_of_the_hand_state(ruleset_id: str) -> None:
    """A new field of a hand state (a new place a tile can lie) must be judged first."""
    ruleset = rules.get(ruleset_id)
    fields = {f.name for f in dataclasses.fields(ruleset.hand_state_type)}
    assert fields == cases_for(ruleset_id).judge.fields, (
        f"{ruleset_id}'s hand state has new fields: judge what a seat sees of them"
    )


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
    checker = Checker(LocalDoor(service), "tsair_deng", "judge")
    now = checker.visible(game, 0)
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


def test_views_are_leak_proof_over_the_wire(door: Door) -> None:
    """The same property through a real server (gRPC and REST), for one ruleset."""
    ruleset_id, players, options, seeds = WIRE_CASE
    total = Stats()
    for seed in seeds:
        checker = Checker(door, ruleset_id, f"{door.name} {ruleset_id} seed {seed!r}")
        total.add(checker.play(players, options, seed))
    assert total.hidden_events > 0, "no DRAW met: pick seeds with a draw"


# --------------------------------------------------------------------------- sealed tokens


def test_sealed_tokens_hold_no_readable_tiles_or_seed() -> None:
    """DESIGN.md "State token": sealed, nobody holding the token can read hands or the
    boneyard: no piece of the state a token carries shows in the sealed token."""
    seed = "sealed-seed-7f3a9c"
    request = pb.NewGameRequest(ruleset="one_arm_joe", players=4, seed=seed)
    plain_service = RulesService()
    sealed_service = RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("k1"))))
    plain = plain_service.NewGame(request).state
    sealed = sealed_service.NewGame(request).state
    game = plain_service.decode(plain)
    assert sealed_service.decode(sealed).match == game.match  # the same game, only sealed
    payload = TokenCodec().open(plain)  # the state a token carries
    # the secrets are in it as packing.py puts them (a tile is one byte, Tile.code) ...
    hand_state = game.match.hand_state
    secrets = {
        f"seat {seat}'s hand": bytes(t.code for t in hand)
        for seat, hand in enumerate(hand_state.hands)
    }
    secrets["the boneyard"] = bytes(t.code for t in hand_state.boneyard)
    secrets["the seed"] = seed.encode()
    assert len(secrets["the boneyard"]) == 28 - 12
    for what, secret in secrets.items():
        assert secret in payload, f"{what} is not where packing.py puts it"
    # ... and no run of 8 bytes of it shows in the sealed token (by chance, in random
    # ciphertext: about len(payload) * len(sealed) / 2**64)
    run = 8
    shown = [i for i in range(len(payload) - run + 1) if payload[i : i + run] in sealed]
    assert not shown, f"the sealed token shows the state's bytes at {shown}"
