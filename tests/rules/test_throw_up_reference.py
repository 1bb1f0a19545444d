"""Throw-up Dominoes checked in lockstep against a second reading of RULES.md: the
clean-room reference ``tests/rules/reference/throw_up.py``, written from RULES.md (and the
decisions of the service's module docstring) without reading the service's code.

No implementation of Throw-up Dominoes exists outside this project, so the check is a
second, independent reading of ``[THR-1]``..``[THR-11]``. Many random matches, 2 and 3
players, with the defaults and each option (``rethrow_repeats``, ``hands_per_player`` from
1 to 4), are played through both from the same deal: each hand's tiles are read from the
seats' views (and must be the reference's own re-deal from the seed, ``deal/<h>/0``), each
tile a ``DRAW`` takes is read from the service's ``DRAW`` event as its drawer sees it and
fed to the reference (it must be the boneyard's front), and the reference throws every die
itself from the documented stream (the throw-off and each round's throw, rethrows too).

At every decision the seat to act and the set of legal moves (kind, tile, end) are
compared; after every move the table (the line with each tile's left and right pip, the
open ends, the dice and the totals they make, the round, the leader, the idle rounds, the
pegs), every seat's hand, the hand sizes, the stock and the match totals, and the move's
events (``DICE``, ``LEADER``, ``PLAY``, ``PEG``, ``DRAW``, ``PASS``, ``TURN_PASSED``,
``HAND_OVER``, ``MATCH_OVER``); at each hand's end the end kind, each seat's count, points
and the hand's winners; at the match end the totals and the winners. Moves are chosen at
random (seeded) among the legal moves; at one decision in twenty every other move the seat
could name is tried and must be refused.

Not compared: the hand's reason in words, the events as other seats see them (beyond the
drawn tile being hidden), ``DEAL``/``NEXT_HAND`` events' order against ``LEADER``/``DICE``
(each kind is compared in its own order), the API and its tokens.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from domino_rules.rules import EventKind, Match, Move, MoveKind, Status
from domino_rules.rules.errors import IllegalMoveError
from domino_rules.rules.moves import End
from domino_rules.rules.registry import get

from .lockstep import Mismatch, Position, Tally, pair
from .reference import throw_up as ref

RULES = get("throw_up")

#: the share of decisions at which every illegal move is tried
PROBE = 0.05
#: matches per run
QUICK = 200
SLOW = 2_000


#: the rule an event shows, for the message when the events differ
EVENT_TAGS = {
    "DICE": "THR-4",
    "LEADER": "THR-2",
    "PLAY": "THR-5",
    "TURN_PASSED": "THR-5",
    "PEG": "THR-6",
    "DRAW": "THR-7",
    "PASS": "THR-7",
    "HAND_OVER": "THR-9",
    "MATCH_OVER": "THR-11",
}


def key(move: Move) -> ref.RefMove:
    return (
        move.kind.name,
        None if move.tile is None else pair(move.tile),
        None if move.end is None else move.end.name,
    )


class Lockstep(Position):
    """One match through the service and the reference."""

    def __init__(self, label: str, seed: str, players: int, values: Mapping[str, Any]) -> None:
        self.label, self.seed, self.players = label, seed, players
        self.match: Match[Any, Any] = RULES.new_match(RULES.make_options(values), players, seed)
        self.ref = ref.ThrowUp(values, players, seed)
        self.chooser = random.Random(seed)
        self.moves: list[str] = []  # this hand's moves, for the messages
        self.boneyard: list[ref.Pair] = []
        self.tally = Tally()

    # ---- comparing --------------------------------------------------------------

    def check_state(self) -> None:
        """Everything both can see after a move."""
        match, model = self.match, self.ref
        self.same("THR-11", "status", match.status.name, model.status)
        self.same("THR-4", "seat to act", RULES.to_act(match), model.to_act())
        h = model.hand
        assert h is not None
        table = RULES.view(match, None).table
        self.same("THR-5", "line", [(pair(t.tile), t.left, t.right) for t in table.line], h.line)
        self.same("THR-5", "open ends", (table.left_end, table.right_end), h.ends())
        self.same("THR-4", "dice", tuple(table.dice), h.dice)
        self.same(
            "THR-5", "qualifying totals", sorted(table.qualifying), sorted(ref.qualifying(h.dice))
        )
        self.same("THR-8", "round", table.round, h.round)
        self.same("THR-2", "leader", table.leader, h.leader)
        self.same("THR-9", "idle rounds", table.idle_rounds, h.idle_rounds)
        self.same("THR-6", "pegs", list(table.pegs), h.pegs)
        for seat in range(self.players):
            view = RULES.view(match, seat)
            self.same("THR-3", f"seat {seat}'s hand", sorted(map(pair, view.hand)), h.hands[seat])
        self.same("THR-3", "hand sizes", list(view.hand_sizes), [len(x) for x in h.hands])
        self.same("THR-3", "stock", view.stock, h.boneyard)
        self.same("THR-6", "match totals", list(view.match_points), model.totals())

    def events(self, events: Iterable[Any], seat: int | None) -> list[ref.RefEvent]:
        """The service's events as the reference writes them."""
        got: list[ref.RefEvent] = []
        for event in events:
            kind = event.kind
            if kind is EventKind.PLAY:
                end = None if event.end is None else event.end.name
                got.append(("PLAY", event.seat, pair(event.tile), end))
            elif kind is EventKind.PEG:
                got.append(("PEG", event.seat, event.points))
            elif kind is EventKind.DICE:
                got.append(("DICE", event.seat, tuple(event.dice)))
            elif kind is EventKind.LEADER:
                got.append(("LEADER", event.seat))
            elif kind is EventKind.DRAW:
                assert seat is not None
                seen = event.for_seat(seat).tile
                got.append(("DRAW", event.seat, None if seen is None else pair(seen)))
                for other in range(self.players):
                    if other != seat:
                        self.same("THR-7", "drawn tile hidden", event.for_seat(other).tile, None)
            elif kind is EventKind.PASS:
                got.append(("PASS", event.seat))
            elif kind is EventKind.TURN_PASSED:
                got.append(("TURN_PASSED", event.seat))
            elif kind in (EventKind.HAND_OVER, EventKind.MATCH_OVER):
                got.append((kind.name, tuple(event.seats), tuple(event.scores)))
        return got

    def same_events(self, got: list[ref.RefEvent], mine: list[ref.RefEvent]) -> None:
        """The move's events; a difference names the tag of the first event that differs."""
        if got == mine:
            return
        first = next((a, b) for a, b in zip([*got, None], [*mine, None], strict=False) if a != b)
        kind = next(e[0] for e in first if e is not None)
        self.same(EVENT_TAGS.get(kind, "THR-9"), "events", got, mine)

    def check_result(self) -> None:
        """[THR-9] [THR-10] [THR-11] the finished hand in GetScore."""
        score = RULES.score(self.match)
        self.same("THR-11", "hands scored", len(score.hands), len(self.ref.history))
        got, want = score.hands[-1], self.ref.history[-1]
        self.same("THR-9", "hand end", got.end.name, want.end)
        self.same("THR-10", "seat counts", got.counts, want.counts)
        self.same("THR-10", "hand winners", got.winners, want.winners)
        self.same("THR-10", "hand points", got.points, want.points)
        self.same("THR-11", "match winners", score.winners, self.ref.winners())
        self.same("THR-11", "match totals", score.match_points, tuple(self.ref.totals()))

    # ---- playing ----------------------------------------------------------------

    def deal(self, events: Iterable[Any]) -> None:
        """Give the reference the hand just dealt, from the seats' views."""
        events = tuple(events)
        hands = [sorted(map(pair, RULES.view(self.match, s).hand)) for s in range(self.players)]
        stock = RULES.view(self.match, None).stock
        dealt, self.boneyard = ref.deal(self.players, self.seed, self.ref.hand_number + 1)
        self.same("THR-3", "the deal", hands, dealt)
        self.same("THR-3", "boneyard size", stock, len(self.boneyard))
        counts = [e.count for e in events if e.kind is EventKind.DEAL]
        self.same("THR-3", "DEAL event", counts, [ref.HAND_SIZE])
        mine = self.ref.start_hand(hands, stock)
        self.same("THR-2", "deal events (DICE, LEADER)", self.events(events, None), mine)
        if self.ref.hand_number == 1 and sum(1 for e in mine if e[0] == "DICE") > self.players + 1:
            self.tally.kinds["throw-off thrown again"] += 1
        self.moves = []

    def play(self, tally: Tally) -> None:
        self.tally = tally
        self.deal(self.match.last_events)
        self.check_state()
        while True:
            legal = RULES.legal_moves(self.match)
            mine = self.ref.legal_moves()
            if self.match.status is Status.MATCH_OVER:
                self.same("THR-11", "moves after the match", legal, ())
                self.same("THR-11", "reference moves after the match", mine, [])
                break
            by_key = {key(m): m for m in legal}
            tally.sets += 1
            self.same("THR-5", "legal moves", sorted(by_key, key=repr), sorted(mine, key=repr))
            self.same("THR-5", "distinct moves", len(by_key), len(legal))
            tally.sets_equal += 1
            self.count_position(mine, tally)
            if self.chooser.random() < PROBE:
                self.probe_illegal(set(mine), tally)
            choice = self.chooser.choice(sorted(by_key, key=repr))
            move = by_key[choice]
            tally.moves += 1
            tally.kinds[move.kind.name] += 1
            self.moves.append(str(move))
            self.match, events = RULES.apply(self.match, move)
            if move.kind is MoveKind.NEXT_HAND:
                self.deal(events)
                self.check_state()
                continue
            drawn = [e for e in events if e.kind is EventKind.DRAW]
            mine_events = self.ref.apply(choice, self.take(drawn, move.seat))
            self.same_events(self.events(events, move.seat), mine_events)
            self.count_events(mine_events, tally)
            if self.match.status is not Status.IN_PROGRESS:
                tally.hands += 1
                result = self.ref.history[-1]
                tally.kinds[f"end {result.end}"] += 1
                if len(result.winners) > 1:
                    tally.kinds["tie for fewest"] += 1
                self.check_result()
            self.check_state()
        tally.matches += 1

    def take(self, drawn: list[Any], seat: int) -> ref.Draw:
        """The tile the service's ``DRAW`` shows its drawer; it must be the boneyard's front."""

        def draw(who: int) -> ref.Pair:
            if len(drawn) != 1 or who != seat:
                raise Mismatch(f"[THR-7] {self.where()}: the service drew {len(drawn)} tiles")
            tile = drawn[0].for_seat(seat).tile
            if tile is None:
                raise Mismatch(f"[THR-7] {self.where()}: the drawer does not see the tile")
            front = self.boneyard.pop(0)
            self.same("THR-3", "drawn tile is the boneyard's front", pair(tile), front)
            return front

        return draw

    def count_position(self, mine: list[ref.RefMove], tally: Tally) -> None:
        h = self.ref.hand
        if h is None or self.ref.status != ref.IN_PROGRESS:
            return
        ends = [m[2] for m in mine if m[0] == ref.PLAY]
        tiles = [m[1] for m in mine if m[0] == ref.PLAY]
        if len(tiles) != len(set(tiles)):
            tally.kinds["a tile on LEFT and on RIGHT"] += 1
        if h.line and h.line[0][1] == h.line[-1][2] and ends:
            tally.kinds["both ends show one number"] += 1

    def count_events(self, mine: list[ref.RefEvent], tally: Tally) -> None:
        dice = sum(1 for e in mine if e[0] == "DICE")
        if dice > 1:
            tally.kinds["round thrown again (rethrow_repeats)"] += 1
        plays = [e for e in mine if e[0] == "PEG"]
        if any(e[2] == 2 for e in plays):
            tally.kinds["double pegs 2"] += 1

    def probe_illegal(self, legal: set[ref.RefMove], tally: Tally) -> None:
        """[THR-5] [THR-7] every other move of the seat to act (each tile of its hand on each
        end and with none; ``DRAW``; ``PASS``; ``NEXT_HAND``) is refused and changes
        nothing; so is any move of another seat."""
        seat = RULES.to_act(self.match)
        assert seat is not None
        tiles = sorted(set(RULES.view(self.match, seat).hand))
        candidates = [Move(seat, MoveKind[k]) for k in (ref.DRAW, ref.PASS, ref.NEXT_HAND)]
        for tile in tiles:
            candidates.append(Move(seat, MoveKind.PLAY, tile))
            candidates += [Move(seat, MoveKind.PLAY, tile, end=e) for e in (End.LEFT, End.RIGHT)]
        for move in candidates:
            if key(move) in legal:
                continue
            before = self.match
            try:
                RULES.apply(self.match, move)
            except IllegalMoveError:
                tally.kinds["illegal move refused"] += 1
            else:
                raise Mismatch(f"[THR-5] {self.where()}: {move} was not refused")
            self.same("THR-5", "a refused move changes nothing", self.match, before)


# ------------------------------------------------------------------ the scenarios


def scenarios(n: int) -> list[tuple[str, int, dict[str, Any]]]:
    """``n`` matches: the defaults and each option at 2 and 3 players, then random options."""
    fixed: list[tuple[str, int, dict[str, Any]]] = []
    for players in (2, 3):
        fixed += [
            ("defaults", players, {}),
            ("rethrow repeats", players, {"rethrow_repeats": True}),
            ("one hand each", players, {"hands_per_player": 1}),
            ("three hands each", players, {"hands_per_player": 3}),
        ]
    chooser = random.Random(f"throw-up-reference-{n}")
    out = [fixed[i % len(fixed)] for i in range(min(n, 4 * len(fixed)))]
    while len(out) < n:
        values: dict[str, Any] = {
            "rethrow_repeats": chooser.random() < 0.5,
            "hands_per_player": chooser.choice([1, 2, 2, 3, 4]),
        }
        out.append(("random", chooser.choice([2, 3]), values))
    return out


def run(n: int, prefix: str) -> Tally:
    tally = Tally()
    for i, (label, players, values) in enumerate(scenarios(n)):
        Lockstep(label, f"{prefix}-{i}", players, values).play(tally)
    return tally


def check_coverage(tally: Tally) -> None:
    """What the run must have met, so that it compares what it says it does."""
    for kind in (
        "DRAW",
        "PASS",
        "NEXT_HAND",
        "end DOMINOED",
        "end BLOCKED",
        "end IDLE_ROUNDS",
        "tie for fewest",
        "throw-off thrown again",
        "round thrown again (rethrow_repeats)",
        "double pegs 2",
        "a tile on LEFT and on RIGHT",
        "both ends show one number",
        "illegal move refused",
    ):
        assert tally.kinds[kind] > 0, (kind, tally.line("coverage"))


# ------------------------------------------------------------------ the tests


def test_random_matches_agree_with_the_reference() -> None:
    """[THR-1] [THR-2] [THR-3] [THR-4] [THR-5] [THR-6] [THR-7] [THR-8] [THR-9] [THR-10]
    [THR-11] the defaults and each option at 2 and 3 players, then random options, played
    through the service and the reference in lockstep: every legal-move set, table, hand,
    score and event equal."""
    start = time.monotonic()
    tally = run(QUICK, "thrref")
    print(tally.line("quick") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == QUICK


@pytest.mark.slow
def test_many_random_matches_agree_with_the_reference() -> None:
    """[THR-2] [THR-4] [THR-5] [THR-7] [THR-9] [THR-10] [THR-11] ten times as many
    matches, with other seeds."""
    start = time.monotonic()
    tally = run(SLOW, "thrref-slow")
    print(tally.line("slow") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == SLOW


def test_the_reference_deals_and_throws_as_documented() -> None:
    """[THR-1] [THR-3] the reference alone: 27 tiles without [0-0], seven each, the rest
    the boneyard; three dice of 1..6; the totals of one, two or three dice qualify."""
    assert len(ref.full_set()) == 27 and (0, 0) not in ref.full_set()
    for players in (2, 3):
        hands, boneyard = ref.deal(players, "deal-check", 1)
        assert [len(h) for h in hands] == [7] * players
        assert sorted([t for h in hands for t in h] + boneyard) == ref.full_set()
    assert all(1 <= d <= 6 for i in range(50) for d in ref.throw("x", f"dice/1/{i}/0"))
    assert ref.qualifying((1, 5, 3)) == {1, 3, 4, 5, 6, 8, 9}
