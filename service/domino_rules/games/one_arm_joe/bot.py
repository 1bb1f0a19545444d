"""The One Arm Joe bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``OneArmJoeTable``): the arm (every tile laid, in order), the
open end, the bonus turn and the leader; its own hand, every hand's size and the
boneyard's size; the events of the last move, with other seats' drawn tiles hidden.

**Sampling.** The hidden tiles are the set less the seat's hand and the arm. They are
dealt at random into the other hands (their sizes as seen) and the boneyard (its size as
seen, in random order: the boneyard is drawn from its front). What the rules let the seat
infer is kept:

* ``[OAJ-3]`` before the lead, the seat to act leads, so it holds the highest double
  dealt: no other hand holds a higher double;
* ``[OAJ-8]`` the hand goes on, so with an empty boneyard some hand holds a tile that
  matches the open end;
* ``[OAJ-7]`` a seat that drew in the last move had no tile matching the open end it
  drew on, and the tiles it drew and kept did not match it either: its hand holds no
  tile with that pip (the pip is the one the auto-played tile was laid on, or the open
  end when the boneyard ran out); ``[OAJ-6]`` ``[OAJ-7]`` a seat that passed in the last
  move holds no tile matching the open end.

**Limits.** The view carries the last move's events only, so only the last mover's draw
or pass is known; an earlier draw or pass (and the pips it rules out) is not. Nor does
the view say which tiles a seat was dealt and which it drew, so "nobody was dealt a
double higher than the lead" is not used after the lead. A ``voids`` field of the table
would carry the rest (see the package docstring).

**GREEDY** (``[OAJ-7]``: a player with matching tiles must play one of them; every other
turn has one legal move). Among the matching tiles, the highest score of:

* the tile's pips (a heavy tile shed is a heavy tile that cannot count against the seat
  at the end, ``[OAJ-9]``);
* a double, worth 1.5 tiles of the set's top pip when the seat can follow it on its bonus
  turn ``[OAJ-6]`` (two tiles shed in one turn), half a top pip otherwise;
* per tile left in the seat's hand that matches the new open end, a top pip (the seat
  keeps a play), and per tile with that pip already on the arm, a third of one (the
  fewer such tiles remain hidden, the likelier the next seat must draw, ``[OAJ-7]``);
* per different pip left in the seat's hand, a sixth of a top pip (suits kept varied
  match more open ends later).

Playouts play the same heuristic for every seat of a sampled world, from that seat's
hand, through the rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ...bots.dealing import GameBot, Slot, deal_hidden, hidden_pool, seat_hands
from ...rules import EventKind, Match, Move, MoveKind, Tile, View
from ...rules.building import frozen_builder
from ...rules.tiles import MAX_PIP, double_n
from .rules import OneArmJoeHandState, OneArmJoeOptions, OneArmJoeTable

__all__ = ["OneArmJoeBot", "play_key", "voids"]

#: About the points a hand's winner scores (GREEDY against GREEDY, 2 players).
_POINTS_A_HAND = 20.0
#: ``OneArmJoeHandState(*fields)``, every field in order, built the rules' fast way.
_hand_state = frozen_builder(OneArmJoeHandState)
#: Every tile of the largest set, by code.
_ALL = double_n(MAX_PIP)


def _by_code(allowed: list[bool]) -> Callable[[Tile], bool]:
    """Whether a tile is allowed, read from ``allowed`` by its code."""
    return lambda t: allowed[t.code]


def voids(view: View) -> dict[int, int]:
    """Per seat, a pip the last move shows that seat holds no tile of (``[OAJ-6]``,
    ``[OAJ-7]``): the pip it drew on, or the open end it passed on."""
    table: OneArmJoeTable = view.table
    out: dict[int, int] = {}
    for event in view.events:
        seat = event.seat
        if seat is None or seat == view.seat:
            continue
        if event.kind is EventKind.AUTO_PLAY:
            # [OAJ-7] drawn until a tile matched: it was laid on the pip the seat lacked
            assert event.tile is not None and event.open_pip is not None
            out[seat] = event.tile.other(event.open_pip)
        elif event.kind in (EventKind.TURN_PASSED, EventKind.PASS) and table.open_end is not None:
            # [OAJ-7] the boneyard ran out, or [OAJ-6] [OAJ-7] a pass: no matching tile
            out[seat] = table.open_end
    return out


def play_key(
    tile: Tile, hand: tuple[Tile, ...], open_end: int, line: tuple[Tile, ...], top: int
) -> float:
    """The GREEDY score of playing ``tile`` from ``hand`` on ``open_end`` (see the module
    docstring); ``top`` is the set's highest pip."""
    in_hand = _pip_counts(hand)
    return _play_key(tile, open_end, top, in_hand, _pip_counts(line), _nonzero(in_hand))


def _pip_counts(tiles: tuple[Tile, ...]) -> list[int]:
    """Per pip, how many of ``tiles`` have it."""
    counts = [0] * (MAX_PIP + 1)
    for t in tiles:
        counts[t.high] += 1
        if t.low != t.high:
            counts[t.low] += 1
    return counts


def _nonzero(counts: list[int]) -> int:
    return sum(1 for count in counts if count)


def _play_key(
    tile: Tile, open_end: int, top: int, in_hand: list[int], on_arm: list[int], pips: int
) -> float:
    """:func:`play_key` from the hand's and the arm's counts per pip and the number of
    different pips in the hand (``pips``): what the tiles left in hand are, the tile
    played aside (the set has no two equal tiles)."""
    new_end = tile.other(open_end)
    follow = in_hand[new_end] - 1  # the tile itself has the end it leaves
    if in_hand[tile.high] == 1:
        pips -= 1  # its pip is in no other tile of the hand
    if tile.low != tile.high and in_hand[tile.low] == 1:
        pips -= 1
    key = tile.pips + top * (follow + on_arm[new_end] / 3 + pips / 6)
    if tile.is_double:
        key += top * (1.5 if follow else 0.5)
    return key


class OneArmJoeBot(GameBot):
    greedy_text = (
        "of the matching tiles, the heaviest, a double when the seat can follow it, "
        "keeping tiles that match the new end and pips of every kind"
    )
    margin_scale = 15.0
    hand_spread = 27.0
    #: STRONG's default, set by measurement: a median CPU per suggestion of at most 15 ms
    #: (``python bench/bots.py``) at a win share against GREEDY within noise of the larger
    #: budget it replaced (``python bench/tournament.py``)
    playouts = 80

    def hands_after(
        self, options: OneArmJoeOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        target = options.target_score
        if target <= 0:
            return 0.0  # [OAJ-10] a single hand
        # [OAJ-10] until a total reaches the target: the hand's winner scores some 20
        return self.hands_to_target(target, totals, _POINTS_A_HAND)

    def deal_world(
        self,
        view: View,
        options: OneArmJoeOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> OneArmJoeHandState | None:
        return self.dealer(view, options, players)(rng, infer)

    def dealer(
        self, view: View, options: OneArmJoeOptions, players: int
    ) -> Callable[[random.Random, bool], OneArmJoeHandState | None]:
        """The deals of one view: the hidden pool, what each hand allows (by tile code)
        and the places the tiles go are made once, each deal only cuts the pool
        (:func:`deal_hidden`, as :func:`deal_hands` calls it)."""
        table: OneArmJoeTable = view.table
        me = view.seat
        assert me is not None
        pool = hidden_pool(self.ruleset.full_set(options), view.hand, table.line)
        top_double = -1
        if not table.line:
            # [OAJ-3] the seat to act leads: it holds the highest double dealt
            top_double = max(t.code for t in view.hand if t.is_double)
        others = [s for s in range(players) if s != me]

        def slots(lacking: dict[int, int]) -> list[Slot]:
            """The other hands, in seat order, then the boneyard; a hand allows no tile
            with the pip it lacks, and none a double above the lead's."""
            out = []
            for seat in others:
                pip = lacking.get(seat, -1)
                allows = None
                if pip >= 0 or top_double >= 0:
                    allowed = [
                        not (t.has(pip) or (t.is_double and t.code > top_double >= 0)) for t in _ALL
                    ]
                    allows = _by_code(allowed)
                out.append(Slot(view.hand_sizes[seat], allows))
            out.append(Slot(view.stock))
            return out

        inferred, plain = slots(voids(view)), slots({})
        open_end = table.open_end
        accept = None
        if view.stock == 0 and open_end is not None and not any(t.has(open_end) for t in view.hand):
            # [OAJ-8] not blocked: somebody else can match the open end

            def accept(parts: list[list[Tile]]) -> bool:
                return any(t.has(open_end) for part in parts[:-1] for t in part)

        line, bonus, leader = table.line, table.bonus_turn, table.leader
        to_act = view.to_act if view.to_act is not None else me

        def deal(rng: random.Random, infer: bool) -> OneArmJoeHandState | None:
            parts = deal_hidden(pool, inferred if infer else plain, rng, accept)
            if parts is None:
                return None
            hands = seat_hands(view.hand, players, others, parts)
            boneyard = tuple(parts[-1])
            return _hand_state(hands, boneyard, line, open_end, to_act, bonus, leader, None)

        return deal

    def move_keys(self, view: View, options: OneArmJoeOptions) -> list[Any]:
        table: OneArmJoeTable = view.table
        return _keys(view.legal_moves, view.hand, table.open_end, table.line, options)

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: OneArmJoeHandState = match.hand_state
        hand = state.hands[state.to_act]
        return _choose(legal, hand, state.open_end, state.line, match.options)


def _keys(
    legal: tuple[Move, ...],
    hand: tuple[Tile, ...],
    open_end: int | None,
    line: tuple[Tile, ...],
    options: OneArmJoeOptions,
) -> list[float]:
    if open_end is None:
        return [0.0] * len(legal)  # the lead of the highest double [OAJ-3]
    top = options.set_max_pip
    in_hand, on_arm = _pip_counts(hand), _pip_counts(line)
    pips = _nonzero(in_hand)
    return [
        _play_key(move.tile, open_end, top, in_hand, on_arm, pips)
        if move.kind is MoveKind.PLAY and move.tile is not None
        else 0.0
        for move in legal
    ]


def _choose(
    legal: tuple[Move, ...],
    hand: tuple[Tile, ...],
    open_end: int | None,
    line: tuple[Tile, ...],
    options: OneArmJoeOptions,
) -> Move:
    if len(legal) == 1:
        return legal[0]  # a forced move, or the lead of the highest double [OAJ-3]
    keys = _keys(legal, hand, open_end, line, options)
    return legal[max(range(len(legal)), key=lambda i: (keys[i], -i))]
