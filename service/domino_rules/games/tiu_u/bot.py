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

Rollouts play the same heuristic for every seat of a sampled world (from that seat's
hand and the table), on tile codes and the lake as a bit set (:class:`_Playouts`). What
the worlds of one view share (the hidden pool and the places it is dealt to, the table's
codes) is made once per view (:meth:`TiuUBot.dealer`, :meth:`TiuUBot.rollouts`).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from ...bots.dealing import (
    GameBot,
    Rollouts,
    Slot,
    best,
    deal_hidden,
    hidden_pool,
    seat_hands,
)
from ...rules import EventKind, Match, Move, MoveKind, Tile, View
from ...rules.building import frozen_builder
from ...rules.tiles import red_pips, two_chinese_sets
from .rules import RedSixes, TiuUHandState, TiuUOptions, TiuUTable, matches

__all__ = ["BIG_FISH", "SAFE_SHIFT", "TiuUBot", "fish_value", "lake_before_pass"]

#: [TU-9] a big fish has at least this many pips.
BIG_FISH = 8
_SIX_SIX = Tile(6, 6)
#: ``TiuUHandState(*fields)``, every field in order, built the rules' fast way.
_hand_state = frozen_builder(TiuUHandState)


def fish_value(tile: Tile, all_sixes: bool) -> int:
    """What ``tile`` adds to a catch, the rounding of small fish aside ``[TU-9]``."""
    return _FISH[all_sixes][tile.code]


def _fish(tile: Tile, all_sixes: bool) -> int:
    if tile.pips >= BIG_FISH:
        return 2 * tile.pips
    return red_pips(tile, all_sixes=all_sixes)


#: :func:`fish_value` by ``all_sixes`` and tile code (Chinese tiles: pips up to 6).
_FISH = {
    flag: tuple(_fish(Tile.from_code(code), flag) for code in range(Tile(6, 6).code + 1))
    for flag in (False, True)
}


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

    #: The table the last worlds' playouts started from, after the objects it was read
    #: from: ``(lake, piles, catches, fish, table)`` (see :meth:`rollouts`).
    _last_table: tuple[Any, Any, Any, Any, _Table] | None = None

    def rollouts(self, match: Match[Any, Any]) -> Rollouts:
        """The playouts of a world. The worlds of one view share its lake, its piles and
        its catches, the very objects (the dealer's), so the playouts read their codes
        once, the first time, and again only for the worlds of another view."""
        state: TiuUHandState = match.hand_state
        fish = _FISH[match.options.red_sixes is RedSixes.ALL_SIXES]
        last = self._last_table
        if (
            last is None
            or last[0] is not state.lake
            or last[1] is not state.piles
            or last[2] is not state.catches
            or last[3] is not fish
        ):
            last = (state.lake, state.piles, state.catches, fish, _Table.of(state, fish))
            self._last_table = last  # one assignment: another thread sees this or the last
        return _Playouts(match, last[4])


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
    all_sixes = options.red_sixes is RedSixes.ALL_SIXES

    def key(move: Move) -> float:
        tile, target = move.tile, move.target
        if move.kind is MoveKind.PASS or tile is None:
            return -0.5
        value = fish_value(tile, all_sixes)
        if move.kind is MoveKind.PILE:
            # [TU-7] worth the pile when the seat holds the fourth copy too
            return 3 * value if hand.count(tile) >= 2 else -value
        assert target is not None
        piled = target in piles and target == tile
        taken = 3 if piled else 1
        own = value if move.kind is MoveKind.CAPTURE else 0
        gain = own + taken * fish_value(target, all_sixes)
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


# --------------------------------------------------------------------------- playouts

#: The highest code of a Chinese tile (``[6-6]``); arrays by tile code have one more.
_CODES = _SIX_SIX.code + 1
#: Per tile code: the codes of the tiles it matches ``[TU-3]``, ascending.
_MATCHING = tuple(
    tuple(c for c in range(_CODES) if matches(Tile.from_code(code), Tile.from_code(c)))
    for code in range(_CODES)
)
#: Per tile code: the tiles it matches, as a bit set of their codes.
_MATCHING_BITS = tuple(sum(1 << c for c in codes) for codes in _MATCHING)
#: The codes in a bit set of tiles that match one tile, ascending: by the bit set, for
#: every subset of every :data:`_MATCHING_BITS` (a few hundred), so that a tile's targets
#: are one dictionary lookup.
_ASCENDING = {
    sum(1 << c for c in subset): subset
    for codes in _MATCHING
    for size in range(1, len(codes) + 1)
    for subset in itertools.combinations(codes, size)
}
#: Per tile code: the copies of it in the two sets ``[TU-1]``.
_COPIES = tuple(two_chinese_sets().count(Tile.from_code(code)) for code in range(_CODES))
#: Per tile code: is it a big fish ``[TU-9]``.
_BIG = tuple(Tile.from_code(code).pips >= BIG_FISH for code in range(_CODES))
_CAPTURE, _CAPTURE_DRAWN, _PILE = MoveKind.CAPTURE, MoveKind.CAPTURE_DRAWN, MoveKind.PILE


class _Table(NamedTuple):
    """The table of a world as its playouts start from it, in tile codes: the lake's
    copies of each code and the codes in it as a bit set, the piled codes, the copies of
    each code caught, and each seat's catch so far as big and small fish points."""

    fish: tuple[int, ...]
    lake: list[int]
    in_lake: int
    piled: list[bool]
    caught: list[int]
    big: list[int]
    small: list[int]

    @classmethod
    def of(cls, state: TiuUHandState, fish: tuple[int, ...]) -> _Table:
        """The table of ``state``, ``fish`` the value of each code ([TU-9])."""
        lake = [0] * _CODES
        in_lake = 0
        for t in state.lake:
            lake[t.code] += 1
            in_lake |= 1 << t.code
        piled = [False] * _CODES
        for t in state.piles:
            piled[t.code] = True
        caught = [0] * _CODES
        big = [0] * len(state.catches)
        small = [0] * len(state.catches)
        for seat, tiles in enumerate(state.catches):
            for t in tiles:
                caught[t.code] += 1
                if _BIG[t.code]:
                    big[seat] += fish[t.code]
                else:
                    small[seat] += fish[t.code]
        return cls(fish, lake, in_lake, piled, caught, big, small)


class _Playouts(Rollouts):
    """Tiu U playouts on tile codes (see :class:`~.dealing.Rollouts`): the moves of
    ``[TU-5]``..``[TU-8]`` as the rules core makes them, the GREEDY heuristic's choice
    among them (:func:`_scorer`, the first of equal scores in the order of the legal
    moves), and the counts of ``[TU-9]``.

    The lake is kept twice: the copies of each code (for a pile, which needs exactly
    two), and the codes present as a bit set, so that the things a tile can take are the
    bit set of its matches and the lake's, ANDed, and looked up (:data:`_ASCENDING`)
    rather than searched for on every tile of every hand step."""

    def __init__(self, match: Match[TiuUOptions, TiuUHandState], table: _Table) -> None:
        state = match.hand_state
        self.players = match.players
        self.may_decline = match.options.may_decline
        self.fish = table.fish
        self.hands = [[t.code for t in hand] for hand in state.hands]
        self.woodpile = [t.code for t in state.woodpile]
        # shared with the other worlds of the view: play copies what it changes
        self.lake, self.in_lake, self.piled = table.lake, table.in_lake, table.piled
        self.caught, self.big, self.small = table.caught, table.big, table.small
        self.to_act = state.to_act

    def play(self, move: Move) -> tuple[int, ...]:
        players, fish, may_decline = self.players, self.fish, self.may_decline
        matching, ascending = _MATCHING_BITS, _ASCENDING
        hands = [hand[:] for hand in self.hands]
        woodpile = self.woodpile
        drawn_at, end = 0, len(woodpile)
        lake, piled, caught = self.lake[:], self.piled[:], self.caught[:]
        in_lake = self.in_lake
        big, small = self.big[:], self.small[:]

        def capture(seat: int, tile: int, target: int) -> None:
            """``seat`` takes ``target`` with ``tile`` [TU-5] [TU-6]; a pile is taken by
            its fourth copy, all three at once [TU-7]."""
            nonlocal in_lake
            if tile == target and piled[target]:
                piled[target] = False
                taken = 3
            else:
                lake[target] -= 1
                if not lake[target]:
                    in_lake ^= 1 << target
                taken = 1
            caught[tile] += 1
            caught[target] += taken
            gain = fish[tile] + taken * fish[target]
            if _BIG[tile]:
                big[seat] += gain
            else:
                small[seat] += gain

        def pile(hand: list[int], tile: int) -> None:
            """``tile``, from ``hand``, piled on its two copies in the lake [TU-7]."""
            nonlocal in_lake
            hand.remove(tile)
            lake[tile] -= 2  # the two there: none is left
            in_lake ^= 1 << tile
            piled[tile] = True

        def targets(found: int) -> tuple[int, ...]:
            """The distinct things a drawn tile can take, ascending, from their bit set
            (a function of its own: where the choice of ``CAPTURE_DRAWN`` is made, which
            tests/bots reads as the playout runs)."""
            return ascending[found]

        def draw(seat: int, tile: int) -> None:
            """[TU-6] the draw step of ``tile``: it takes what it matches (the best-scored
            target when there is a choice), or joins the lake."""
            nonlocal in_lake
            found = in_lake & matching[tile]
            if piled[tile]:
                found |= 1 << tile
            if not found:
                lake[tile] += 1
                in_lake |= 1 << tile
            elif not found & (found - 1):
                # one thing to take (most draws that take something take the one thing
                # they can): no choice to make
                capture(seat, tile, found.bit_length() - 1)
            else:
                top, top_key = -1, -1
                for target in targets(found):
                    key = (3 if target == tile and piled[tile] else 1) * fish[target]
                    if key > top_key:
                        top, top_key = target, key
                capture(seat, tile, top)

        seat = self.to_act
        kind = move.kind
        if kind is _CAPTURE_DRAWN:
            assert move.tile is not None and move.target is not None
            capture(seat, move.tile.code, move.target.code)
        else:
            hand = hands[seat]
            if kind is _CAPTURE:
                assert move.tile is not None and move.target is not None
                hand.remove(move.tile.code)
                capture(seat, move.tile.code, move.target.code)
            elif kind is _PILE:
                assert move.tile is not None
                pile(hand, move.tile.code)
            if drawn_at < end:
                draw(seat, woodpile[drawn_at])
                drawn_at += 1
        seat = seat + 1 if seat + 1 < players else 0
        while drawn_at < end:
            # [TU-5] the hand step: the best-scored capture, pile or pass
            hand = hands[seat]
            choice, choice_key, choice_target = -1, -1.0e9, -1
            if hand:
                last_turn = end - drawn_at <= players
                # a tile of the hand with two copies in the lake (it matches itself, so
                # it has targets): only then can the seat pile, and piles are looked for
                pairs = False
                last = -1
                for tile in hand:
                    if tile == last:
                        continue
                    last = tile
                    found = in_lake & matching[tile]
                    if piled[tile]:
                        found |= 1 << tile
                    if not found:
                        continue
                    if lake[tile] == 2:
                        pairs = True
                    own = fish[tile]
                    for target in ascending[found]:
                        piled_target = target == tile and piled[tile]
                        gain = own + (3 if piled_target else 1) * fish[target]
                        if gain <= choice_key:
                            continue  # no better, nor is its lower score as a safe capture
                        key: float = gain
                        if not piled_target and not last_turn:
                            for c in _MATCHING[target]:
                                if _COPIES[c] != lake[c] + 3 * piled[c] + caught[c] + hand.count(c):
                                    break
                            else:
                                # nobody else can take it: it waits [see _scorer]
                                key = SAFE_SHIFT + gain / 1000
                        if key > choice_key:
                            choice, choice_key, choice_target = tile, key, target
                if pairs:
                    last = -1
                    for tile in hand:
                        if tile == last:
                            continue
                        last = tile
                        if lake[tile] == 2 and not caught[tile]:
                            # [TU-7] worth the pile when the seat holds the fourth copy too
                            key = 3 * fish[tile] if hand.count(tile) >= 2 else -fish[tile]
                            if key > choice_key:
                                choice, choice_key, choice_target = tile, key, -1
                if choice < 0 or (may_decline and choice_key < -0.5):
                    pass  # [TU-5] PASS
                elif choice_target >= 0:
                    hand.remove(choice)
                    capture(seat, choice, choice_target)
                else:
                    pile(hand, choice)
            draw(seat, woodpile[drawn_at])
            drawn_at += 1
            seat = seat + 1 if seat + 1 < players else 0
        # [TU-9] big fish 2 per pip, small fish their red pips rounded up to tens
        return tuple(b - (-s // 10) * 10 for b, s in zip(big, small, strict=True))
