"""Position builders for the rule tests: exact matches of any ruleset, written as text
(each game's own builder, around its hand state, is in its ``test_<id>.py``).

Tiles are written as in RULES.md, ``"6-4 5-5"`` (brackets optional). A seat's hand is
kept sorted, as the rules keep it; other tuples (a boneyard, a line, a catch) keep the
order written. A position built here is exactly what is written: it need not hold the
whole set (tests of one rule leave the other tiles out), unless it is dealt with
:func:`dealt`, whose order is always the whole set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from domino_rules import rules
from domino_rules.rules import HandResult, Match, Ruleset, Status, Tile
from domino_rules.rules.lines import LaidTile

__all__ = [
    "SEED",
    "dealt",
    "hand",
    "laid",
    "match_of",
    "options_of",
    "order_of",
    "rest_of",
    "ruleset_of",
    "tile",
    "tiles",
]

#: The seed of every scripted position (dice thrown mid-hand come from it).
SEED = "scripted"


def tile(text: str) -> Tile:
    """One tile: ``tile("6-4") == Tile(6, 4)``."""
    return Tile.parse(text)


def tiles(text: str = "") -> tuple[Tile, ...]:
    """Tiles in the order written."""
    return tuple(Tile.parse(word) for word in text.split())


def hand(text: str = "") -> tuple[Tile, ...]:
    """A seat's hand: the tiles written, sorted."""
    return tuple(sorted(tiles(text)))


def ruleset_of(ruleset: str | Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    return rules.get(ruleset) if isinstance(ruleset, str) else ruleset


def options_of(ruleset: str | Ruleset[Any, Any], options: Any = None) -> Any:
    """The ruleset's options: an options value as is, or ``{name: value}`` (``None``: all
    defaults) through ``make_options``."""
    if options is None or isinstance(options, Mapping):
        return ruleset_of(ruleset).make_options(options)
    return options


def match_of(
    ruleset: str | Ruleset[Any, Any],
    state: Any,
    *,
    options: Any = None,
    seed: str = SEED,
    hand_number: int = 1,
    history: tuple[HandResult, ...] = (),
    status: Status = Status.IN_PROGRESS,
) -> Match[Any, Any]:
    """A match of any ruleset around an exact hand state (one seat per hand in it)."""
    return Match(
        len(state.hands),
        options_of(ruleset, options),
        seed,
        hand_number,
        state,
        history=history,
        status=status,
    )


def rest_of(full: Iterable[Tile], *used: Iterable[Tile]) -> tuple[Tile, ...]:
    """The tiles of ``full`` less the tiles ``used`` (one copy each), ascending."""
    rest = Counter(full)
    for group in used:
        for t in group:
            if rest[t] <= 0:
                raise ValueError(f"{t} is not in the set (or is used twice)")
            rest[t] -= 1
    return tuple(sorted(rest.elements()))


def order_of(
    full: Iterable[Tile], first: str = "", placed: Mapping[int, Tile] | None = None
) -> tuple[Tile, ...]:
    """A deal order of the whole set ``full``: the tiles ``first`` at its front, tiles
    ``placed`` at the given indices, and every other tile ascending in the gaps."""
    full = tuple(full)
    front, placed = tiles(first), dict(placed or {})
    rest = list(rest_of(full, front, placed.values()))
    order: list[Tile] = list(front)
    for index in range(len(front), len(full)):
        order.append(placed[index] if index in placed else rest.pop(0))
    if Counter(order) != Counter(full):
        raise ValueError("the order is not the whole set")
    return tuple(order)


def dealt(
    ruleset: str | Ruleset[Any, Any],
    players: int,
    order: tuple[Tile, ...],
    *,
    options: Any = None,
    seed: str = SEED,
    hand_number: int = 1,
    history: tuple[HandResult, ...] = (),
    previous: Any = None,
) -> Match[Any, Any]:
    """The match a deal from the exact ``order`` starts (``deal_from``), with its events."""
    chosen = ruleset_of(ruleset)
    opts = options_of(chosen, options)
    before: Match[Any, Any] = Match(players, opts, seed, hand_number - 1, previous, history)
    state, events = chosen.deal_from(before, hand_number, order)
    return Match(players, opts, seed, hand_number, state, history, last_events=events)


def laid(text: str) -> tuple[LaidTile, ...]:
    """A line of laid tiles written left to right as the pips show: ``"2-2 2-4 4-1"``."""
    out = []
    for word in text.split():
        left, right = (int(p) for p in word.split("-"))
        out.append(LaidTile(Tile.of(left, right), left, right))
    return tuple(out)
