"""Positions for the bot tests: random matches of every ruleset, seen by the seat to act.

:data:`SETUPS` lists, per ruleset, the player counts and options the bot tests play (the
ones that change what is hidden or inferred: set size, tile set, forced play, declining,
rethrows), as each game declares them (``bot_setups``). :func:`positions` plays seeded
random matches and yields every state in which a hand is in progress, with the view of
the seat to act.

:func:`shuffled_hidden` deals the tiles one seat cannot see again, at random, keeping
every size: another state that gives that seat the same view (the places each game
declares ``hidden``).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from domino_rules import rules
from domino_rules.rules import InvalidStateError, Match, Ruleset, Status, Tile, View

from ..cases import CASES, cases_for

__all__ = ["SETUPS", "Position", "positions", "shuffled_hidden"]

#: Per ruleset: (players, options) of the matches the bot tests play.
SETUPS: dict[str, tuple[tuple[int, dict[str, Any]], ...]] = {
    ruleset_id: tuple((setup.players, dict(setup.options)) for setup in cases.bot_setups)
    for ruleset_id, cases in CASES.items()
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


def shuffled_hidden(position: Position, rng: random.Random, tries: int = 50) -> Match[Any, Any]:
    """A different state that gives the position's seat the same view: the tiles it
    cannot see (other hands, the stock, other seats' discards, tiles aside) dealt again at
    random into the same places, each keeping its size; one that passes ``check_match``.
    Raises ``LookupError`` when no such state is found (every hidden place is empty)."""
    ruleset, match, me = position.ruleset, position.match, position.seat
    state = match.hand_state
    places: list[tuple[str, int | None, bool]] = []
    hidden: list[Tile] = []
    for name, per_seat, keep_sorted in cases_for(ruleset.id).hidden:
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
