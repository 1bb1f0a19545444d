"""Mexican Train checked in lockstep against a second reading of RULES.md: the clean-room
reference ``tests/rules/reference/mexican_train.py``, written from RULES.md's trains section
alone, without the service's code.

No implementation of these rules exists outside this project, so the cross-check is with an
independent model instead. Random matches are played through both: the service deals (its
documented shuffle, ``deal/<hand>/0``, which the harness also hands to the reference), and
each tile the service's ``DRAW`` event gives a seat (the engine hunt's included) is given to
the reference's seat as well, after checking it is the next tile of the documented boneyard.
At every decision the seat to act and the set of legal moves are compared; after every move
the events (kind, seat, tile, train, count, seats, scores: a ``DRAW``'s tile as its drawer
sees it), the table (every train's tiles with their inner and outer halves, open ends,
markers, the pending doubles with their binding flag, the seats still to open), the hand
sizes, the boneyard's size and the mover's hand; at each hand's end its end, counts, points
and winners and every hand shown; at the match's end the totals and the winners. Moves are
chosen at random (seeded) among the moves both list.

The matches spread over the sets (double-9, -12, -15), 2..8 players, both engines, both
follow-ups, both openings, with and without the Mexican train, the [0-0] at 50, every
profile of the ruleset, and tight boneyards (large ``hand_size``) where hands block. Short
matches (``hands`` 1..3) in the default tier; the slow tier plays ten times as many and some
whole matches (one hand per double).

RULES.md's worked examples 1 to 4 are played the same way from their exact deals (the
scripted moves must be legal in both), and a seat dealt only the engine. The one
difference this check found, a finished hand's ``pending`` that left out the double a seat
went out on, was the service's, and is mended (``[MT-11]``, ``[MT-14]``; the position is
``test_a_double_laid_as_the_last_tile_is_still_pending``).

Not compared: the error kinds and messages of refused moves (other than the legal sets
themselves), the words of ``explain_hand``, a state from outside (tokens), the protobuf
mapping, what a seat's view hides (a ``DRAW``'s tile from the other seats, the others' hands
beyond their sizes: the events are compared unfiltered, and only the mover's hand per move),
and ``GetScore``'s per-hand ``reasons``.
"""

from __future__ import annotations

import random
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from domino_rules.rules import Event, Match, Move, PlayerCountError, Status, Tile, rng
from domino_rules.rules.registry import get

from .positions import dealt, tiles
from .reference import mexican_train as ref

RULES = get("mexican_train")
#: RULES.md's profiles, as its "Profiles" list names them.
PROFILES: Mapping[str, Mapping[str, Any]] = {
    "pagat": {"engine": "FROM_HAND", "opening": "CHAIN"},
    "satisfy_own_double": {"engine": "FROM_HAND", "follow_up": "ON_DOUBLE"},
    "fifty_blank": {"double_blank_points": 50},
    "private_trains": {"mexican_train": False},
}


@dataclass(frozen=True)
class Config:
    """A family of matches: its options (``hands`` added per match) and player counts."""

    name: str
    options: Mapping[str, Any]
    players: Sequence[int]


def _profile(name: str) -> Mapping[str, Any]:
    found = {p.id: dict(p.options) for p in RULES.profiles}
    return found[name]


CONFIGS: tuple[Config, ...] = (
    Config("defaults", {}, (2, 3, 4, 5, 6, 7, 8)),
    Config("double-9", {"set_max_pip": 9}, (2, 3, 4)),
    Config("double-9 many", {"set_max_pip": 9, "hand_size": 6}, (5, 6, 7, 8)),
    Config("double-15", {"set_max_pip": 15}, (2, 3, 4, 5, 6, 7, 8)),
    Config("from hand", {"engine": "FROM_HAND"}, (2, 3, 4, 5, 6, 7, 8)),
    Config("hunt", {"engine": "FROM_HAND", "set_max_pip": 9, "hand_size": 3}, (2, 3, 5, 8)),
    Config("hands of one", {"engine": "FROM_HAND", "set_max_pip": 9, "hand_size": 1}, (2, 8)),
    Config("on double", {"follow_up": "ON_DOUBLE", "set_max_pip": 9}, (2, 3, 4)),
    Config("chain", {"opening": "CHAIN", "set_max_pip": 9}, (2, 3, 4)),
    Config("chain d12", {"opening": "CHAIN"}, (2, 4, 6, 8)),
    Config("chain on double", {"opening": "CHAIN", "follow_up": "ON_DOUBLE"}, (3, 5, 7)),
    Config("no mexican", {"mexican_train": False, "set_max_pip": 9}, (2, 3, 4)),
    Config("tight", {"set_max_pip": 9, "hand_size": 13}, (2, 3, 4)),
    Config("tight chain", {"set_max_pip": 9, "hand_size": 11, "opening": "CHAIN"}, (3, 4)),
    Config("tight on double", {"set_max_pip": 9, "hand_size": 10, "follow_up": "ON_DOUBLE"}, (5,)),
    Config("tight from hand", {"set_max_pip": 9, "hand_size": 11, "engine": "FROM_HAND"}, (5,)),
    Config("tight private", {"set_max_pip": 9, "hand_size": 12, "mexican_train": False}, (3, 4)),
    Config("tight d12", {"hand_size": 22}, (4,)),
    Config("blanks 50", {"set_max_pip": 9, "hand_size": 12, "double_blank_points": 50}, (4,)),
    *(Config(f"profile {name}", _profile(name), (2, 3, 4, 5, 6, 7, 8)) for name in PROFILES),
    Config("pagat 11", {**_profile("pagat"), "hand_size": 11}, (5, 6)),
)


@dataclass
class Tally:
    matches: int = 0
    hands: int = 0
    moves: int = 0
    sets: int = 0
    sets_equal: int = 0
    seen: Counter[str] = field(default_factory=Counter)

    def line(self, name: str, seconds: float) -> str:
        seen = ", ".join(f"{k} {v}" for k, v in sorted(self.seen.items()))
        return (
            f"{name}: {self.matches} matches, {self.hands} hands, {self.moves} moves compared, "
            f"legal-move sets equal {self.sets_equal} of {self.sets}, in {seconds:.1f} s; "
            f"seen: {seen}"
        )


class Mismatch(AssertionError):
    pass


def _tile_key(tile: Tile | None) -> int:
    return -1 if tile is None else tile.code


def _move_key(move: ref.Move) -> tuple[str, int, int]:
    kind, tile, train = move
    return (kind, _tile_key(tile), -1 if train is None else train)


def _events(events: Sequence[Event]) -> list[ref.Event]:
    """The service's events as the reference writes them (a DRAW's tile as its drawer sees it)."""
    return [
        (e.kind.value, e.seat, e.tile, e.train, e.count, tuple(e.seats), tuple(e.scores))
        for e in events
    ]


class Lockstep:
    """One match in both: the service's and the reference's."""

    def __init__(
        self,
        config: Config,
        players: int,
        hands: int,
        seed: str,
        *,
        order: tuple[Tile, ...] | None = None,
    ) -> None:
        """``order``: the first hand's exact deal order (the tiles the reference deals from,
        shuffled), instead of the seed's shuffle."""
        self.seed = seed
        self.config = config
        values = {**config.options, "hands": hands}
        self.order = order
        if order is None:
            self.match: Match[Any, Any] = RULES.new_match(RULES.make_options(values), players, seed)
        else:
            self.match = dealt(RULES, players, order, options=values, seed=seed)
        self.players = players
        self.draws: deque[tuple[int, Tile]] = deque()
        self.boneyard: deque[Tile] = deque()
        self.history: list[str] = []
        self.options = ref.Options.of(values)
        self.take_draws(self.match.last_events)
        self.ref = ref.MexicanTrain(self.options, players, self.shuffle, self.draw)
        self.compare_events("[MT-16]", self.match.last_events, self.ref.deal_events)
        self.compare_deal()

    # ---- what the reference is given -------------------------------------------------

    def shuffle(self, hand_number: int, deal_set: list[Tile]) -> list[Tile]:
        """The documented shuffle of the tiles the reference deals from ([MT-2])."""
        if self.order is not None and hand_number == 1:
            self.expect(
                sorted(deal_set, key=_tile_key) == sorted(self.order, key=_tile_key),
                "[MT-3]",
                "the reference deals from other tiles than the example",
            )
            order = list(self.order)
        else:
            order = list(rng.shuffled(self.seed, f"deal/{hand_number}/0", tuple(deal_set)))
        k = ref.hand_size(self.options, self.players)
        assert k is not None
        self.boneyard = deque(order[self.players * k :])
        return order

    def draw(self, seat: int) -> Tile:
        """The tile the service's DRAW event gave ``seat``: the boneyard's front ([MT-2])."""
        self.expect(bool(self.draws), "[MT-8]", f"seat {seat} draws here, the service did not")
        drawer, tile = self.draws.popleft()
        self.expect(drawer == seat, "[MT-3]", f"seat {seat} draws, the service's is {drawer}")
        front = self.boneyard.popleft() if self.boneyard else None
        self.expect(tile == front, "[MT-2]", f"drawn {tile}, the boneyard's front is {front}")
        return tile

    def take_draws(self, events: Sequence[Event]) -> None:
        self.draws = deque(
            (e.seat, e.tile)
            for e in events
            if e.kind.value == "DRAW" and e.seat is not None and e.tile is not None
        )

    # ---- comparisons -----------------------------------------------------------------

    def expect(self, ok: bool, tag: str, what: str | Callable[[], str]) -> None:
        """Fail with the tag, the seed and the position unless ``ok`` (``what`` says what
        differs; a callable is only made into words on failure)."""
        if not ok:
            what = what if isinstance(what, str) else what()
            ref_ = getattr(self, "ref", None)
            where = self.position(ref_) if ref_ is not None else ""
            raise Mismatch(
                f"{tag} seed {self.seed!r} ({self.config.name}, {self.players} players), "
                f"hand {self.match.hand_number}, after {self.history[-6:]}: {what}\n{where}"
            )

    def position(self, model: ref.MexicanTrain) -> str:
        trains = [" ".join(f"{inner}|{outer}" for _, inner, outer in line) for line in model.trains]
        return (
            f"  reference: engine {model.engine}, trains {trains}, public {model.public}, "
            f"pending {model.pending}, opening {model.opening}, to act {model.seat_to_act()}, "
            f"stock {model.stock}, hands {[sorted(map(str, h)) for h in model.hands]}"
        )

    def compare_events(self, tag: str, ours: Sequence[Event], theirs: list[ref.Event]) -> None:
        mine = _events(ours)
        self.expect(mine == theirs, tag, lambda: f"events: service {mine} reference {theirs}")
        self.expect(not self.draws, "[MT-8]", f"service drew more: {list(self.draws)}")

    def compare_deal(self) -> None:
        """[MT-2] [MT-3] the hands after the deal (and the hunt), all seats."""
        for seat in range(self.players):
            hand = RULES.view(self.match, seat).hand
            self.expect(
                sorted(hand, key=_tile_key) == sorted(self.ref.hands[seat], key=_tile_key),
                "[MT-2]",
                f"seat {seat}'s hand: service {hand}",
            )

    def compare_table(self, mover: int | None) -> None:
        """[MT-14] the spectator's view, and the mover's own hand."""
        model, view = self.ref, RULES.view(self.match, None)
        table = view.table
        self.expect(view.stock == model.stock, "[MT-8]", lambda: f"stock {view.stock}")
        sizes = tuple(len(h) for h in model.hands)
        self.expect(view.hand_sizes == sizes, "[MT-14]", lambda: f"hand sizes {view.hand_sizes}")
        self.expect(
            (table.engine, table.leader) == (model.engine, model.leader),
            "[MT-4]",
            lambda: f"engine, leader: service {table.engine} {table.leader}",
        )
        trains = [
            (
                t.train,
                tuple((laid.tile, laid.left, laid.right) for laid in t.tiles),
                t.open_end,
                t.public,
            )
            for t in table.trains
        ]
        expected = [
            (
                number,
                tuple(line),
                model.open_end(number),
                number == self.players or model.public[number],
            )
            for number, line in enumerate(model.trains)
        ]
        for got, want in zip(trains, expected, strict=False):
            if got != want:
                tag = "[MT-6]" if got[:3] == want[:3] else "[MT-5]"
                self.expect(False, tag, f"train {want[0]}: service {got} reference {want}")
        self.expect(len(trains) == len(expected), "[MT-5]", f"trains: service {len(trains)}")
        pending = [(d.train, d.binding) for d in table.pending]
        want_pending = [(d[0], d[1]) for d in model.pending]
        tag = "[MT-9]" if self.match.status is Status.IN_PROGRESS else "[MT-14]"
        self.expect(pending == want_pending, tag, lambda: f"pending: service {pending}")
        self.expect(
            list(table.opening) == model.opening, "[MT-10]", lambda: f"opening: {table.opening}"
        )
        if mover is not None and self.match.status is Status.IN_PROGRESS:
            hand = self.match.hand_state.hands[mover]  # the mover's own view shows it
            self.expect(
                sorted(hand, key=_tile_key) == sorted(model.hands[mover], key=_tile_key),
                "[MT-8]",
                lambda: f"seat {mover}'s hand: service {hand}",
            )

    def compare_hand_end(self) -> None:
        """[MT-11] [MT-12] the hand's end, counts, points and winners; every hand shown."""
        result, mine = RULES.score(self.match).hands[-1], self.ref.result
        assert mine is not None
        got = (result.end.value, result.counts, result.points, result.winners)
        want = (mine.end, mine.counts, mine.points, mine.winners)
        tag = "[MT-11]" if got[0] == want[0] else "[MT-12]"
        self.expect(got == want, tag, f"hand result: service {got} reference {want}")
        shown = RULES.view(self.match, None).shown_hands
        for seat, hand in enumerate(shown):
            self.expect(
                sorted(hand, key=_tile_key) == sorted(self.ref.hands[seat], key=_tile_key),
                "[MT-14]",
                f"seat {seat}'s hand shown: {hand}",
            )

    def compare_match_end(self) -> None:
        """[MT-13] the totals and the winners."""
        score = RULES.score(self.match)
        got = (score.match_points, score.winners)
        want = (self.ref.totals(), self.ref.winners())
        self.expect(got == want, "[MT-13]", f"match: service {got} reference {want}")

    # ---- the match -------------------------------------------------------------------

    def decide(self, tally: Tally) -> tuple[list[ref.Move], list[ref.Move]] | None:
        """Compare the seat to act and its legal moves; the moves both list (sorted) and the
        service's list, or ``None`` once the match is over."""
        to_act = RULES.to_act(self.match)
        self.expect(to_act == self.ref.seat_to_act(), "[MT-4]", lambda: f"to act: {to_act}")
        legal = RULES.legal_moves(self.match)
        if to_act is None:
            self.expect(not legal and not self.ref.legal(), "[MT-13]", "moves after the end")
            return None
        listed = [(m.kind.value, m.tile, m.train) for m in legal]
        theirs = set(listed)
        self.expect(len(listed) == len(theirs), "[MT-15]", lambda: f"listed twice: {listed}")
        mine = self.ref.legal()
        tally.sets += 1
        tally.sets_equal += theirs == mine
        self.expect(
            theirs == mine,
            self.legal_tag(),
            lambda: (
                f"seat {to_act}'s moves: service only "
                f"{sorted(theirs - mine, key=_move_key)}, reference only "
                f"{sorted(mine - theirs, key=_move_key)}"
            ),
        )
        return sorted(theirs & mine, key=_move_key), listed

    def step(self, choice: ref.Move, listed: list[ref.Move], tally: Tally) -> None:
        """Apply ``choice`` to both and compare what follows."""
        self.count_features(choice, tally)
        to_act = self.ref.seat_to_act()
        move = RULES.legal_moves(self.match)[listed.index(choice)]
        self.history.append(str(move))
        self.match, events = RULES.apply(self.match, move)
        self.take_draws(events)
        ours = self.ref.apply(choice)
        tally.moves += 1
        tally.seen.update(e.kind.value for e in events if e.kind.value != "PLAY")
        if choice[0] == "NEXT_HAND":
            tally.seen["hunt draw"] += sum(e.kind.value == "DRAW" for e in events)
        self.compare_events("[MT-16]", events, ours)
        if choice[0] == "NEXT_HAND":
            self.history.clear()
            self.compare_deal()
        self.compare_table(to_act)
        if self.match.status is not Status.IN_PROGRESS:
            tally.hands += 1
            end = self.ref.result.end if self.ref.result else None
            tally.seen[f"end {end}"] += 1
            if end == ref.BLOCKED:
                tally.seen[f"blocked by a {choice[0]}"] += 1
            if self.options.double_blank_points and any(
                Tile(0, 0) in hand for hand in self.ref.hands
            ):
                tally.seen["[0-0] left, counting 50"] += 1
            self.compare_hand_end()

    def play(self, chooser: random.Random, tally: Tally) -> None:
        """The whole match, each move chosen at random among those both list."""
        tally.matches += 1
        tally.seen["hunt draw"] += sum(e.kind.value == "DRAW" for e in self.match.last_events)
        self.compare_table(None)
        while (decision := self.decide(tally)) is not None:
            common, listed = decision
            self.step(chooser.choice(common), listed, tally)
        self.compare_match_end()
        tally.seen["pending double died"] += self.ref.died

    def script(self, moves: Sequence[str], tally: Tally) -> None:
        """The moves written (``"0 PLAY [9-4] train=0"``), each checked legal in both."""
        self.compare_table(None)
        for text in moves:
            decision = self.decide(tally)
            assert decision is not None, text
            common, listed = decision
            move = Move.parse(text)
            choice = (move.kind.value, move.tile, move.train)
            assert choice in common, (text, common)
            self.step(choice, listed, tally)

    def legal_tag(self) -> str:
        """The tag a legal-move difference most likely falls under."""
        model = self.ref
        if model.over:
            return "[MT-13]"
        if model.in_chain_turn(model.to_act):
            return "[MT-10]"
        if model.binding() is not None:
            return "[MT-9]"
        return "[MT-7]"

    def count_features(self, choice: ref.Move, tally: Tally) -> None:
        """What the tally reports: how often the rarer cases came up."""
        model = self.ref
        if model.over:
            return
        if len([d for d in model.pending if d[1]]) >= 2:
            tally.seen["several doubles binding"] += 1
        kind, tile, train = choice
        if kind == "DRAW" and not model.opening and any(not d[1] for d in model.pending):
            tally.seen["draw for a follow-up"] += 1
        if kind == "PLAY" and tile is not None and tile.is_double:
            table = model.on_table() | {tile}
            if model.dead(tile.high, table) and len(model.hands[model.to_act]) > 1:
                tally.seen["dead double laid"] += 1
        if kind == "PLAY" and train is not None and train < self.players and train != model.to_act:
            tally.seen["play on another's train"] += 1
        if kind == "PASS" and model.in_chain_turn(model.to_act) and model.trains[model.to_act]:
            tally.seen["chain stopped by PASS"] += 1
        elif kind == "PASS":
            tally.seen["pass, boneyard empty"] += 1


def run(matches: int, name: str, hands: Sequence[int], full_every: int = 0) -> Tally:
    """``matches`` lockstep matches over every config in turn; ``hands`` is drawn from per
    match, and every ``full_every``-th match is a whole one (``hands: 0``)."""
    tally = Tally()
    started = time.perf_counter()
    for i in range(matches):
        config = CONFIGS[i % len(CONFIGS)]
        chooser = random.Random(f"{name}-{i}")
        players = chooser.choice(list(config.players))
        count = 0 if full_every and i % full_every == full_every - 1 else chooser.choice(hands)
        Lockstep(config, players, count, f"mt-oracle-{name}-{i}").play(chooser, tally)
    print(tally.line(name, time.perf_counter() - started))
    return tally


def check_tally(tally: Tally) -> None:
    assert tally.sets == tally.sets_equal == tally.moves
    for kind in (
        "BONUS_TURN",
        "TURN_PASSED",
        "MARKER_UP",
        "MARKER_DOWN",
        "DRAW",
        "PASS",
        "MATCH_OVER",
        "end DOMINOED",
        "end BLOCKED",
        "dead double laid",
        "several doubles binding",
        "play on another's train",
        "pass, boneyard empty",
        "chain stopped by PASS",
        "hunt draw",
        "[0-0] left, counting 50",
        "pending double died",
        "draw for a follow-up",
        "blocked by a DRAW",
        "blocked by a PLAY",
    ):
        assert tally.seen[kind] > 0, (kind, tally.seen)


def test_random_matches_agree_with_the_reference() -> None:
    """[MT-1] [MT-2] [MT-3] [MT-4] [MT-5] [MT-6] [MT-7] [MT-8] [MT-9] [MT-10] [MT-11] [MT-12]
    [MT-13] [MT-14] [MT-15] [MT-16] random short matches over every config, move by move:
    the seat to act, the legal moves, the events, the table, each hand's result and the
    match's totals and winners all equal the reference's."""
    tally = run(len(CONFIGS) * 8, "default", (1, 1, 2, 3))
    check_tally(tally)


@pytest.mark.slow
def test_many_random_matches_agree_with_the_reference() -> None:
    """[MT-1] [MT-2] [MT-3] [MT-4] [MT-5] [MT-6] [MT-7] [MT-8] [MT-9] [MT-10] [MT-11] [MT-12]
    [MT-13] [MT-14] [MT-16] ten times the default run, every 25th match a whole one (one
    hand per double)."""
    tally = run(len(CONFIGS) * 80, "slow", (1, 2, 3, 4), full_every=25)
    check_tally(tally)
    assert tally.seen["MATCH_OVER"] == tally.matches


def test_the_profiles_are_rules_md_s() -> None:
    """[MT-3] [MT-9] [MT-10] [MT-12] [MT-5] the named profiles carry RULES.md's option values."""
    assert {p.id: dict(p.options) for p in RULES.profiles} == PROFILES


def test_player_counts_agree_with_the_reference() -> None:
    """[MT-2] [MT-15] which player counts are dealt, and which are BAD_PLAYER_COUNT, by the
    set, the engine and ``hand_size``."""
    checked = 0
    for pips in (9, 12, 15):
        in_set = (pips + 1) * (pips + 2) // 2
        for engine in ("SET_ASIDE", "FROM_HAND"):
            for size in sorted({0, 1, 6, 10, 11, 13, 15, 22, in_set // 2}):
                if size > in_set // 2:
                    continue
                values = {"set_max_pip": pips, "engine": engine, "hand_size": size}
                options = RULES.make_options(values)
                for players in range(1, 10):
                    want = ref.hand_size(ref.Options.of(values), players)
                    try:
                        match = RULES.new_match(options, players, "count")
                    except PlayerCountError:
                        assert want is None, (values, players)
                    else:
                        assert want is not None, (values, players)
                        deal = match.last_events[0]
                        assert (deal.kind.value, deal.count) == ("DEAL", want), (values, players)
                    checked += 1
    print(f"player counts: {checked} compared")


def test_a_double_laid_as_the_last_tile_is_still_pending() -> None:
    """[MT-11] [MT-14] a seat that goes out on a double leaves it unsatisfied ("even on a
    double left unsatisfied"), and the view's ``pending`` lists "the unsatisfied doubles":
    after the hand, the table still shows it pending. One two-player double-9 hand, played
    in lockstep: after 25 moves seat 1 goes out on [1-1],
    laid on the Mexican train."""
    config = Config("last double", {"set_max_pip": 9}, (2,))
    seed = "mt-last-double-87"
    Lockstep(config, 2, 1, seed).play(random.Random(seed), Tally())


# ------------------------------------------------------------------ RULES.md's worked examples

#: The examples' options: double-9, four tiles each, one hand ("Worked examples").
EXAMPLE = {"set_max_pip": 9, "hand_size": 4}
#: Examples 1 and 2's deal: the three hands, then the tiles drawn.
EXAMPLE_1 = "9-4 4-4 6-1 2-0  4-3 8-8 7-5 5-0  9-7 3-3 1-0 6-6  9-2 7-1"


def example(text: str, players: int, values: Mapping[str, Any], moves: Sequence[str]) -> Lockstep:
    """An example's deal (``text`` at the front, then the rest of the set ascending, the
    engine left out when set aside) played in lockstep by ``moves``."""
    values = {**EXAMPLE, **values}
    engine = Tile(9, 9) if values.get("engine") != "FROM_HAND" else None
    front = list(tiles(text))
    rest = [t for t in ref.full_set(9) if t not in front and t != engine]
    config = Config("example", values, (players,))
    game = Lockstep(config, players, 1, "example", order=(*front, *rest))
    game.script(moves, Tally())
    return game


def test_example_1_and_2_follow_ups_in_lockstep() -> None:
    """[MT-7] [MT-8] [MT-9] RULES.md's examples 1 (``ANY_TRAIN``) and 2 (``ON_DOUBLE``),
    move by move in both; then each example's outcome in the reference."""
    first = ["0 PLAY [9-4] train=0", "1 DRAW", "1 PLAY [9-2] train=1", "2 PLAY [9-7] train=3"]
    game = example(
        EXAMPLE_1,
        3,
        {},
        [*first, "0 PLAY [4-4] train=0", "0 DRAW", "0 PLAY [7-1] train=3"],
    )
    assert game.ref.legal() == {("PLAY", Tile(4, 3), 0)}
    game.script(["1 PLAY [4-3] train=0"], Tally())
    model = game.ref
    assert [t for t, _, _ in model.trains[0]] == [Tile(9, 4), Tile(4, 4), Tile(4, 3)]
    assert [t for t, _, _ in model.trains[3]] == [Tile(9, 7), Tile(7, 1)]
    assert model.public == [False] * 3 and model.to_act == 2
    game = example(EXAMPLE_1, 3, {"follow_up": "ON_DOUBLE"}, [*first, "0 PLAY [4-4] train=0"])
    assert game.ref.pending == [[0, True]]
    game.script(["0 DRAW"], Tally())
    assert game.ref.legal() == {("PLAY", Tile(4, 3), 0)} and game.ref.public[0]
    game.script(["1 PLAY [4-3] train=0"], Tally())
    assert game.ref.public[0]
    assert sorted(game.ref.hands[0]) == sorted([Tile(6, 1), Tile(2, 0), Tile(7, 1)])


def test_example_3_a_chain_opening_in_lockstep() -> None:
    """[MT-10] [MT-9] [MT-6] RULES.md's example 3: chains, a PASS that stops one, turns that
    end by themselves, then two doubles satisfied oldest first."""
    game = example(
        "9-5 5-5 5-3 8-2  9-6 6-6 5-2 4-0  9-3 6-1 5-4 7-7  8-1",
        3,
        {"opening": "CHAIN"},
        ["0 PLAY [9-5] train=0", "0 PLAY [5-5] train=0", "0 PASS"],
    )
    assert game.ref.public == [False] * 3
    game.script(["1 PLAY [9-6] train=1", "1 PLAY [6-6] train=1", "2 PLAY [9-3] train=2"], Tally())
    assert game.ref.pending == [[0, True], [1, True]] and not game.ref.opening
    assert game.ref.legal() == {("PLAY", Tile(5, 3), 0)}
    game.script(["0 PLAY [5-3] train=0", "1 DRAW"], Tally())
    assert game.ref.public[1] and game.ref.legal() == {("PLAY", Tile(6, 1), 1)}
    game.script(["2 PLAY [6-1] train=1"], Tally())
    assert not game.ref.pending


def test_example_4_hunting_for_the_engine_in_lockstep() -> None:
    """[MT-3] [MT-4] [MT-16] RULES.md's example 4: two rounds of draws for [9-9], all shown
    in the deal's events, and seat 0 places it and plays first."""
    game = example(
        "8-1 7-2 6-3  8-8 5-4 2-0  7-0 6-6 3-1  4-1 3-0 5-5 9-9 1-1 2-2",
        3,
        {"engine": "FROM_HAND", "hand_size": 3},
        [],
    )
    kinds = [e[0] for e in game.ref.deal_events]
    assert kinds == ["DEAL", *["DRAW"] * 6, "ENGINE", "LEADER"]
    assert game.ref.deal_events[-2][1:3] == (0, Tile(9, 9))
    assert [len(h) for h in game.ref.hands] == [4, 5, 5] and game.ref.to_act == 0


def test_a_seat_dealt_only_the_engine_plays_first_with_no_tiles() -> None:
    """[MT-3] [MT-4] [MT-8] [MT-11] one tile each, seat 0 dealt [9-9]: placing it is not
    going out; seat 0 plays first with an empty hand, draws, and goes out with the tile."""
    game = example(
        "9-9  5-3  9-1",
        2,
        {"engine": "FROM_HAND", "hand_size": 1},
        ["0 DRAW", "0 PLAY [9-1] train=0"],
    )
    assert game.ref.result == ref.Result("DOMINOED", (0, 8), (0, 8), (0,))
