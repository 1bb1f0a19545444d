"""What every game's bot shares: the per-ruleset hooks, and dealing hidden tiles.

A *game bot* (:class:`GameBot`, one per ruleset, in this package's game modules) knows
three things about its game:

* how to build a hand state that gives one seat exactly the view it has, with the tiles
  that seat cannot see dealt at random among the places they may be
  (:meth:`GameBot.deal_world`);
* its GREEDY heuristic, as a function of what the seat to act sees
  (:meth:`GameBot.greedy`);
* the same heuristic seen from any seat of a sampled world (:meth:`GameBot.heuristic`),
  and the playouts of a world, in which every seat plays it (:class:`HandPlayouts`).

**Playouts.** A world is played out by the rules themselves: :class:`HandPlayouts` calls
:meth:`Ruleset.play_hand` (the game's own hand hooks, without the match-level checks and
events a playout does not need), with :meth:`GameBot.heuristic` choosing for every seat.
A bot knows how to deal and how to choose; it keeps no move, end of hand or score of its
own.

Hidden tiles are dealt by :func:`deal_hidden`: a *pool* (the multiset of tiles the seat
cannot see) is cut into *slots* (another seat's hand, the boneyard, a seat's face-down
discards, ...) of known sizes (:func:`deal_hands` deals the usual case: the other hands
and the stock). A slot may only take the tiles its ``allows`` accepts (an inference:
"this seat holds no 5"), and the whole deal must pass ``accept`` (a fact about several
slots together: "somebody can still match the open end").

The deal is exact when it can be: the pool is shuffled and cut, and a cut that breaks a
constraint is thrown away (rejection sampling gives every consistent deal the same
chance). When constraints make that slow, the constrained slots are filled first, each
with a uniform choice among the tiles it allows, the most constrained slot first; this is
exact for a single constrained slot and close to uniform for several.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from ..rules import Match, Move, Ruleset, Tile, View
from ..rules.tiles import MAX_PIP, double_n, sorted_tiles

__all__ = [
    "REJECTION_TRIES",
    "TRIES",
    "GameBot",
    "HandPlayouts",
    "Slot",
    "best",
    "deal_hands",
    "deal_hidden",
    "hidden_dealer",
    "hidden_pool",
    "seat_hands",
    "shuffled",
]

T = TypeVar("T")

#: Deals tried by shuffling and cutting before the constrained slots are filled first.
REJECTION_TRIES = 12
#: Deals tried in all before :func:`deal_hidden` gives up.
TRIES = 200


@dataclass(frozen=True, slots=True)
class Slot:
    """A place hidden tiles go: ``size`` of them, each one ``allows`` accepts (any tile
    when ``allows`` is ``None``). A game may deal its tiles' codes rather than its tiles:
    ``allows`` takes what the pool holds."""

    size: int
    allows: Callable[[Any], bool] | None = None


def hidden_pool(full: Iterable[Tile], *seen: Iterable[Tile]) -> list[Tile]:
    """The tiles of ``full`` less every tile ``seen`` (one copy each), ascending.

    Raises :class:`ValueError` when a tile seen is not left in the set: the view and the
    options disagree.
    """
    rest: dict[int, int] = {}
    for tile in full:
        rest[tile.code] = rest.get(tile.code, 0) + 1
    for group in seen:
        for tile in group:
            code = tile.code
            if rest.get(code, 0) <= 0:
                raise ValueError(f"{tile} is seen more often than the set holds it")
            rest[code] -= 1
    return [_BY_CODE[code] for code in sorted(rest) for _ in range(rest[code])]


_BY_CODE = double_n(MAX_PIP)


def deal_hidden(
    pool: Sequence[T],
    slots: Sequence[Slot],
    rng: random.Random,
    accept: Callable[[list[list[T]]], bool] | None = None,
) -> list[list[T]] | None:
    """Cut ``pool`` into ``slots`` at random, each slot taking only tiles it allows and the
    whole deal passing ``accept``; ``None`` when :data:`TRIES` deals all failed.

    The tiles of a slot are in random order (a boneyard drawn from its front is a
    shuffled boneyard). See the module docstring for how the deal is drawn. The draws
    depend only on the sizes and on what the constraints accept: tiles and their codes,
    with constraints that agree on them, are dealt alike.
    """
    return hidden_dealer(pool, slots, accept)(rng)


def hidden_dealer(
    pool: Sequence[T],
    slots: Sequence[Slot],
    accept: Callable[[list[list[T]]], bool] | None = None,
) -> Callable[[random.Random], list[list[T]] | None]:
    """:func:`deal_hidden` of ``pool``, ``slots`` and ``accept`` as a function of the
    generator: what depends on them only is done once (a search deals a hundred worlds
    and more from one pool). Raises :class:`ValueError` when the slots' sizes do not add
    up to the pool's."""
    if sum(slot.size for slot in slots) != len(pool):
        raise ValueError(f"{len(pool)} hidden tiles do not fill slots of {len(slots)} sizes")
    pool = list(pool)
    #: The constrained slots, by index, and what each allows.
    constrained = [(i, slot.allows) for i, slot in enumerate(slots) if slot.allows is not None]
    #: Where each slot's part starts and ends in a shuffled pool.
    bounds = []
    start = 0
    for slot in slots:
        bounds.append((start, start + slot.size))
        start += slot.size

    def deal(rng: random.Random) -> list[list[T]] | None:
        for attempt in range(TRIES):
            if not constrained or attempt < REJECTION_TRIES:
                tiles = shuffled(pool, rng)
                parts = [tiles[a:b] for a, b in bounds]
                fits = True
                for i, allows in constrained:
                    if not all(map(allows, parts[i])):
                        fits = False
                        break
            else:
                filled = _fill(pool, slots, [i for i, _ in constrained], rng)
                fits = filled is not None
                parts = filled or []
            if fits and (accept is None or accept(parts)):
                return parts
        return None

    return deal


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """``rng.sample(items, len(items))``: the same list from the same draws, leaving
    ``rng`` in the same state, without a method call per draw (a search deals a hundred
    worlds and more, each a shuffle of the hidden tiles). Every item is taken in turn
    from those left, each ``j`` drawn by ``getrandbits`` of the count's bit length until
    it is below the count, as ``Random.sample`` does for a whole population
    (``Random._randbelow``); a test holds the two to the same results."""
    getrandbits = rng.getrandbits
    left = list(items)
    out = []
    for n in range(len(left), 0, -1):
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        out.append(left[j])
        left[j] = left[n - 1]
    return out


def deal_hands(
    view: View,
    players: int,
    pool: Sequence[Tile],
    rng: random.Random,
    allows: Callable[[int], Callable[[Tile], bool] | None] | None = None,
    accept: Callable[[list[list[Tile]]], bool] | None = None,
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]] | None:
    """The hidden ``pool`` dealt by :func:`deal_hidden` into the hands of the seats other
    than ``view.seat`` (each of the size the view shows) and the stock (``view.stock``
    tiles): every seat's hand, ascending (the view's own hand for its seat), and the
    stock, in random order; ``None`` when no deal was found.

    ``allows(seat)`` is what the hand of ``seat`` allows (``None``, or no ``allows``: any
    tile). ``accept`` sees the deal as :func:`deal_hidden` cuts it: the other seats' hands
    in seat order, then the stock.
    """
    others = [s for s in range(players) if s != view.seat]
    slots = [Slot(view.hand_sizes[s], allows(s) if allows is not None else None) for s in others]
    slots.append(Slot(view.stock))
    parts = deal_hidden(pool, slots, rng, accept)
    if parts is None:
        return None
    return seat_hands(view.hand, players, others, parts), tuple(parts[-1])


def seat_hands(
    hand: tuple[Tile, ...], players: int, others: Sequence[int], parts: Sequence[Sequence[Tile]]
) -> tuple[tuple[Tile, ...], ...]:
    """Every seat's hand once hidden tiles are dealt: ``hand`` (the view's own) for the
    seat whose view it is, and for each seat of ``others`` in turn its part of the deal,
    ascending (the parts after the last of ``others``, a stock say, are not hands)."""
    hands = [hand] * players
    for seat, part in zip(others, parts, strict=False):
        hands[seat] = sorted_tiles(part)
    return tuple(hands)


def _fill(
    pool: Sequence[T], slots: Sequence[Slot], constrained: list[int], rng: random.Random
) -> list[list[T]] | None:
    """The constrained slots first (the one with the least room to spare first), each
    with a uniform choice among the tiles left that it allows; then the others cut from
    the rest, shuffled."""
    left = list(range(len(pool)))

    def spare(i: int) -> int:
        allows = slots[i].allows
        assert allows is not None
        return sum(1 for tile in pool if allows(tile)) - slots[i].size

    parts: list[list[T]] = [[] for _ in slots]
    for i in sorted(constrained, key=spare):
        allows = slots[i].allows
        assert allows is not None
        fitting = [k for k in left if allows(pool[k])]
        if len(fitting) < slots[i].size:
            return None
        chosen = rng.sample(fitting, slots[i].size)
        parts[i] = [pool[k] for k in chosen]
        taken = set(chosen)
        left = [k for k in left if k not in taken]
    rest = [pool[k] for k in shuffled(left, rng)]
    start = 0
    for i, slot in enumerate(slots):
        if slot.allows is None:
            parts[i] = rest[start : start + slot.size]
            start += slot.size
    return parts


class GameBot(abc.ABC):
    """The bot's knowledge of one ruleset (see the module docstring)."""

    #: The GREEDY heuristic in a sentence, as the catalogue says it (``ListRulesets``).
    greedy_text: ClassVar[str]
    #: A typical points margin at the end of a hand: the search breaks near-ties in the
    #: share of the win by the margin, in units of this.
    margin_scale: ClassVar[float]
    #: The weight of that margin against the share of the win (0 to 1).
    margin_weight: ClassVar[float] = 0.1
    #: The search plays at most this many moves: the heuristic's favourites.
    candidates: ClassVar[int] = 8
    #: STRONG's playouts per suggestion when the request names none.
    playouts: ClassVar[int] = 200
    #: The spread (standard deviation) of one hand's points margin between two seats
    #: (measured in GREEDY against GREEDY, 2 players, default options): what a lead is
    #: worth with hands still to play.
    hand_spread: ClassVar[float]

    def hands_after(self, options: Any, players: int, hand_number: int, totals: list[int]) -> float:
        """About how many hands the match plays after hand ``hand_number``, which left the
        match ``totals``: 0 when that hand ends the match (the default: one-hand matches)."""
        return 0.0

    @staticmethod
    def hands_to_target(target: int, totals: list[int], points_a_hand: float) -> float:
        """About how many hands a match played to ``target`` has left, when the leading
        total grows by some ``points_a_hand`` a hand; 0 once a total has reached it."""
        return max(0.0, (target - max(totals)) / points_a_hand)

    def __init__(self, ruleset: Ruleset[Any, Any]) -> None:
        #: The ruleset this bot plays.
        self.ruleset = ruleset

    @abc.abstractmethod
    def deal_world(
        self, view: View, options: Any, players: int, rng: random.Random, *, infer: bool
    ) -> Any | None:
        """A hand state of this ruleset that gives ``view.seat`` exactly ``view``: every
        public fact copied from the view, every tile the seat cannot see dealt by
        :func:`deal_hidden`. With ``infer``, the deal also respects what the rules let the
        seat infer from the view; ``None`` when no deal was found that way."""

    def dealer(
        self, view: View, options: Any, players: int
    ) -> Callable[[random.Random, bool], Any | None]:
        """:meth:`deal_world` for one view, as a function of ``(rng, infer)``: a game bot
        whose deal has work that depends on the view only does it once here."""
        return lambda rng, infer: self.deal_world(view, options, players, rng, infer=infer)

    def running_points(self, view: View, players: int) -> tuple[int, ...]:
        """Points of the hand in progress included in ``view.match_points`` (pegging)."""
        return (0,) * players

    @abc.abstractmethod
    def move_keys(self, view: View, options: Any) -> list[Any]:
        """The GREEDY heuristic's score of each of ``view.legal_moves``, higher better
        (comparable values: numbers, or tuples of them)."""

    def ranking(self, view: View, options: Any) -> list[int]:
        """The indices of ``view.legal_moves``, the GREEDY heuristic's favourite first;
        of equal scores, the move listed first."""
        legal = view.legal_moves
        if len(legal) == 1:
            return [0]
        keys = self.move_keys(view, options)
        return sorted(range(len(legal)), key=lambda i: (keys[i], -i), reverse=True)

    def greedy(self, view: View, options: Any) -> Move:
        """The GREEDY move of the seat to act: its best scored legal move."""
        return view.legal_moves[self.ranking(view, options)[0]]

    @abc.abstractmethod
    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        """The GREEDY choice of the seat to act in a sampled world, from what that seat
        could see there (what rollouts play)."""


class HandPlayouts:
    """Playouts through the rules: :meth:`Ruleset.play_hand` with
    :meth:`GameBot.heuristic` choosing every move, the rules' own hooks doing the rest."""

    def __init__(self, bot: GameBot, match: Match[Any, Any]) -> None:
        self.ruleset, self.heuristic, self.match = bot.ruleset, bot.heuristic, match

    def play(self, move: Move) -> tuple[int, ...]:
        return self.ruleset.play_hand(self.match, move, self.heuristic).points


def best(moves: Sequence[Move], key: Callable[[Move], Any]) -> Move:
    """The move with the highest key; of equal keys, the first (legal moves are listed
    in a fixed order, so the choice is deterministic)."""
    top, top_key = moves[0], key(moves[0])
    for move in moves[1:]:
        k = key(move)
        if k > top_key:
            top, top_key = move, k
    return top
