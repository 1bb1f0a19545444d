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

Rollouts play the same heuristic for every seat of a sampled world, on tile codes, with
the later throws of the world's seed (:class:`_Playouts`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from ...bots.dealing import GameBot, Rollouts, best, deal_hands, hidden_pool
from ...rules import EventKind, Match, Move, MoveKind, Tile, View, rng
from ...rules.moves import End
from .rules import ThrowUpHandState, ThrowUpOptions, ThrowUpTable, qualifying_totals

__all__ = ["ThrowUpBot", "laid_this_round", "layable", "most_points", "stuck_seats"]


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
    playouts = 400  # its playouts are cheap, and twice as many choose better

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
        table: ThrowUpTable = view.table
        me = view.seat
        assert me is not None
        line = tuple(laid.tile for laid in table.line)
        pool = hidden_pool(self.ruleset.full_set(options), view.hand, line)
        totals = frozenset(table.qualifying)
        left, right = table.left_end, table.right_end
        stuck = stuck_seats(view) if infer else {}

        def allows(seat: int) -> Callable[[Tile], bool] | None:
            if stuck.get(seat) != 0:
                return None
            return lambda t: not layable(t, totals, left, right)

        # [THR-7] a seat that drew may hold one layable tile (the one drawn): the indices of
        # their hands among the other seats' (as the deal lists them)
        others = [s for s in range(players) if s != me]
        at_most_one = [i for i, seat in enumerate(others) if stuck.get(seat) == 1]
        ends = {left, right} if left is not None and right is not None else set()
        # [THR-9] not blocked: some hand matches an open end (this one's, or another's)
        must_match = bool(ends) and not any(t.high in ends or t.low in ends for t in view.hand)

        def accept(parts: list[list[Tile]]) -> bool:
            for i in at_most_one:
                if sum(1 for t in parts[i] if layable(t, totals, left, right)) > 1:
                    return False
            if must_match:
                return any(t.high in ends or t.low in ends for part in parts[:-1] for t in part)
            return True

        dealt = deal_hands(view, players, pool, rng, allows, accept)
        if dealt is None:
            return None
        hands, boneyard = dealt
        return ThrowUpHandState(
            hands=hands,
            boneyard=boneyard,
            line=table.line,
            dice=table.dice,
            round=table.round,
            leader=table.leader,
            to_act=view.to_act if view.to_act is not None else me,
            pegs=table.pegs,
            idle_rounds=table.idle_rounds,
            laid_this_round=laid_this_round(view, players),
        )

    def running_points(self, view: View, players: int) -> tuple[int, ...]:
        table: ThrowUpTable = view.table
        return table.pegs  # [THR-6] pegged at once, in the match points already

    def move_keys(self, view: View, options: ThrowUpOptions) -> list[Any]:
        table: ThrowUpTable = view.table
        key = _scorer(view.hand, table.dice, table.left_end, table.right_end)
        return [key(move) for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: ThrowUpHandState = match.hand_state
        line = state.line
        left, right = (line[0].left, line[-1].right) if line else (None, None)
        return _choose(legal, state.hands[state.to_act], state.dice, left, right)

    def rollouts(self, match: Match[Any, Any]) -> Rollouts:
        return _Playouts(match)


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


def _choose(
    legal: tuple[Move, ...],
    hand: tuple[Tile, ...],
    dice: tuple[int, ...],
    left: int | None,
    right: int | None,
) -> Move:
    if len(legal) == 1:
        return legal[0]
    return best(legal, _scorer(hand, dice, left, right))


# --------------------------------------------------------------------------- playouts

_PLAY, _DRAW = MoveKind.PLAY, MoveKind.DRAW
#: Per tile code (pips up to 6): the high half, the low half, the halves as a bit set.
_CODES = Tile(6, 6).code + 1
_HIGH = tuple(Tile.from_code(code).high for code in range(_CODES))
_LOW = tuple(Tile.from_code(code).low for code in range(_CODES))
_HALVES = tuple(Tile.from_code(code).halves for code in range(_CODES))
#: :func:`_most` remembers this many positions at most (then starts again).
_MOST_CACHE = 1 << 16
_most_cache: dict[tuple[tuple[int, ...], int, int, int], int] = {}


def _most(hand: tuple[int, ...], totals: int, left: int, right: int) -> int:
    """:func:`most_points` on tile codes: ``totals`` a bit set of the qualifying totals,
    ``left`` and ``right`` -1 before the first tile."""
    key = (hand, totals, left, right)
    found = _most_cache.get(key)
    if found is not None:
        return found
    top = 0
    for i, tile in enumerate(hand):
        high, low = _HIGH[tile], _LOW[tile]
        if not totals >> (high + low) & 1:
            continue
        rest = hand[:i] + hand[i + 1 :]
        points = 2 if high == low else 1
        if left < 0:
            top = max(top, points + _most(rest, totals, high, low))
            continue
        if high == left or low == left:
            top = max(top, points + _most(rest, totals, low if high == left else high, right))
        if high == right or low == right:
            top = max(top, points + _most(rest, totals, left, low if high == right else high))
    if len(_most_cache) >= _MOST_CACHE:
        _most_cache.clear()
    _most_cache[key] = top
    return top


@functools.cache
def _totals_bits(dice: tuple[int, ...]) -> int:
    """The qualifying totals of ``dice`` as a bit set."""
    bits = 0
    for total in qualifying_totals(dice):
        bits |= 1 << total
    return bits


class _Playouts(Rollouts):
    """Throw-up playouts on tile codes (see :class:`~.dealing.Rollouts`): the turns,
    rounds and throws of ``[THR-4]``..``[THR-9]`` as the rules core makes them (the dice
    from the world's seed, as the core throws them), the GREEDY heuristic's choice
    (:func:`_scorer`, computed the same way; the first of equal scores in the order of
    the legal moves), and the points of ``[THR-6]`` ``[THR-10]``."""

    def __init__(self, match: Match[ThrowUpOptions, ThrowUpHandState]) -> None:
        state = match.hand_state
        self.players = match.players
        self.seed, self.hand_number = match.seed, match.hand_number
        self.rethrow = match.options.rethrow_repeats
        self.hands = [[t.code for t in hand] for hand in state.hands]  # sorted
        self.boneyard = [t.code for t in state.boneyard]
        line = state.line
        self.left = line[0].left if line else -1
        self.right = line[-1].right if line else -1
        self.dice = state.dice
        self.round, self.leader, self.to_act = state.round, state.leader, state.to_act
        self.pegs = list(state.pegs)
        self.idle, self.laid = state.idle_rounds, state.laid_this_round
        self.throws: dict[tuple[int, int], tuple[int, ...]] = {}  # by (round, attempt)

    def throw(self, number: int, attempt: int) -> tuple[int, ...]:
        """The world's throw ``attempt`` of round ``number``, as the rules core throws it
        (the same in every playout of the world)."""
        key = (number, attempt)
        dice = self.throws.get(key)
        if dice is None:
            label = f"dice/{self.hand_number}/{number}/{attempt}"
            dice = self.throws[key] = rng.throw(self.seed, label, 3)
        return dice

    def play(self, move: Move) -> tuple[int, ...]:
        players, leader, high_of, low_of, halves_of = (
            self.players,
            self.leader,
            _HIGH,
            _LOW,
            _HALVES,
        )
        hands = [hand[:] for hand in self.hands]
        boneyard, drawn_at = self.boneyard, 0
        left, right = self.left, self.right
        dice, totals = self.dice, _totals_bits(self.dice)
        number, seat = self.round, self.to_act
        pegs = self.pegs[:]
        idle, laid = self.idle, self.laid

        def plays() -> list[tuple[int, int]]:
            """The seat's legal plays, in the order of the legal moves: (tile, end) with
            end 0 for the first tile, 1 on the left end, 2 on the right end [THR-5]."""
            found = []
            for t in hands[seat]:
                if totals >> (high_of[t] + low_of[t]) & 1:
                    if left < 0:
                        found.append((t, 0))
                        continue
                    if halves_of[t] >> left & 1:
                        found.append((t, 1))
                    if halves_of[t] >> right & 1:
                        found.append((t, 2))
            return found

        def lay(tile: int, end: int) -> bool:
            """The seat lays ``tile`` at ``end``, pegging [THR-6]; whether the hand is over
            [THR-9]: the seat is out of tiles, or the line blocked."""
            nonlocal left, right, idle, laid
            high, low = high_of[tile], low_of[tile]
            if end == 0:
                left, right = high, low
            elif end == 1:
                left = low if high == left else high
            else:
                right = low if high == right else high
            hand = hands[seat]
            hand.remove(tile)
            pegs[seat] += 2 if high == low else 1
            idle, laid = 0, True
            if not hand:
                return True
            ends = 1 << left | 1 << right
            return not any(halves_of[t] & ends for h in hands for t in h)

        def end_turn() -> bool:
            """The next seat's turn; after the round's last, the leader throws again
            [THR-8]; whether two idle rounds in a row ended the hand [THR-9]."""
            nonlocal seat, idle, laid, number, dice, totals
            seat = seat + 1 if seat + 1 < players else 0
            if seat != leader:
                return False
            idle = 0 if laid else idle + 1
            laid = False
            if idle >= 2:
                return True
            number += 1
            for t in range(10_000):
                thrown = self.throw(number, t)
                if not (self.rethrow and sorted(thrown) == sorted(dice)):
                    break
            dice, totals = thrown, _totals_bits(thrown)
            return False

        def choose(found: list[tuple[int, int]]) -> tuple[int, int]:
            """The GREEDY play: the most points this turn, then the most tiles left
            matching an open end, then the heavier tile."""
            if len(found) == 1:
                return found[0]
            hand = hands[seat]
            best_play, best_key = found[0], (-1, 0, 0)
            for tile, end in found:
                high, low = high_of[tile], low_of[tile]
                if end == 0:
                    new_left, new_right = high, low
                elif end == 1:
                    new_left, new_right = (low if high == left else high), right
                else:
                    new_left, new_right = left, (low if high == right else high)
                rest = tuple(t for t in hand if t != tile)
                points = (2 if high == low else 1) + _most(rest, totals, new_left, new_right)
                ends = 1 << new_left | 1 << new_right
                open_ends = sum(1 for t in rest if halves_of[t] & ends)
                key = (points, open_ends, high + low)
                if key > best_key:
                    best_play, best_key = (tile, end), key
            return best_play

        def turn_step(kind: MoveKind, tile: int, end: int) -> bool:
            """One move of the seat to act; whether the hand is over."""
            nonlocal drawn_at
            if kind is _PLAY:
                if lay(tile, end):
                    return True
                if plays():
                    return False  # [THR-5] it lays while it can
                return end_turn()
            if kind is _DRAW:
                # [THR-7] one tile, kept for a later turn
                hand = hands[seat]
                hand.append(boneyard[drawn_at])
                hand.sort()
                drawn_at += 1
            return end_turn()

        tile = move.tile
        first_end = 0 if move.end is None else (1 if move.end is End.LEFT else 2)
        over = turn_step(move.kind, tile.code if tile is not None else -1, first_end)
        while not over:
            found = plays()
            if found:
                chosen, end = choose(found)
                over = turn_step(_PLAY, chosen, end)
            else:
                over = turn_step(_DRAW if drawn_at < len(boneyard) else MoveKind.PASS, -1, 0)
        # [THR-10] the fewest tiles score the tiles in the other hands; a tie scores no one
        counts = [len(hand) for hand in hands]
        fewest = min(counts)
        if counts.count(fewest) == 1:
            pegs[counts.index(fewest)] += sum(counts) - fewest
        return tuple(pegs)
