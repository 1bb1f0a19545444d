"""Positions for the bot tests: random matches of every ruleset, seen by the seat to act.

:data:`SETUPS` lists, per ruleset, the player counts and options the bot tests play (the
ones that change what is hidden or inferred: set size, tile set, forced play, declining,
rethrows). :func:`positions` plays seeded random matches and yields every state in which
a hand is in progress, with the view of the seat to act.

:func:`shuffled_hidden` deals the tiles one seat cannot see again, at random, keeping
every size: another state that gives that seat the same view.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from domino_rules import rules
from domino_rules.rules import InvalidStateError, Match, Ruleset, Status, Tile, View

__all__ = ["SETUPS", "Position", "positions", "shuffled_hidden"]

#: Per ruleset: (players, options) of the matches the bot tests play.
SETUPS: dict[str, tuple[tuple[int, dict[str, Any]], ...]] = {
    "block": (
        (2, {"target_score": 0}),
        (3, {"target_score": 0, "draw": True}),
        (4, {"target_score": 0, "partnership": True}),
    ),
    "dancing_dragons": (
        (2, {"hands": 1}),
        (3, {"hands": 2, "must_play_if_able": False}),
        (4, {"hands": 1}),
    ),
    "one_arm_joe": (
        (2, {"target_score": 0}),
        (3, {"target_score": 30, "lead_double_bonus": True}),
        (5, {"target_score": 0, "set_max_pip": 9}),
    ),
    "tsair_deng": (
        (2, {"hands": 1}),
        (3, {"hands": 2, "tile_set": "DOUBLE_SIX"}),
        (4, {"hands": 1, "must_play_if_able": True}),
    ),
    "tiu_u": (
        (2, {"hands": 1}),
        (3, {"hands": 2, "may_decline": True}),
        (4, {"hands": 1, "red_sixes": "ALL_SIXES"}),
    ),
    "throw_up": (
        (2, {"hands_per_player": 1}),
        (3, {"hands_per_player": 1, "rethrow_repeats": True}),
    ),
}


@dataclass(frozen=True)
class Position:
    """A state of a hand in progress and the view of its seat to act."""

    ruleset: Ruleset[Any, Any]
    options: Any
    players: int
    match: Match[Any, Any]
    view: View

    @property
    def seat(self) -> int:
        assert self.view.seat is not None
        return self.view.seat


def positions(ruleset_id: str, *, matches: int, prefix: str = "bots") -> Iterator[Position]:
    """Every hand-in-progress state of ``matches`` seeded random matches per setup."""
    ruleset = rules.get(ruleset_id)
    for players, values in SETUPS[ruleset_id]:
        options = ruleset.make_options(values)
        for n in range(matches):
            seed = f"{prefix}/{ruleset_id}/{players}/{n}"
            match = ruleset.new_match(options, players, seed)
            chooser = random.Random(seed)
            while match.status is not Status.MATCH_OVER:
                if match.status is Status.IN_PROGRESS:
                    seat = ruleset.to_act(match)
                    assert seat is not None
                    yield Position(ruleset, options, players, match, ruleset.view(match, seat))
                legal = ruleset.legal_moves(match)
                match, _ = ruleset.apply(match, chooser.choice(legal))


#: Per ruleset: the fields of the hand state that hold hidden tiles, and whether each
#: is kept sorted (a per-seat field is hidden for every other seat).
_HIDDEN: dict[str, tuple[tuple[str, bool, bool], ...]] = {
    # (field, per seat, sorted)
    "block": (("hands", True, True), ("boneyard", False, False)),
    "dancing_dragons": (("hands", True, True), ("discards", True, False), ("unused", False, True)),
    "one_arm_joe": (("hands", True, True), ("boneyard", False, False)),
    "tsair_deng": (("hands", True, True), ("discards", True, False), ("unused", False, True)),
    "tiu_u": (("hands", True, True), ("woodpile", False, False)),
    "throw_up": (("hands", True, True), ("boneyard", False, False)),
}


def shuffled_hidden(position: Position, rng: random.Random, tries: int = 50) -> Match[Any, Any]:
    """A different state that gives the position's seat the same view: the tiles it
    cannot see (other hands, the stock, other seats' discards, tiles aside) dealt again at
    random into the same places, each keeping its size; one that passes ``check_match``.
    Raises ``LookupError`` when no such state is found (every hidden place is empty)."""
    ruleset, match, me = position.ruleset, position.match, position.seat
    state = match.hand_state
    places: list[tuple[str, int | None, bool]] = []
    hidden: list[Tile] = []
    for name, per_seat, keep_sorted in _HIDDEN[ruleset.id]:
        value = getattr(state, name)
        seats = [s for s in range(position.players) if s != me] if per_seat else [None]
        for seat in seats:
            tiles = value[seat] if seat is not None else value
            places.append((name, seat, keep_sorted))
            hidden.extend(tiles)
    sizes = [
        len(getattr(state, name)[seat] if seat is not None else getattr(state, name))
        for name, seat, _ in places
    ]
    for _ in range(tries):
        dealt = rng.sample(hidden, len(hidden))
        fields: dict[str, Any] = {}
        start = 0
        for (name, seat, keep_sorted), size in zip(places, sizes, strict=True):
            tiles = tuple(dealt[start : start + size])
            start += size
            if keep_sorted:
                tiles = tuple(sorted(tiles))
            if seat is None:
                fields[name] = tiles
            else:
                current = list(fields.get(name, getattr(state, name)))
                current[seat] = tiles
                fields[name] = tuple(current)
        other = dataclasses.replace(match, hand_state=dataclasses.replace(state, **fields))
        if other == match:
            continue
        try:
            ruleset.check_match(other)
        except InvalidStateError:
            continue
        return other
    raise LookupError("no other state gives this view")
