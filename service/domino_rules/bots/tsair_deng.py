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
  over pips, ignoring how many copies are left; a walk that runs out of copies starts
  again). So every sampled layout is one play can reach. The walk draws each step
  uniformly among the fitting tiles, which is close to, not exactly, a uniform choice
  among all chains;
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

Rollouts play the same heuristic for every seat of a sampled world.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..rules import EventKind, Match, Move, MoveKind, Tile, View
from ..rules.tsair_deng import (
    TsairDengHandState,
    TsairDengOptions,
    TsairDengTable,
    place_of,
)
from .dealing import GameBot, Slot, best, deal_hidden, hidden_pool

__all__ = ["CHAIN_TRIES", "TsairDengBot", "covered_chain", "move_key", "tops_by_number"]

#: Walks tried by :func:`covered_chain` before it gives up.
CHAIN_TRIES = 100


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
    docstring); ``None`` when :data:`CHAIN_TRIES` walks all failed."""
    if played == 0:
        return []
    assert open_pip is not None
    kinds = sorted(set(pool), key=_code)
    # reach[k]: the open halves that tiles 1..k can leave, copies aside
    reach: list[set[int]] = [set() for _ in range(played + 1)]
    for k in range(1, played + 1):
        choices = [fixed[k]] if k in fixed else kinds
        if k == 1:
            reach[1] = {p for t in choices for p in (t.high, t.low)}  # [TD-4] either half
        else:
            reach[k] = {t.other(q) for t in choices for q in reach[k - 1] if t.has(q)}
    if open_pip not in reach[played]:
        return None
    available = Counter(pool)
    for _ in range(CHAIN_TRIES):
        left = available.copy()
        backwards: list[Tile] = []
        pip = open_pip  # the open half after tile k
        for k in range(played, 0, -1):
            if k in fixed:
                tile = fixed[k]
                if not tile.has(pip) or (k > 1 and tile.other(pip) not in reach[k - 1]):
                    break
            else:
                fitting = [
                    t
                    for t in kinds
                    if left[t] > 0 and t.has(pip) and (k == 1 or t.other(pip) in reach[k - 1])
                ]
                if not fitting:
                    break
                tile = rng.choices(fitting, weights=[left[t] for t in fitting])[0]
                left[tile] -= 1
            backwards.append(tile)
            pip = tile.other(pip)  # [TD-5] the half open before it
        else:
            return backwards[::-1]
    return None


def move_key(move: Move, hand: tuple[Tile, ...], open_pip: int | None) -> float:
    """The GREEDY score of ``move`` (see the module docstring)."""
    return _key(move, _pip_counts(hand), open_pip)


def _pip_counts(hand: tuple[Tile, ...]) -> list[int]:
    """Per pip, how many tiles of ``hand`` have it."""
    counts = [0] * 19
    for tile in hand:
        counts[tile.high] += 1
        if not tile.is_double:
            counts[tile.low] += 1
    return counts


def _key(move: Move, counts: list[int], open_pip: int | None) -> float:
    tile = move.tile
    assert tile is not None
    if move.kind is MoveKind.PLAY:
        left_open = move.open_pip if open_pip is None else tile.other(open_pip)
        assert left_open is not None
        follow = counts[left_open] - 1  # the tile played has the half it leaves open
        return 1000 + tile.pips + 3 * follow
    # the tiles left in hand sharing a pip with the discard, itself aside
    matching = counts[tile.high] + (0 if tile.is_double else counts[tile.low]) - 1
    return -tile.pips - matching / 100


class TsairDengBot(GameBot):
    ruleset_id = "tsair_deng"
    margin_scale = 30.0

    def deal_world(
        self,
        view: View,
        options: TsairDengOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> TsairDengHandState | None:
        table: TsairDengTable = view.table
        me = view.seat
        assert me is not None
        fixed = tops_by_number(table)
        pool = hidden_pool(
            self.ruleset.full_set(options), view.hand, table.discards, fixed.values()
        )
        chain = covered_chain(table.played, fixed, table.open_pip, pool, rng)
        if chain is None:
            return None
        covered = [tile for k, tile in enumerate(chain, start=1) if k not in fixed]
        pool = hidden_pool(pool, covered)
        others = [s for s in range(players) if s != me]
        lacking = self._lacking(view, options) if infer else None
        slots: list[Slot] = []
        for seat in others:
            count = table.discard_counts[seat]
            if seat == lacking:
                pip = table.open_pip
                allows = lambda t, pip=pip: not t.has(pip)  # noqa: E731
                slots += [Slot(view.hand_sizes[seat], allows), Slot(count - 1), Slot(1, allows)]
            else:
                slots += [Slot(view.hand_sizes[seat]), Slot(count)]
        dealt = sum(view.hand_sizes) + sum(table.discard_counts) + table.played
        aside = len(self.ruleset.full_set(options)) - dealt
        slots.append(Slot(aside))
        parts = deal_hidden(pool, slots, rng)
        if parts is None:
            return None
        hands = [view.hand] * players
        discards = [table.discards] * players
        at = 0
        for seat in others:
            hands[seat] = tuple(sorted(parts[at], key=_code))
            if seat == lacking:
                discards[seat] = (*parts[at + 1], *parts[at + 2])
                at += 3
            else:
                discards[seat] = tuple(parts[at + 1])
                at += 2
        return TsairDengHandState(
            hands=tuple(hands),
            discards=tuple(discards),
            played=tuple(chain),
            open_pip=table.open_pip,
            to_act=view.to_act if view.to_act is not None else me,
            leader=table.leader,
            unused=tuple(sorted(parts[-1], key=_code)),
        )

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
        state: TsairDengHandState = match.hand_state
        return _choose(legal, state.hands[state.to_act], state.open_pip)


def _code(tile: Tile) -> int:
    return tile.code


def _choose(legal: tuple[Move, ...], hand: tuple[Tile, ...], open_pip: int | None) -> Move:
    if len(legal) == 1:
        return legal[0]
    counts = _pip_counts(hand)
    if legal[0].kind is MoveKind.PLAY:
        # plays are listed before discards, and any play beats every discard
        legal = tuple(move for move in legal if move.kind is MoveKind.PLAY)
    return best(legal, lambda move: _key(move, counts, open_pip))
