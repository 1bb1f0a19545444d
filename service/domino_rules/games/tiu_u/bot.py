"""The Tiu U bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``TiuUTable``): the lake, the piles, every catch and its count,
the drawn tile waiting for its capture, the leader; its own hand, every hand's size and
the woodpile's size; the last move's events (none is hidden in Tiu U).

**Sampling.** The hidden tiles are the two sets less the seat's hand, the lake, the
piles (3 tiles each), the catches and the drawn tile. They are dealt at random into the
other hands (their sizes) and the woodpile (its size, in random order: it is drawn from
its top). What the rules let the seat infer is kept:

* ``[TU-4]`` a pair of ``[6-6]`` is laid out at the deal and hands never grow, so no
  hand holds two ``[6-6]``;
* ``[TU-5]`` a seat whose last move was a ``PASS`` (when ``may_decline`` is off) could
  neither capture nor pile: no tile of its hand matches ``[TU-3]`` a lake tile as the lake
  was at its hand step, nor is the fourth copy of a pile then. That lake is the lake seen
  less the tile its draw added (``TO_LAKE``), plus the tile its draw captured.

**Limits.** Only the last move is seen, so a pass before it (and what it rules out) is
lost; a ``voids`` field would keep it (see the package docstring).

**GREEDY** (``[TU-5]``..``[TU-9]``): capture the biggest fish by points, but leave for
later a fish nobody else can take. A capture is worth what its tiles add to the catch: a
big fish (8 pips or more) 2 per pip, a small fish its red pips (the rounding of small
fish to tens is left out: it changed no result measured), the three tiles of a pile
each. A lake tile is *safe* when every tile that matches it ``[TU-3]`` is one the seat
sees (in its hand, the lake, a pile or a catch): no other hand holds one and no draw can
bring one. A capture of a safe tile is put below every other capture and every pile of
the seat's own (score :data:`SAFE_SHIFT` plus a thousandth of its points), unless the
woodpile leaves the seat no later turn: a turn with nothing contested to take will
come, and the contested fish may not wait (in 4,000 seeded 2-player matches against the
plain biggest-fish rule: win share 0.510 ± 0.004, +2.0 points a match). Piling is worth
the two lake tiles and the seat's own when the seat also holds the fourth copy (the pile
is then the seat's to take, and safe from a capture by total); otherwise piling gives
the tiles away, and is worth minus the tile's value. Passing (legal when nothing else
is, or under ``may_decline``) scores -0.5: below a safe capture, above giving away a
pile worth a point or more. A drawn tile's choice (``CAPTURE_DRAWN``) takes the most
valuable target.

STRONG's playouts play the same heuristic for every seat of a sampled world (from that
seat's hand and the table) through the rules (:meth:`~domino_rules.rules.Ruleset.play_hand`).
What the worlds of one view share (the hidden pool and the places it is dealt to) is made
once per view (:meth:`TiuUBot.dealer`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ...bots.dealing import (
    GameBot,
    Slot,
    best,
    deal_hidden,
    hidden_pool,
    seat_hands,
)
from ...rules import EventKind, Match, Move, MoveKind, Tile, View
from ...rules.building import frozen_builder
from ...rules.tiles import two_chinese_sets
from .rules import TiuUHandState, TiuUOptions, TiuUTable, fish_value, matches

__all__ = ["BIG_FISH", "SAFE_SHIFT", "TiuUBot", "lake_before_pass"]

#: [TU-9] a big fish has at least this many pips.
BIG_FISH = 8
_SIX_SIX = Tile(6, 6)
#: ``TiuUHandState(*fields)``, every field in order, built the rules' fast way.
_hand_state = frozen_builder(TiuUHandState)


def lake_before_pass(view: View) -> tuple[int, list[Tile], set[Tile]] | None:
    """The seat that passed in the last move, with the lake and the piles as they were
    at its hand step ``[TU-5]`` ``[TU-6]``; ``None`` when the last move was no pass of
    another seat."""
    table: TiuUTable = view.table
    events = view.events
    if not events or events[0].kind is not EventKind.PASS:
        return None
    seat = events[0].seat
    if seat is None or seat == view.seat:
        return None
    lake = Counter(table.lake)
    piles = set(table.piles)
    for event in events[1:]:
        if event.kind is EventKind.TO_LAKE and event.tile is not None:
            lake[event.tile] -= 1  # the drawn tile joined the lake after the pass
        elif event.kind is EventKind.CAPTURE and event.target is not None:
            if len(event.tiles) == 4:
                piles.add(event.target)  # the drawn fourth copy took a pile
            else:
                lake[event.target] += 1  # the drawn tile took a lake tile
    return seat, list(lake.elements()), piles


class TiuUBot(GameBot):
    greedy_text = (
        "capture the biggest fish, but leave for later a fish nobody else can take; pile "
        "a tile only when holding its fourth copy"
    )
    margin_scale = 60.0
    margin_weight = 1.0
    candidates = 4
    #: STRONG's default, set by measurement: a median CPU per suggestion of at most 15 ms
    #: (``python bench/bots.py``) at a win share against GREEDY within noise of the larger
    #: budget it replaced (``python bench/tournament.py``)
    playouts = 25
    hand_spread = 106.0

    def hands_after(
        self, options: TiuUOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        return options.hands - hand_number  # [TU-10]

    def deal_world(
        self,
        view: View,
        options: TiuUOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> TiuUHandState | None:
        return self.dealer(view, options, players)(rng, infer)

    def dealer(
        self, view: View, options: TiuUOptions, players: int
    ) -> Callable[[random.Random, bool], TiuUHandState | None]:
        """The deals of one view: the hidden pool, the places it is dealt to (with what
        the seat that passed could not hold) and the table's fields are the same in every
        world, so they are made once here; each deal is then the cut of the pool
        (:func:`deal_hidden`, as :func:`deal_hands` would call it) and the state."""
        table: TiuUTable = view.table
        me = view.seat
        assert me is not None
        drawn = (table.drawn,) if table.drawn is not None else ()
        pool = hidden_pool(
            self.ruleset.full_set(options),
            view.hand,
            table.lake,
            [t for t in table.piles for _ in range(3)],
            [t for caught in table.catches for t in caught.tiles],
            drawn,
        )
        # the other seats' hands in seat order, then the woodpile
        others = [s for s in range(players) if s != me]
        plain = [Slot(view.hand_sizes[s]) for s in others] + [Slot(view.stock)]
        inferred = plain
        passed = lake_before_pass(view) if not options.may_decline else None
        if passed is not None:
            seat, lake, piles = passed
            # [TU-5] it could neither capture nor pile: the codes it cannot hold
            barred = {t.code for t in piles}.union(*(_MATCHING[t.code] for t in lake))

            def cannot_mate(t: Tile) -> bool:
                return t.code not in barred

            inferred = [
                Slot(view.hand_sizes[s], cannot_mate if s == seat else None) for s in others
            ]
            inferred.append(Slot(view.stock))

        # [TU-4] a pair of [6-6] is laid out at the deal: no other hand holds two, which
        # only a pool with two or more can break
        six = _SIX_SIX.code
        accept = _one_six_six if sum(1 for t in pool if t.code == six) >= 2 else None
        catches = tuple(caught.tiles for caught in table.catches)
        to_act = view.to_act if view.to_act is not None else me

        def deal(rng: random.Random, infer: bool) -> TiuUHandState | None:
            parts = deal_hidden(pool, inferred if infer else plain, rng, accept)
            if parts is None:
                return None
            return _hand_state(
                seat_hands(view.hand, players, others, parts),
                tuple(parts[-1]),
                table.lake,
                table.piles,
                catches,
                to_act,
                table.leader,
                table.drawn,
            )

        return deal

    def move_keys(self, view: View, options: TiuUOptions) -> list[Any]:
        table: TiuUTable = view.table
        seen = _seen(table.lake, table.piles, (c.tiles for c in table.catches), view.hand)
        if table.drawn is not None:
            seen[table.drawn.code] += 1
        last = view.stock <= len(view.hand_sizes)
        key = _scorer(view.hand, table.piles, seen, last, options)
        return [key(move) for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: TiuUHandState = match.hand_state
        hand = state.hands[state.to_act]
        seen = _seen(state.lake, state.piles, state.catches, hand)
        if state.drawn is not None:
            seen[state.drawn.code] += 1
        last = len(state.woodpile) <= match.players
        return best(legal, _scorer(hand, state.piles, seen, last, match.options))


def _one_six_six(parts: list[list[Tile]]) -> bool:
    """No hand of a deal (every part but the woodpile, the last) holds two ``[6-6]``."""
    six = _SIX_SIX.code
    for part in parts[:-1]:
        one = False
        for t in part:
            if t.code == six:
                if one:
                    return False
                one = True
    return True


def _seen(
    lake: tuple[Tile, ...],
    piles: tuple[Tile, ...],
    catches: Iterable[tuple[Tile, ...]],
    hand: tuple[Tile, ...],
) -> list[int]:
    """Per tile code, the copies a seat sees: on the table and in its hand."""
    seen = [0] * _CODES
    for tiles in (lake, hand, *catches):
        for t in tiles:
            seen[t.code] += 1
    for t in piles:
        seen[t.code] += 3
    return seen


#: The score of a capture the seat can leave for later, less a thousandth of its points:
#: below any other capture and any pile of the seat's own, above a pass.
SAFE_SHIFT = -0.4


def _scorer(
    hand: tuple[Tile, ...],
    piles: tuple[Tile, ...],
    seen: list[int],
    last_turn: bool,
    options: TiuUOptions,
) -> Callable[[Move], float]:
    """The GREEDY score of a move (see the module docstring); ``seen`` the copies of each
    tile code the seat sees, ``last_turn`` whether the woodpile has no turn left for the
    seat after this one."""
    red_sixes = options.red_sixes

    def key(move: Move) -> float:
        tile, target = move.tile, move.target
        if move.kind is MoveKind.PASS or tile is None:
            return -0.5
        value = fish_value(tile, red_sixes)
        if move.kind is MoveKind.PILE:
            # [TU-7] worth the pile when the seat holds the fourth copy too
            return 3 * value if hand.count(tile) >= 2 else -value
        assert target is not None
        piled = target in piles and target == tile
        taken = 3 if piled else 1
        own = value if move.kind is MoveKind.CAPTURE else 0
        gain = own + taken * fish_value(target, red_sixes)
        safe = (
            move.kind is MoveKind.CAPTURE
            and not piled
            and not last_turn
            and all(seen[c] == _COPIES[c] for c in _MATCHING[target.code])
        )
        if safe:
            # nobody else can take it: it waits for a turn with nothing else to take
            return SAFE_SHIFT + gain / 1000
        return gain

    return key


#: The highest code of a Chinese tile (``[6-6]``); arrays by tile code have one more.
_CODES = _SIX_SIX.code + 1
#: Per tile code: the codes of the tiles it matches ``[TU-3]``, ascending.
_MATCHING = tuple(
    tuple(c for c in range(_CODES) if matches(Tile.from_code(code), Tile.from_code(c)))
    for code in range(_CODES)
)
#: Per tile code: the copies of it in the two sets ``[TU-1]``.
_COPIES = tuple(two_chinese_sets().count(Tile.from_code(code)) for code in range(_CODES))
