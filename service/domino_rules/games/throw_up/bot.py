"""The Throw-up bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``ThrowUpTable``): the line and its two ends, the round's dice and
the totals they make, the round, the leader, the idle rounds and the pegs; its own hand,
every hand's size and the boneyard's size; the last move's events (other seats' drawn
tiles hidden).

**Sampling.** The hidden tiles are the set less the seat's hand and the line. They are
dealt at random into the other hands (their sizes) and the boneyard (its size, in random
order: it is drawn from its front). What the rules let the seat infer is kept:

* ``[THR-9]`` the hand goes on, so once the line has started some hand holds a tile
  matching one of its ends;
* ``[THR-7]`` a seat whose last move was a ``DRAW`` could lay nothing at the start of its
  turn, under the dice still on the table (when no new throw followed) and the ends
  still open: of its hand, only the tile it drew may be layable now; a seat whose last
  move was a ``PASS``, or a ``PLAY`` that ended its turn (``[THR-5]``: it lays while it
  can), can lay nothing now.

The view does not say whether a tile was laid in the round so far (the state's
``laid_this_round``, which decides whether the round ends idle ``[THR-9]``). It is
inferred where the view allows: a throw in the last move starts a round with nothing
laid; a tile laid in the last move (with no throw after it) was laid this round; with an
idle round behind, or an empty line, nothing was; when the one seat to move before this
one in the round drew or passed, nothing was. Otherwise (the leader's turn of a
3-player round is not in the last move) it is taken to be true, the usual case.

**Limits.** Only the last move is seen: earlier draws and passes, and the dice they were
made under, are lost. A ``laid_this_round`` field of the table would replace the guess
above, and a ``voids`` field would keep the rest (see the package docstring).

**GREEDY** (``[THR-5]``..``[THR-6]``: lay while you can, 1 point a tile, 2 a double): lay the
tile that lets the seat lay the most points this turn, itself included (a search over
the seat's hand, the dice and the ends); of equal points, the tile that leaves the most
tiles in hand matching an open end (more chances in later rounds); then the heavier
tile.

STRONG's playouts play the same heuristic for every seat of a sampled world through the
rules (:meth:`~domino_rules.rules.Ruleset.play_hand`), with the later throws of the
world's seed.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from typing import Any

from ...bots.dealing import GameBot, Slot, hidden_dealer, hidden_pool
from ...rules import EventKind, Match, Move, MoveKind, Tile, View
from ...rules.building import frozen_builder
from ...rules.moves import End
from ...rules.tiles import MAX_PIP, double_n
from .rules import (
    LAID_POINTS,
    ThrowUpHandState,
    ThrowUpOptions,
    ThrowUpTable,
    layable_codes,
    qualifying_totals,
)

__all__ = ["ThrowUpBot", "laid_this_round", "layable", "most_points", "stuck_seats"]

#: ``ThrowUpHandState(*fields)``, every field in order, built the rules' fast way.
_hand_state = frozen_builder(ThrowUpHandState)
#: Every tile, at its code.
_TILE_OF = double_n(MAX_PIP)
#: Per tile code, its halves as a bit set of pips.
_HALVES = tuple(tile.halves for tile in _TILE_OF)


def layable(tile: Tile, totals: frozenset[int], left: int | None, right: int | None) -> bool:
    """Can ``tile`` be laid now ``[THR-5]``: its total is one the dice make, and it
    matches an open end (any tile starts the line)."""
    if tile.pips not in totals:
        return False
    return left is None or right is None or tile.has(left) or tile.has(right)


def stuck_seats(view: View) -> dict[int, int]:
    """Per seat, how many tiles of its hand the last move shows may be layable now (0 or
    1; see the module docstring); seats not listed are not known to be stuck."""
    events = view.events
    if any(e.kind is EventKind.DICE for e in events):
        return {}  # a new throw: the dice of that turn are gone
    out: dict[int, int] = {}
    for event in events:
        seat = event.seat
        if seat is None or seat == view.seat:
            continue
        if event.kind is EventKind.DRAW:
            out[seat] = 1  # [THR-7] nothing to lay; the tile drawn may be layable
        elif event.kind in (EventKind.PASS, EventKind.TURN_PASSED):
            out[seat] = 0  # [THR-7] nothing to lay; [THR-5] it lays while it can
    return out


def laid_this_round(view: View, players: int) -> bool:
    """Whether a tile was laid in this round so far, as far as the view tells (see the
    module docstring)."""
    table: ThrowUpTable = view.table
    kinds = [e.kind for e in view.events]
    if EventKind.DICE in kinds:
        return False  # [THR-4] the round was thrown in the last move
    if EventKind.PLAY in kinds:
        return True
    if table.idle_rounds > 0 or not table.line:
        return False  # [THR-9] a tile laid would have reset the idle rounds
    to_act = view.to_act if view.to_act is not None else table.leader
    # else the only seat before this one in the round drew or passed: nothing was laid
    return (to_act - table.leader) % players != 1


@functools.lru_cache(maxsize=4096)
def most_points(
    hand: tuple[Tile, ...], totals: frozenset[int], left: int | None, right: int | None
) -> int:
    """The most points ``[THR-6]`` the seat can lay from ``hand`` this turn, laying while it
    can ``[THR-5]``."""
    top = 0
    tried: set[Tile] = set()
    for i, tile in enumerate(hand):
        if tile in tried or not layable(tile, totals, left, right):
            continue
        tried.add(tile)
        rest = hand[:i] + hand[i + 1 :]
        points = 2 if tile.is_double else 1
        for new_left, new_right in _new_ends(tile, left, right):
            top = max(top, points + most_points(rest, totals, new_left, new_right))
    return top


def _new_ends(tile: Tile, left: int | None, right: int | None) -> list[tuple[int, int]]:
    if left is None or right is None:
        return [(tile.high, tile.low)]  # [THR-5] the first tile: high half to the left
    ends = []
    if tile.has(left):
        ends.append((tile.other(left), right))
    if tile.has(right):
        ends.append((left, tile.other(right)))
    return ends


class ThrowUpBot(GameBot):
    greedy_text = (
        "the tile that lets the seat lay the most points this turn, then the one that "
        "keeps the most tiles matching an end, then the heavier"
    )
    margin_scale = 4.0
    margin_weight = 0.5
    candidates = 4
    hand_spread = 6.7
    #: STRONG's default, set by measurement: a median CPU per suggestion of at most 15 ms
    #: (``python bench/bots.py``) at a win share against GREEDY within noise of the larger
    #: budget it replaced (``python bench/tournament.py``)
    playouts = 30

    def hands_after(
        self, options: ThrowUpOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        return options.hands_per_player * players - hand_number  # [THR-11]

    def deal_world(
        self,
        view: View,
        options: ThrowUpOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> ThrowUpHandState | None:
        return self.dealer(view, options, players)(rng, infer)

    def dealer(
        self, view: View, options: ThrowUpOptions, players: int
    ) -> Callable[[random.Random, bool], ThrowUpHandState | None]:
        """The deal of :func:`~.dealing.deal_hands` (:meth:`_deals`), as a hand state."""
        deal, others, fixed = self._deals(view, options, players)
        hand = view.hand

        def dealt(rng: random.Random, infer: bool) -> ThrowUpHandState | None:
            parts = deal(rng, infer)
            if parts is None:
                return None
            hands = [hand] * players
            for seat, part in zip(others, parts, strict=False):  # the stock is last
                part.sort()  # ascending, as every hand is
                hands[seat] = tuple([_TILE_OF[code] for code in part])
            boneyard = tuple([_TILE_OF[code] for code in parts[-1]])
            return _hand_state(tuple(hands), boneyard, *fixed)

        return dealt

    def _deals(
        self, view: View, options: ThrowUpOptions, players: int
    ) -> tuple[Callable[[random.Random, bool], list[list[int]] | None], list[int], tuple[Any, ...]]:
        """The deal of the hidden tiles' codes into the other hands and the stock, with
        what the view fixes made once: the slots (with and without the inferences), and
        the inferences as bit sets of tile codes. ``(deal, others, fixed)``: ``deal(rng,
        infer)`` the parts as :func:`~.dealing.deal_hidden` cuts them (the other hands in
        seat order, then the stock); ``others`` those seats; ``fixed`` the hand state's
        fields after the hands and the stock, as the view gives them."""
        table: ThrowUpTable = view.table
        me = view.seat
        assert me is not None
        line = tuple(laid.tile for laid in table.line)
        full = self.ruleset.full_set(options)
        pool = [tile.code for tile in hidden_pool(full, view.hand, line)]
        totals = frozenset(table.qualifying)
        left, right = table.left_end, table.right_end
        #: The tiles the seat to act could lay now, were they in its hand.
        lay_now = _bits(t for t in full if layable(t, totals, left, right))

        def unlayable(code: int) -> bool:
            return not lay_now >> code & 1

        others = [s for s in range(players) if s != me]
        #: The open ends, as a bit set of pips (0: the line has not started).
        ends = 1 << left | 1 << right if left is not None and right is not None else 0
        # [THR-9] not blocked: some hand matches an open end (this one's, or another's)
        must_match = bool(ends) and not any(t.halves & ends for t in view.hand)
        halves = _HALVES

        def constraints(stuck: dict[int, int]) -> Callable[[random.Random], list[list[int]] | None]:
            """The deal into the slots (the other hands in seat order, then the stock: as
            ``deal_hands`` cuts it), each allowing what it may hold, and what the whole
            deal must pass, given the seats known to be stuck."""
            slots = [
                Slot(view.hand_sizes[s], unlayable if stuck.get(s) == 0 else None) for s in others
            ]
            slots.append(Slot(view.stock))
            # [THR-7] a seat that drew may hold one layable tile (the one drawn): the
            # indices of their hands among the other seats'
            at_most_one = [i for i, seat in enumerate(others) if stuck.get(seat) == 1]

            def accept(parts: list[list[int]]) -> bool:
                for i in at_most_one:
                    if sum([lay_now >> code & 1 for code in parts[i]]) > 1:
                        return False
                if must_match:
                    for part in parts[:-1]:
                        for code in part:
                            if halves[code] & ends:
                                return True
                    return False
                return True

            return hidden_dealer(pool, slots, accept if at_most_one or must_match else None)

        inferred, plain = constraints(stuck_seats(view)), constraints({})
        fixed = (
            table.line,
            table.dice,
            table.round,
            table.leader,
            view.to_act if view.to_act is not None else me,
            table.pegs,
            table.idle_rounds,
            laid_this_round(view, players),
        )

        def deal(rng: random.Random, infer: bool) -> list[list[int]] | None:
            return inferred(rng) if infer else plain(rng)

        return deal, others, fixed

    def running_points(self, view: View, players: int) -> tuple[int, ...]:
        table: ThrowUpTable = view.table
        return table.pegs  # [THR-6] pegged at once, in the match points already

    def move_keys(self, view: View, options: ThrowUpOptions) -> list[Any]:
        table: ThrowUpTable = view.table
        key = _scorer(view.hand, table.dice, table.left_end, table.right_end)
        return [key(move) for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        if len(legal) == 1:
            return legal[0]
        state: ThrowUpHandState = match.hand_state
        line = state.line
        left, right = (line[0].left, line[-1].right) if line else (-1, -1)
        hand = _bits(state.hands[state.to_act])
        code, end = _choice(hand, layable_codes(state.dice), left, right)
        for move in legal:
            tile = move.tile
            if tile is not None and tile.code == code and _END_OF[move.end] == end:
                return move
        raise AssertionError("the GREEDY play is not among the legal moves")


def _scorer(
    hand: tuple[Tile, ...], dice: tuple[int, ...], left: int | None, right: int | None
) -> Callable[[Move], tuple[int, int, int]]:
    """The GREEDY score of a move (see the module docstring)."""
    totals = frozenset(qualifying_totals(dice))

    def key(move: Move) -> tuple[int, int, int]:
        tile = move.tile
        if move.kind is not MoveKind.PLAY or tile is None:
            return (-1, 0, 0)
        rest = list(hand)
        rest.remove(tile)
        if move.end is None or left is None or right is None:
            new_left, new_right = tile.high, tile.low
        elif move.end is End.LEFT:
            new_left, new_right = tile.other(left), right
        else:
            new_left, new_right = left, tile.other(right)
        points = (2 if tile.is_double else 1) + most_points(
            tuple(rest), totals, new_left, new_right
        )
        open_ends = sum(1 for t in rest if t.has(new_left) or t.has(new_right))
        return (points, open_ends, tile.pips)

    return key


def _bits(tiles: Iterable[Tile]) -> int:
    """``tiles`` (distinct) as a bit set of their codes."""
    return sum([1 << t.code for t in tiles])


# ------------------------------------------------------------- GREEDY on bit sets
# The heuristic as the playouts call it, on every move of every playout: the same choice
# as :func:`_scorer`'s best (the first of equal scores in the order of the legal moves),
# on the hand as a bit set of tile codes, with the searches remembered.

TILE_HIGH = tuple(tile.high for tile in _TILE_OF[:28])
TILE_LOW = tuple(tile.low for tile in _TILE_OF[:28])
TILE_PIPS = tuple(tile.pips for tile in _TILE_OF[:28])
TILE_HALVES = _HALVES[:28]
_END_OF = {None: 0, End.LEFT: 1, End.RIGHT: 2}
#: The set has no two equal tiles ``[THR-1]``: a hand is a bit set of tile codes. Per
#: pip (up to 6), the tiles that have it, as a bit set.
_WITH_PIP = tuple(
    sum(1 << code for code in range(Tile(6, 6).code + 1) if TILE_HALVES[code] >> pip & 1)
    for pip in range(7)
)
#: The doubles, as a bit set of their codes.
_DOUBLES = sum(1 << Tile(pip, pip).code for pip in range(7))


#: Per tile code, its points when laid [THR-6]: 1, and 2 for a double.
_POINTS = LAID_POINTS
#: Per tile code, the parts of its GREEDY score that are the tile's own (see
#: :func:`_choice`): its points and its pips, less the tile itself among those that
#: match an end it leaves.
_OWN_SCORE = tuple(
    points * 1024 + pips - 32 for points, pips in zip(_POINTS, TILE_PIPS, strict=True)
)


def _plays_on(
    tile: int, left: int, right: int
) -> tuple[tuple[tuple[int, int], int, int, int], ...]:
    """The plays of ``tile`` on a line whose ends show ``left`` and ``right`` (-1 before
    the first tile) [THR-5], in the order of the legal moves: ``((tile, end), own, ends,
    matching)``, ``end`` 0 for the first tile, 1 at the left end, 2 at the right end;
    ``own`` the tile's own part of its GREEDY score (:data:`_OWN_SCORE`); ``ends`` the pips
    of the ends after it as one number, ``8 * low + high``, the lower first (the points
    still to lay from a line do not depend on which end is which: :func:`_most`); and
    ``matching`` the tiles that match one of them, as a bit set (the tile among them)."""
    high, low = TILE_HIGH[tile], TILE_LOW[tile]
    if left < 0:
        plays = [(0, high, low)]
    else:
        plays = []
        if high == left or low == left:
            plays.append((1, low if high == left else high, right))
        if high == right or low == right:
            plays.append((2, left, low if high == right else high))
    return tuple(
        ((tile, end), _OWN_SCORE[tile], 8 * min(a, b) + max(a, b), _WITH_PIP[a] | _WITH_PIP[b])
        for end, a, b in plays
    )


#: :func:`_plays_on` of every pair of ends and tile, at ``[left][right][tile]``; an end of
#: -1 (before the first tile) is the last of 8 entries, where Python's index -1 finds it.
_PLAYS = tuple(
    tuple(
        tuple(_plays_on(tile, left, right) for tile in range(Tile(6, 6).code + 1))
        for right in (*range(7), -1)
    )
    for left in (*range(7), -1)
)
#: The same at ``[ends][tile]``, ``ends`` as :func:`_plays_on` gives them.
_PLAYS_AT = tuple(_PLAYS[ends >> 3][ends & 7] for ends in range(64))
#: :func:`_most` remembers this many positions at most (then starts again).
_MOST_CACHE = 1 << 16
_most_cache: dict[int, int] = {}
#: :func:`_choice`'s answers, as many at most.
_choice_cache: dict[tuple[int, int, int, int], tuple[int, int]] = {}


def _most(tiles: int, ends: int, matching: int) -> int:
    """:func:`most_points` on a bit set of tile codes: ``tiles`` those of the hand whose
    total the dice make (no other tile can be laid this turn), two or more of them, one
    at least among ``matching``, the tiles that match an end of a line begun, whose ends
    are ``ends`` (as :func:`_plays_on` gives them: the ends are alike, laying at one is
    laying at the other, mirrored). A position is remembered by one number, ``64 *
    tiles + ends``. The search stops at a way to lay every tile."""
    key = tiles << 6 | ends
    found = _most_cache.get(key)
    if found is not None:
        return found
    every = tiles.bit_count() + (tiles & _DOUBLES).bit_count()  # the points of them all
    top = 0
    plays = _PLAYS_AT[ends]
    fitting = tiles & matching
    while fitting:
        bit = fitting & -fitting
        fitting ^= bit
        tile = bit.bit_length() - 1
        rest = tiles ^ bit
        for _, _, ends_after, matching_after in plays[tile]:
            if not rest & matching_after:
                laid = _POINTS[tile]  # nothing more to lay
            elif not rest & (rest - 1):
                laid = _POINTS[tile] + _POINTS[rest.bit_length() - 1]  # the last tile
            else:
                laid = _POINTS[tile] + _most(rest, ends_after, matching_after)
            if laid > top:
                top = laid
        if top == every:
            break
    if len(_most_cache) >= _MOST_CACHE:
        _most_cache.clear()
    _most_cache[key] = top
    return top


def _choice(hand: int, layable: int, left: int, right: int) -> tuple[int, int]:
    """The GREEDY play among several (:func:`_scorer`): the most points this turn, then
    the most tiles left matching an open end, then the heavier tile; the first of equal
    scores in the order of the legal moves. ``(tile, end)``, ``end`` as in
    the moves' ends: 0 for the first tile, 1 at the left end, 2 at the right end.

    Each play's score is one number, ``(points * 32 + open_ends) * 32 + pips`` (each part
    below 32: the order of the three); the points after the tile's own are those of the
    tiles left that the dice allow (:func:`_most`), none when none of them matches an
    end."""
    key = (hand, hand & layable, left, right)
    found = _choice_cache.get(key)
    if found is not None:
        return found
    best_play, best_key = (-1, 0), -1
    plays = _PLAYS[left][right]
    most_cache = _most_cache
    allowed = fitting = key[1]
    if left >= 0:
        fitting &= _WITH_PIP[left] | _WITH_PIP[right]
    while fitting:
        bit = fitting & -fitting
        fitting ^= bit
        more = allowed ^ bit  # what else it may lay this turn
        for play, own, ends, matching in plays[bit.bit_length() - 1]:
            score = own + (hand & matching).bit_count() * 32
            if more & matching:
                if more & (more - 1):
                    points = most_cache.get(more << 6 | ends)
                    if points is None:
                        points = _most(more, ends, matching)
                    score += points * 1024
                else:
                    score += _POINTS[more.bit_length() - 1] * 1024  # the one tile, it fits
            if score > best_key:
                best_play, best_key = play, score
    if len(_choice_cache) >= _MOST_CACHE:
        _choice_cache.clear()
    _choice_cache[key] = best_play
    return best_play
