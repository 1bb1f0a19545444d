"""What the trains games share: Mexican Train and Chicken Foot (RULES.md, "The trains
family"), written once and cited by tag.

Chicken Foot is written on Mexican Train's machinery, so the shared rules carry
Mexican Train's tags, and Chicken Foot's tags refer to them:

* the hand sizes by table and the player counts they allow (``[MT-2]``, ``[CF-1]``):
  :func:`hand_size`, :func:`player_range`;
* the engine of each hand and the number of hands (``[MT-3]``, ``[CF-2]``):
  :func:`engine_of`, :func:`hands_in_match`;
* the deal, with the engine set aside before the shuffle or hunted for from the hands
  (``[MT-2]``, ``[MT-3]``): :func:`deal_order`, :func:`deal_hand`, :class:`Deal`;
* who plays first (``[MT-4]``): :func:`first_player`;
* dead numbers (``[MT-9]``, ``[CF-5]``): :func:`live_numbers`;
* the blocked hand (``[MT-11]``, ``[CF-7]``): :func:`blocked`;
* counts and the hand's result (``[MT-12]``, ``[CF-8]``): :func:`count`,
  :func:`score_hand`;
* the match (``[MT-13]``, ``[CF-9]``): :func:`hands_in_match` (the match is over once
  that many hands are in its history);
* a line of tiles from a double outwards, stored as its tiles alone and turned into the
  view's ``LaidTile`` (``[MT-5]``, ``[CF-3]``): :func:`open_end`, :func:`laid_tiles`.

A line (a train, an arm) is stored as the tuple of its tiles in the order laid, from the
hub (or its foot) outwards: each tile's orientation follows from the number it was laid
against, so it costs nothing in a state token.

Pure: the standard library and the kernel only.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from . import rng
from .errors import OptionsError
from .events import Event, EventKind
from .lines import LaidTile
from .match import HandEnd, HandResult
from .moves import Move, MoveKind
from .tiles import Tile, insert_tile, remove_tile, sorted_tiles

__all__ = [
    "MAX_PLAYERS",
    "MEXICAN_TRAIN_HAND_SIZES",
    "MIN_PLAYERS",
    "Deal",
    "Engine",
    "add_to_hand",
    "blocked",
    "check_sizes",
    "count",
    "deal_hand",
    "deal_order",
    "deal_set",
    "engine_of",
    "first_player",
    "gone_out",
    "hand_size",
    "hands_in_match",
    "hunt_draws",
    "laid_tiles",
    "live_numbers",
    "open_end",
    "play_event",
    "play_move",
    "player_range",
    "score_hand",
    "take_from_hand",
    "tiles_dealt_from",
]

#: The fewest and the most players of a trains game: the hub has eight slots ``[MT-2]``.
MIN_PLAYERS, MAX_PLAYERS = 2, 8


class Engine(enum.Enum):
    """Where the hand's engine comes from ``[MT-3]`` (option ``engine`` of both games)."""

    #: Taken out of the set before the shuffle and placed in the hub (the default).
    SET_ASIDE = "SET_ASIDE"
    #: The whole set is dealt; its holder places it, after a hunt when nobody holds it.
    FROM_HAND = "FROM_HAND"


#: ``[MT-2]`` the tiles dealt to each player when option ``hand_size`` is 0, by the set's
#: highest pip, for 2, 3, ... 8 players (``None``: that count needs an explicit
#: ``hand_size``). Double-15 deals as double-12 (a decision of RULES.md).
MEXICAN_TRAIN_HAND_SIZES: Mapping[int, tuple[int | None, ...]] = {
    9: (12, 11, 10, None, None, None, None),
    12: (15, 15, 15, 12, 12, 10, 10),
    15: (15, 15, 15, 12, 12, 10, 10),
}


def hand_size(
    table: Mapping[int, Sequence[int | None]], set_max_pip: int, players: int, chosen: int
) -> int | None:
    """``[MT-2]`` the tiles each of ``players`` is dealt: ``chosen`` (option ``hand_size``)
    when it is not 0, else the table's entry for the set and the player count; ``None``
    when the table has none (the count then needs an explicit ``hand_size``).

    >>> hand_size(MEXICAN_TRAIN_HAND_SIZES, 12, 8, 0), hand_size(MEXICAN_TRAIN_HAND_SIZES, 9, 5, 0)
    (10, None)
    >>> hand_size(MEXICAN_TRAIN_HAND_SIZES, 9, 5, 7)
    7
    """
    if chosen:
        return chosen
    row = table.get(set_max_pip, ())
    index = players - MIN_PLAYERS
    return row[index] if 0 <= index < len(row) else None


def tiles_dealt_from(set_tiles: int, engine: Engine) -> int:
    """``[MT-2]`` the tiles the deal is made from: the whole set, less the engine when it
    is set aside."""
    return set_tiles - 1 if engine is Engine.SET_ASIDE else set_tiles


def player_range(
    table: Mapping[int, Sequence[int | None]],
    set_max_pip: int,
    chosen: int,
    engine: Engine,
    set_tiles: int,
) -> tuple[int, int]:
    """``[MT-2]`` the player counts these options allow, as ``(2, most)``: 2 to 8 players,
    each with a hand size (the table's or ``chosen``), and players times hand size no more than
    the tiles dealt from. ``most`` is below 2 when no count is allowed. The allowed counts
    run without a gap: a larger table never has an entry where a smaller one has none,
    and needs more tiles."""
    most = MIN_PLAYERS - 1
    room = tiles_dealt_from(set_tiles, engine)
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        size = hand_size(table, set_max_pip, players, chosen)
        if size is None or players * size > room:
            break
        most = players
    return MIN_PLAYERS, most


def check_sizes(set_tiles: int, set_max_pip: int, hand_size: int, hands: int) -> None:
    """``[MT-15]`` ``[CF-11]`` the bounds of the options that count tiles and hands, which
    depend on the set: ``hand_size`` 0 to half the set's tiles, ``hands`` 0 to one per
    double (N + 1). Otherwise :class:`OptionsError` (``BAD_OPTIONS``)."""
    if hand_size > set_tiles // 2:
        raise OptionsError(
            f"option hand_size must be from 0 to {set_tiles // 2} with this set, not {hand_size}"
        )
    if hands > set_max_pip + 1:
        raise OptionsError(
            f"option hands must be from 0 to {set_max_pip + 1} with this set, not {hands}"
        )


def hands_in_match(set_max_pip: int, hands: int) -> int:
    """``[MT-3]`` ``[MT-13]`` the hands of a match: option ``hands``, or one per double of
    the set (N + 1) when it is 0."""
    return hands or set_max_pip + 1


def engine_of(set_max_pip: int, hand_number: int) -> Tile:
    """``[MT-3]`` the engine of hand ``hand_number`` (counted from 1): [N-N] first, then
    each lower double in turn.

    >>> engine_of(12, 1), engine_of(12, 13)
    (Tile(12, 12), Tile(0, 0))
    """
    pip = set_max_pip - (hand_number - 1)
    return Tile.of(pip, pip)


def first_player(hand_number: int, players: int) -> int:
    """``[MT-4]`` with the engine set aside, seat h mod P plays first in hand h (counted
    from 0): seat 0 in the first hand, then the start passes on each hand. (With
    ``FROM_HAND`` the seat that placed the engine plays first: :func:`deal_hand`.)"""
    return (hand_number - 1) % players


def deal_set(full_set: tuple[Tile, ...], engine: Tile, how: Engine) -> tuple[Tile, ...]:
    """``[MT-2]`` ``[MT-3]`` the tiles a hand is dealt from, in their usual order: the
    whole set, less the engine when it is set aside (a game's ``Ruleset.deal_set``)."""
    return full_set if how is Engine.FROM_HAND else tuple(t for t in full_set if t != engine)


def deal_order(
    seed: str, hand_number: int, full_set: tuple[Tile, ...], engine: Tile, how: Engine
) -> tuple[Tile, ...]:
    """``[MT-2]`` ``[MT-3]`` the tiles of hand ``hand_number`` in the order the shuffle
    leaves them (label ``deal/<hand>/0``): :func:`deal_set`, shuffled."""
    return rng.shuffled(seed, f"deal/{hand_number}/0", deal_set(full_set, engine, how))


@dataclass(frozen=True, slots=True)
class Deal:
    """A hand as dealt (:func:`deal_hand`): each seat's sorted hand (the engine placed,
    when it was dealt), the boneyard in order (drawn from its front), the first player,
    the seat that placed the engine (``None`` when set aside), the tiles drawn in the
    hunt for it, and the deal's events."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    leader: int
    placer: int | None
    hunt: int
    events: tuple[Event, ...]


def hunt_draws(
    order: tuple[Tile, ...], players: int, size: int, hand_number: int, hunt: int
) -> tuple[tuple[int, Tile], ...]:
    """``[MT-3]`` the first ``hunt`` draws of the hunt for the engine, as ``(seat, tile)``:
    round after round, every seat in turn from seat h mod P draws the boneyard's front
    tile (``order`` is the shuffled set, the first ``players * size`` tiles dealt).
    The draws are known from the deal and their number, so a state keeps only that."""
    start = (hand_number - 1) % players
    boneyard = order[players * size :]
    return tuple(((start + i) % players, boneyard[i]) for i in range(hunt))


def deal_hand(
    order: tuple[Tile, ...],
    players: int,
    size: int,
    engine: Tile,
    how: Engine,
    hand_number: int,
) -> Deal:
    """``[MT-2]`` ``[MT-3]`` ``[MT-4]`` deal hand ``hand_number`` from ``order``
    (:func:`deal_order`): seat 0 takes the first ``size`` tiles, seat 1 the next, and so
    on; the rest is the boneyard.

    * ``SET_ASIDE``: the engine is in the hub already; seat h mod P plays first.
    * ``FROM_HAND``: the seat holding the engine places it and plays first. When nobody
      holds it, the seats draw for it in rounds, every seat in turn from seat h mod P
      drawing one tile while the boneyard has any, each round finished even after the
      engine turns up, until someone holds it; the drawn tiles stay in the hands.

    Events: ``DEAL`` (count = the hand size); with ``FROM_HAND`` one ``DRAW`` per tile
    drawn in the hunt, shown only to its drawer; ``ENGINE`` (the tile; seat = its
    placer, unset when set aside); ``LEADER``.
    """
    hands = [list(order[seat * size : (seat + 1) * size]) for seat in range(players)]
    boneyard = order[players * size :]
    events = [Event(EventKind.DEAL, count=size)]
    placer: int | None = None
    hunt = 0
    if how is Engine.FROM_HAND:
        holder = next((seat for seat, hand in enumerate(hands) if engine in hand), None)
        start = (hand_number - 1) % players
        while holder is None and hunt < len(boneyard):
            for i in range(players):  # one round: every seat draws once while it can
                if hunt >= len(boneyard):
                    break
                seat, tile = (start + i) % players, boneyard[hunt]
                hands[seat].append(tile)
                hunt += 1
                events.append(Event(EventKind.DRAW, seat=seat, tile=tile, private_to=seat))
                if tile == engine:
                    holder = seat
        assert holder is not None, "the whole set was dealt: the engine turns up"
        hands[holder].remove(engine)
        boneyard = boneyard[hunt:]
        placer = leader = holder
    else:
        leader = first_player(hand_number, players)
    events.append(Event(EventKind.ENGINE, seat=placer, tile=engine))
    events.append(Event(EventKind.LEADER, seat=leader))
    return Deal(
        tuple(sorted_tiles(hand) for hand in hands), boneyard, leader, placer, hunt, tuple(events)
    )


def live_numbers(hands: Iterable[Iterable[Tile]], boneyard: Iterable[Tile]) -> int:
    """``[MT-9]`` the numbers not yet dead, as a bit set (bit n for number n): those some
    tile off the table shows, in a hand or the boneyard. A number is *dead* when every tile
    showing it is on the table (the engine and the lines), and a double of a dead number
    can never be satisfied. Any seat's view tells the same, from the tiles on the table."""
    live = 0
    for hand in hands:
        for tile in hand:
            live |= tile.halves
    for tile in boneyard:
        live |= tile.halves
    return live


def gone_out(hands: Sequence[Sequence[Tile]], laid: bool) -> bool:
    """``[MT-11]`` ``[CF-7]`` a seat has gone out: a hand is empty once a tile is laid
    (``laid``). Placing the engine is not laying a tile (``[MT-3]``: not the seat's
    turn), so a seat dealt only the engine has not gone out: it plays first, with an empty
    hand, and draws."""
    return laid and not all(hands)


def blocked(hands: Iterable[Iterable[Tile]], boneyard: int, open_ends: Iterable[int]) -> bool:
    """``[MT-11]`` ``[CF-7]`` the hand is blocked: the boneyard (its size here) is empty
    and no hand holds a tile showing the number of any open end. ``open_ends`` lists every
    open end (a line with none, as a Chicken Foot arm ending in a double, gives none)."""
    if boneyard:
        return False
    wanted = 0
    for end in open_ends:
        wanted |= 1 << end
    return not any(tile.halves & wanted for hand in hands for tile in hand)


def count(hand: Iterable[Tile], double_blank_points: int) -> int:
    """``[MT-12]`` a seat's count: the pips left in its hand, a [0-0] counting
    ``double_blank_points`` (0 is its pips)."""
    total = 0
    for tile in hand:
        total += double_blank_points if tile.code == 0 else tile.pips
    return total


def score_hand(hands: Sequence[Sequence[Tile]], double_blank_points: int) -> HandResult:
    """``[MT-12]`` the hand's result from the hands as it ended: each seat's count, which is
    also its points (the seat that went out scores 0); the winners are the seat that
    dominoed alone, or after a block every seat with the lowest count."""
    counts = tuple(count(hand, double_blank_points) for hand in hands)
    out = [seat for seat, hand in enumerate(hands) if not hand]
    if out:
        return HandResult(counts, counts, (out[0],), HandEnd.DOMINOED)
    low = min(counts)
    winners = tuple(seat for seat, value in enumerate(counts) if value == low)
    return HandResult(counts, counts, winners, HandEnd.BLOCKED)


def open_end(start: int, tiles: Sequence[Tile]) -> int:
    """``[MT-5]`` ``[CF-3]`` the number at the open end of a line of ``tiles`` laid from a
    double of ``start`` outwards (``start`` itself while it is empty): each tile is laid
    with the number it matches inwards, a double leaves the end as it was.

    Read off the last two tiles: a tile other than a double shares exactly one half with
    the tile before it (two tiles sharing both would be the same tile), the half it was
    laid against.

    >>> [open_end(12, [Tile(12, 5), Tile(5, 5), Tile(5, 3)]), open_end(9, [Tile(9, 9)])]
    [3, 9]
    >>> open_end(9, []), open_end(9, [Tile(9, 4)]), open_end(4, [Tile(4, 3), Tile(4, 4)])
    (9, 4, 4)
    """
    if not tiles:
        return start
    last = tiles[-1]
    if last.is_double:
        return last.high
    if len(tiles) == 1:
        return last.other(start)
    return last.low if tiles[-2].halves >> last.high & 1 else last.high


def laid_tiles(start: int, tiles: Sequence[Tile]) -> tuple[LaidTile, ...]:
    """``[MT-14]`` ``[CF-10]`` the tiles of a line from ``start`` outwards as the view shows
    them: ``left`` the half towards the hub (or foot), ``right`` the outer half."""
    laid = []
    end = start
    for tile in tiles:
        outer = tile.other(end)
        laid.append(LaidTile(tile, end, outer))
        end = outer
    return tuple(laid)


def play_move(seat: int, tile: Tile, train: int) -> Move:
    """``Move(seat, PLAY, tile, train=train)``, made once and then shared (a search lists
    the same plays again and again)."""
    return _play_move(seat, tile.code, train)


def play_event(seat: int, tile: Tile, train: int) -> Event:
    """``Event(PLAY, seat=seat, tile=tile, train=train)``, made once and then shared."""
    return _play_event(seat, tile.code, train)


@functools.lru_cache(maxsize=1 << 16)
def _play_move(seat: int, code: int, train: int) -> Move:
    return Move(seat, MoveKind.PLAY, Tile.from_code(code), train=train)


@functools.lru_cache(maxsize=1 << 16)
def _play_event(seat: int, code: int, train: int) -> Event:
    return Event(EventKind.PLAY, seat=seat, tile=Tile.from_code(code), train=train)


def add_to_hand(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """A sorted hand with ``tile`` drawn into it."""
    return insert_tile(hand, tile)


def take_from_hand(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """A sorted hand less ``tile`` (laid)."""
    return remove_tile(hand, tile)
