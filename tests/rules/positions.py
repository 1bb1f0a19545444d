"""Position builders for the rule tests: exact matches of any ruleset, written as text.

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
from domino_rules.games.one_arm_joe.rules import OneArmJoeHandState, OneArmJoeOptions
from domino_rules.games.throw_up.rules import LaidTile, ThrowUpHandState, ThrowUpOptions
from domino_rules.games.tiu_u.rules import TiuUHandState, TiuUOptions
from domino_rules.games.tsair_deng.rules import TsairDengHandState
from domino_rules.rules import HandResult, Match, Ruleset, Status, Tile

__all__ = [
    "SEED",
    "dealt",
    "hand",
    "laid",
    "match_of",
    "one_arm_joe",
    "options_of",
    "order_of",
    "rest_of",
    "ruleset_of",
    "throw_up",
    "tile",
    "tiles",
    "tiu_u",
    "tsair_deng_state",
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


# --------------------------------------------------------------------------- One Arm Joe


def one_arm_joe(
    hands: list[str],
    *,
    boneyard: str = "",
    line: str = "",
    open_end: int | None = None,
    to_act: int = 0,
    bonus: bool = False,
    leader: int = 0,
    dominoed: int | None = None,
    seed: str = SEED,
    **option_values: Any,
) -> Match[OneArmJoeOptions, OneArmJoeHandState]:
    """A One Arm Joe position; keyword arguments past the state's fields are options."""
    state = OneArmJoeHandState(
        hands=tuple(hand(h) for h in hands),
        boneyard=tiles(boneyard),
        line=tiles(line),
        open_end=open_end,
        to_act=to_act,
        bonus=bonus,
        leader=leader,
        dominoed=dominoed,
    )
    return match_of("one_arm_joe", state, options=option_values, seed=seed)


# --------------------------------------------------------------------------- Tsair Deng


def tsair_deng_state(
    hands: list[str],
    *,
    discards: list[str] | None = None,
    played: str = "",
    open_pip: int | None = None,
    to_act: int = 0,
    leader: int = 0,
    unused: str = "",
) -> TsairDengHandState:
    """A Tsair Deng hand state (discards in the order discarded, played in play order)."""
    return TsairDengHandState(
        hands=tuple(hand(h) for h in hands),
        discards=tuple(tiles(d) for d in (discards or [""] * len(hands))),
        played=tiles(played),
        open_pip=open_pip,
        to_act=to_act,
        leader=leader,
        unused=hand(unused),
    )


# --------------------------------------------------------------------------- Tiu U


def tiu_u(
    hands: list[str],
    lake: str,
    woodpile: str,
    *,
    catches: list[str] | None = None,
    piles: str = "",
    to_act: int = 0,
    drawn: str | None = None,
    leader: int = 0,
    options: TiuUOptions | None = None,
    hand_number: int = 1,
    history: tuple[HandResult, ...] = (),
    seed: str = SEED,
) -> Match[TiuUOptions, TiuUHandState]:
    """A Tiu U position: the woodpile in draw order, catches in the order taken."""
    state = TiuUHandState(
        hands=tuple(hand(h) for h in hands),
        woodpile=tiles(woodpile),
        lake=hand(lake),
        piles=hand(piles),
        catches=tuple(tiles(c) for c in catches) if catches else ((),) * len(hands),
        to_act=to_act,
        leader=leader,
        drawn=tile(drawn) if drawn else None,
    )
    return match_of(
        "tiu_u",
        state,
        options=options or TiuUOptions(),
        seed=seed,
        hand_number=hand_number,
        history=history,
    )


# --------------------------------------------------------------------------- Throw-up


def laid(text: str) -> tuple[LaidTile, ...]:
    """A Throw-up line written left to right as the pips show: ``"2-2 2-4 4-1"``."""
    out = []
    for word in text.split():
        left, right = (int(p) for p in word.split("-"))
        out.append(LaidTile(Tile.of(left, right), left, right))
    return tuple(out)


def throw_up(
    hands: list[str],
    *,
    line: str = "",
    dice: tuple[int, ...] = (1, 5, 3),
    leader: int = 0,
    to_act: int | None = None,
    boneyard: str | None = None,
    front: str = "",
    pegs: tuple[int, ...] | None = None,
    round: int = 1,
    idle_rounds: int = 0,
    laid_this_round: bool = False,
    options: ThrowUpOptions | None = None,
    hand_number: int = 1,
    history: tuple[HandResult, ...] = (),
    seed: str = SEED,
) -> Match[ThrowUpOptions, ThrowUpHandState]:
    """A Throw-up position; by default the boneyard is every other tile of the set,
    ascending, after the tiles ``front`` names."""
    options = options or ThrowUpOptions()
    held = tuple(hand(h) for h in hands)
    on_line = laid(line)
    if boneyard is None:
        full = rules.get("throw_up").full_set(options)
        first = tiles(front)
        on_line_tiles = tuple(t.tile for t in on_line)
        yard = first + rest_of(full, *held, on_line_tiles, first)
    else:
        yard = tiles(boneyard)
    state = ThrowUpHandState(
        hands=held,
        boneyard=yard,
        line=on_line,
        dice=dice,
        round=round,
        leader=leader,
        to_act=leader if to_act is None else to_act,
        pegs=pegs if pegs is not None else (0,) * len(hands),
        idle_rounds=idle_rounds,
        laid_this_round=laid_this_round,
    )
    return match_of(
        "throw_up", state, options=options, seed=seed, hand_number=hand_number, history=history
    )
