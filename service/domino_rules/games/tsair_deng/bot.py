"""The Tsair Deng bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``TsairDengTable``): the top tile and the depth of each of the
8 places of the serpentine ``[TD-6]``, the open half, how many tiles were played, its own
face-down discards, every seat's number of discards and the leader; its own hand and
every hand's size; the last move's events (other seats' discards hidden).

**Sampling.** The hidden tiles are the set less the seat's hand, its own discards and the
8 top tiles. They lie in four kinds of places, all dealt at random:

* the covered tiles of the serpentine: the tile numbers ``1..played`` that are not on
  top of their place. They are drawn as a chain ``[TD-4]`` ``[TD-5]``: walking back from
  the open half, each covered tile is drawn among the hidden tiles with a half equal to
  the open half after it (its other half is then the open half before it), and only
  where the chain can still be completed through the visible tops (a reachability table
  over pips, ignoring how many copies are left, built once per view; a walk that runs
  out of copies starts again, and after :data:`CHAIN_TRIES` walks a depth-first search
  with backtracking, each step's tiles in random order, finds a chain whenever one
  exists: late in a hand nearly every hidden tile is a covered one and random walks
  mostly fail). So every sampled layout is one play can reach. The walk draws each step
  among the fitting tiles, each as likely as its copies left, which is close to, not
  exactly, a uniform choice among all chains;
* the other hands (their sizes), the other seats' face-down discards (their counts,
  ``[TD-5]``), and with 3 players the tiles left aside ``[TD-2]``, from what is left.

Inference: under ``must_play_if_able`` ``[TD-5]``, a seat whose last move was a discard
had no tile matching the open half (a discard leaves it unchanged): its hand holds no
such tile, and neither does the tile it discarded.

**Limits.** A covered tile is in no view: the seed's memory element. A player who
remembers the play knows where every covered tile went; the bot does not, and samples
them. Only the last move's discard is seen, so under ``must_play_if_able`` earlier
discards (and the pips they rule out) are lost; a ``voids`` field would keep them (see
the package docstring).

**GREEDY** (``[TD-5]``: play or discard). Play rather than discard: of the plays, the one
that sheds the heaviest tile, plus 3 per tile left in hand that matches the open half it
leaves (the seat keeps a play for later); the lead ``[TD-4]`` is scored the same way,
over every tile and every half it may leave open. With no play, discard the lightest
tile (discards count their pips against the seat, ``[TD-8]``), keeping, of equal
weights, the tile that matches more of the hand.

Playouts play the same heuristic for every seat of a sampled world, from that seat's
hand, through the rules.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ...bots.dealing import GameBot, Slot, deal_hidden, hidden_pool
from ...rules import EventKind, Match, Move, MoveKind, Tile, View
from ...rules.tiles import sorted_tiles
from .rules import TsairDengHandState, TsairDengOptions, TsairDengTable, place_of

__all__ = [
    "CHAIN_STEPS",
    "CHAIN_TRIES",
    "TsairDengBot",
    "covered_chain",
    "move_key",
    "tops_by_number",
]

#: About the points a seat scores in a hand (GREEDY against GREEDY).
_POINTS_A_HAND = 30.0
#: Random walks tried by :func:`covered_chain` before its backtracking search.
CHAIN_TRIES = 20
#: Steps the backtracking search of :func:`covered_chain` takes at most.
CHAIN_STEPS = 20_000
#: Per tile code (both sets have pips up to 6): the tile, its high half, its low half.
_CODES = Tile(6, 6).code + 1
_TILES = tuple(Tile.from_code(code) for code in range(_CODES))
_HIGH = tuple(t.high for t in _TILES)
_LOW = tuple(t.low for t in _TILES)
#: Bits of each pip's count in :func:`_pip_counts` ([TD-2] a hand holds at most 16 tiles).
_COUNT_BITS = 5
_COUNT_MASK = (1 << _COUNT_BITS) - 1
_PLAY = MoveKind.PLAY


def tops_by_number(table: TsairDengTable) -> dict[int, Tile]:
    """The visible tiles by their number in the order of play (1 is the lead) ``[TD-6]``."""
    last: dict[int, int] = {}
    for number in range(1, table.played + 1):
        last[place_of(number)] = number
    out: dict[int, Tile] = {}
    for place, number in last.items():
        tile = table.places[place].top
        assert tile is not None
        out[number] = tile
    return out


def covered_chain(
    played: int,
    fixed: dict[int, Tile],
    open_pip: int | None,
    pool: list[Tile],
    rng: random.Random,
) -> list[Tile] | None:
    """The ``played`` tiles in the order of play: ``fixed`` where given, the others drawn
    from ``pool`` so that the whole is a chain ending on ``open_pip`` (see the module
    docstring); ``None`` when no such chain exists (or none was found within
    :data:`CHAIN_TRIES` walks and :data:`CHAIN_STEPS` steps of the backtracking search)."""
    return _Chains(played, fixed, open_pip, pool).sample(rng)


class _Chains:
    """The chains of :func:`covered_chain` for one layout: the reachability table is built
    once, each chain is drawn by :meth:`sample`. Tiles are handled by their codes, sets of
    pips as bit sets."""

    def __init__(
        self, played: int, fixed: dict[int, Tile], open_pip: int | None, pool: list[Tile]
    ) -> None:
        self.played, self.open_pip = played, open_pip
        self.fixed = {k: tile.code for k, tile in fixed.items()}
        self.available = [0] * _CODES
        for tile in pool:
            self.available[tile.code] += 1
        kinds = sorted({tile.code for tile in pool})
        # per pip, the kinds of the pool with that half, and the half they leave before
        self.having: list[list[tuple[int, int]]] = [[] for _ in range(7)]
        for code in kinds:
            high, low = _HIGH[code], _LOW[code]
            self.having[high].append((code, low))
            if low != high:
                self.having[low].append((code, high))
        # reach[k]: the open halves that tiles 1..k can leave (a bit set), copies aside
        reach = [0] * (played + 1)
        for k in range(1, played + 1):
            choices = [self.fixed[k]] if k in self.fixed else kinds
            if k == 1:
                # [TD-4] the lead leaves either half open
                reach[1] = 0
                for code in choices:
                    reach[1] |= 1 << _HIGH[code] | 1 << _LOW[code]
                continue
            before = reach[k - 1]
            for code in choices:
                high, low = _HIGH[code], _LOW[code]
                if before >> high & 1:
                    reach[k] |= 1 << low
                if before >> low & 1:
                    reach[k] |= 1 << high
        self.reach = reach
        self.possible = played == 0 or (
            open_pip is not None and bool(reach[played] >> open_pip & 1)
        )

    def fitting(self, k: int, pip: int, left: list[int]) -> list[tuple[int, int]]:
        """The tiles that can be tile ``k`` when it leaves ``pip`` open, with the half open
        before them, such that tiles ``1..k-1`` can still be completed (copies aside)."""
        before = self.reach[k - 1] if k > 1 else -1
        fixed = self.fixed.get(k)
        if fixed is not None:
            high, low = _HIGH[fixed], _LOW[fixed]
            if pip not in (high, low):
                return []
            other = low if high == pip else high
            return [(fixed, other)] if before >> other & 1 else []
        return [
            (code, other) for code, other in self.having[pip] if left[code] and before >> other & 1
        ]

    def sample(self, rng: random.Random) -> list[Tile] | None:
        """A chain, or ``None`` (see :func:`covered_chain`)."""
        played, open_pip, fixed = self.played, self.open_pip, self.fixed
        if played == 0:
            return []
        if not self.possible or open_pip is None:
            return None
        for _ in range(CHAIN_TRIES):
            left = self.available[:]
            backwards: list[int] = []
            pip = open_pip  # the open half after tile k
            for k in range(played, 0, -1):
                choices = self.fitting(k, pip, left)
                if not choices:
                    break
                if k in fixed:
                    code, pip = choices[0]
                else:
                    # each tile as likely as its copies left
                    at = rng.randrange(sum(left[c] for c, _ in choices))
                    i = 0
                    while at >= left[choices[i][0]]:
                        at -= left[choices[i][0]]
                        i += 1
                    code, pip = choices[i]  # [TD-5] the half open before it
                    left[code] -= 1
                backwards.append(code)
            else:
                return [_TILES[code] for code in reversed(backwards)]
        # the walks ran out of copies: a depth-first search, each step's tiles in random
        # order, that remembers the positions it found no way back from
        left = self.available[:]
        backwards = []
        dead: set[tuple[int, int, tuple[int, ...]]] = set()
        steps = 0

        def extend(k: int, pip: int) -> bool:
            nonlocal steps
            if k == 0:
                return True
            position = (k, pip, tuple(left))
            if position in dead:
                return False
            steps += 1
            if steps > CHAIN_STEPS:
                return False
            choices = self.fitting(k, pip, left)
            rng.shuffle(choices)
            for code, other in choices:
                if k not in fixed:
                    left[code] -= 1
                backwards.append(code)
                if extend(k - 1, other):
                    return True
                backwards.pop()
                if k not in fixed:
                    left[code] += 1
            if steps <= CHAIN_STEPS:
                dead.add(position)
            return False

        if not extend(played, open_pip):
            return None
        return [_TILES[code] for code in reversed(backwards)]


def move_key(move: Move, hand: tuple[Tile, ...], open_pip: int | None) -> float:
    """The GREEDY score of ``move`` (see the module docstring)."""
    return _key(move, _pip_counts(hand), open_pip)


#: Per tile code, the tile's halves as counts of :func:`_pip_counts` (a double counts once).
_PIP_COUNT = tuple(
    (1 << _COUNT_BITS * t.high) + (0 if t.is_double else 1 << _COUNT_BITS * t.low) for t in _TILES
)


def _pip_counts(hand: tuple[Tile, ...]) -> int:
    """Per pip, how many tiles of ``hand`` have it: the count of pip ``p`` is
    ``counts >> _COUNT_BITS * p & _COUNT_MASK``."""
    counts = 0
    for tile in hand:
        counts += _PIP_COUNT[tile.code]
    return counts


def _key(move: Move, counts: int, open_pip: int | None) -> float:
    tile = move.tile
    assert tile is not None
    if move.kind is _PLAY:
        # [TD-4] the lead names the half it leaves open; [TD-5] later, the other half
        left_open = move.open_pip if open_pip is None else tile.pips - open_pip
        assert left_open is not None
        # the tiles left in hand matching the half it leaves open, itself aside
        follow = (counts >> _COUNT_BITS * left_open & _COUNT_MASK) - 1
        return 1000 + tile.pips + 3 * follow
    # [TD-8] the discard counts its pips against the seat; of equal weights, keep the
    # tiles left in hand sharing a pip with it (itself aside)
    matching = (counts >> _COUNT_BITS * tile.high & _COUNT_MASK) - 1
    if not tile.is_double:
        matching += counts >> _COUNT_BITS * tile.low & _COUNT_MASK
    return -tile.pips - matching / 100


class TsairDengBot(GameBot):
    greedy_text = (
        "play rather than discard: the heaviest tile that keeps a match for the open "
        "half; with no play, discard the lightest tile"
    )
    margin_scale = 30.0
    hand_spread = 19.0
    #: STRONG's default, set by measurement: a median CPU per suggestion of at most 15 ms
    #: (``python bench/bots.py``) at a win share against GREEDY within noise of the larger
    #: budget it replaced (``python bench/tournament.py``)
    playouts = 80

    def hands_after(
        self, options: TsairDengOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        target = options.target_score
        if target <= 0:
            return options.hands - hand_number  # [TD-10]
        # [TD-10] until a total reaches the target: some 30 points a seat a hand
        return self.hands_to_target(target, totals, _POINTS_A_HAND)

    def deal_world(
        self,
        view: View,
        options: TsairDengOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> TsairDengHandState | None:
        return self.dealer(view, options, players)(rng, infer)

    def dealer(
        self, view: View, options: TsairDengOptions, players: int
    ) -> Callable[[random.Random, bool], TsairDengHandState | None]:
        table: TsairDengTable = view.table
        me = view.seat
        assert me is not None
        fixed = tops_by_number(table)
        full = self.ruleset.full_set(options)
        pool = hidden_pool(full, view.hand, table.discards, fixed.values())
        chains = _Chains(table.played, fixed, table.open_pip, pool)
        others = [s for s in range(players) if s != me]
        dealt = sum(view.hand_sizes) + sum(table.discard_counts) + table.played
        aside = len(full) - dealt
        lacking = self._lacking(view, options)
        open_pip = table.open_pip

        def avoids(tile: Tile) -> bool:
            return not tile.has(open_pip) if open_pip is not None else True

        def deal(rng: random.Random, infer: bool) -> TsairDengHandState | None:
            chain = chains.sample(rng)
            if chain is None:
                return None
            rest = hidden_pool(pool, [tile for k, tile in enumerate(chain, 1) if k not in fixed])
            slots: list[Slot] = []
            for seat in others:
                count = table.discard_counts[seat]
                if infer and seat == lacking:
                    # [TD-5] no tile matching the open half, in hand or discarded last
                    slots += [Slot(view.hand_sizes[seat], avoids), Slot(count - 1), Slot(1, avoids)]
                else:
                    slots += [Slot(view.hand_sizes[seat]), Slot(count)]
            slots.append(Slot(aside))
            parts = deal_hidden(rest, slots, rng)
            if parts is None:
                return None
            hands = [view.hand] * players
            discards = [table.discards] * players
            at = 0
            for seat in others:
                hands[seat] = sorted_tiles(parts[at])
                if infer and seat == lacking:
                    discards[seat] = (*parts[at + 1], *parts[at + 2])
                    at += 3
                else:
                    discards[seat] = tuple(parts[at + 1])
                    at += 2
            return TsairDengHandState(
                hands=tuple(hands),
                discards=tuple(discards),
                played=tuple(chain),
                open_pip=open_pip,
                to_act=view.to_act if view.to_act is not None else me,
                leader=table.leader,
                unused=sorted_tiles(parts[-1]),
            )

        return deal

    def _lacking(self, view: View, options: TsairDengOptions) -> int | None:
        """The seat whose last move was a discard under ``must_play_if_able`` ([TD-5]):
        it had no tile matching the open half."""
        if not options.must_play_if_able or view.table.open_pip is None:
            return None
        for event in view.events:
            if event.kind is EventKind.DISCARD and event.seat not in (None, view.seat):
                return event.seat
        return None

    def move_keys(self, view: View, options: TsairDengOptions) -> list[Any]:
        table: TsairDengTable = view.table
        counts = _pip_counts(view.hand)
        return [_key(move, counts, table.open_pip) for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        """The GREEDY move: the best of ``legal`` by :func:`_key` (the first of equal keys)."""
        first = legal[0]
        if len(legal) == 1:
            return first
        state: TsairDengHandState = match.hand_state
        if first.kind is _PLAY:
            # [TD-5] the plays are listed before the discards, and any play beats every
            # discard: a lone play is chosen at once
            if legal[1].kind is not _PLAY:
                return first
            # of the plays, the best key (:func:`_key` less 997)
            counts = _pip_counts(state.hands[state.to_act])
            open_pip = state.open_pip
            top, top_key = first, -1
            for move in legal:
                if move.kind is not _PLAY:
                    break
                pips = move.tile.pips  # type: ignore[union-attr]
                left_open = move.open_pip if open_pip is None else pips - open_pip
                key = pips + 3 * (counts >> _COUNT_BITS * left_open & _COUNT_MASK)  # type: ignore[operator]
                if key > top_key:
                    top, top_key = move, key
            return top
        # no play: the lightest discard [TD-8], chosen at once unless another weighs the same
        top, light, tied = first, 1000, False
        for move in legal:
            pips = move.tile.pips  # type: ignore[union-attr]
            if pips < light:
                top, light, tied = move, pips, False
            elif pips == light:
                tied = True
        if not tied:
            return top
        counts = _pip_counts(state.hands[state.to_act])
        weight = -math.inf
        for move in legal:
            key = _key(move, counts, state.open_pip)
            if key > weight:
                top, weight = move, key
        return top
