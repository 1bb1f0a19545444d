"""The All Fives bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``AllFivesTable``): the line, the spinner and its arms, each open
end's number, the count, this hand's points per seat, the leader, every seat's number of
tiles (a partner's too: its tiles stay hidden) and the boneyard's size.

**Worlds.** As Block's: the tiles the seat cannot see (the set less its hand and the
layout) are dealt at random to the other hands, at the sizes the view shows, and to the
boneyard. Before a ``HIGHEST_DOUBLE`` lead the seat to act leads the highest-ranked tile
dealt, so no other hand may hold a higher one. The hand goes on ``[A5-10]``: when nothing
more may be drawn and no tile of the seat's own fits an open end, another hand holds one
that does. Passes and draws are not inferred from.

**GREEDY**: the play that scores the most points from the count it makes ``[A5-8]``
``[A5-9]``; of equal points, Block's: the heaviest tile (a double first), then the one
that leaves the seat the most tiles that fit the new ends. A forced ``DRAW`` or ``PASS``
is the only move.

Playouts play the same heuristic for every seat of a sampled world, through the rules
(``Ruleset.play_hand``); STRONG plays 60 of them by default, not the 100 of Block: a
Fives hand is longer (it draws), and 60 keep its CPU per suggestion within the budget
the others keep.
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.dealing import GameBot, best, deal_hands, hidden_pool
from ...rules import End, Match, Move, MoveKind, Tile, View
from ...rules.lines import lay
from .rules import (
    AllFivesHandState,
    AllFivesOptions,
    AllFivesTable,
    ArmTile,
    FirstLead,
    NextLead,
    count,
    end_pips,
    play_points,
    rank,
)

__all__ = ["AllFivesBot"]

#: Points a hand scores, about (two players, pegs and bonus): how fast a target comes.
_POINTS_A_HAND = 45.0


class AllFivesBot(GameBot):
    greedy_text = (
        "the play that scores the most from the count it makes; of equal scores the "
        "heaviest tile (a double first), then the one that leaves the most of the seat's "
        "tiles a place to go"
    )
    margin_scale = 40.0
    margin_weight = 0.3
    hand_spread = 40.0
    candidates = 6
    #: STRONG's default, set by measurement: a median CPU per suggestion of at most 15 ms
    #: (``python bench/bots.py``) at a win share against GREEDY within noise of the larger
    #: budget it replaced (``python bench/tournament.py``)
    playouts = 26

    def hands_after(
        self, options: AllFivesOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        if options.target_score == 0:
            return 0.0
        return self.hands_to_target(options.target_score, totals, _POINTS_A_HAND)

    def running_points(self, view: View, players: int) -> tuple[int, ...]:
        table: AllFivesTable = view.table
        return table.hand_points  # [A5-9] scored at once, in the match points already

    def deal_world(
        self,
        view: View,
        options: AllFivesOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> AllFivesHandState | None:
        table: AllFivesTable = view.table
        laid = [laid.tile for laid in table.line] + [arm.tile for arm in table.up + table.down]
        pool = hidden_pool(self.ruleset.full_set(options), view.hand, laid)
        any_lead = bool(table.line) or not (
            options.first_lead is FirstLead.HIGHEST_DOUBLE
            and (view.hand_number == 1 or options.next_lead is NextLead.AS_FIRST)
        )
        allows = None
        if not any_lead and view.hand:
            top = rank(max(view.hand, key=rank))

            def below(seat: int) -> Any:
                return lambda tile: rank(tile) < top

            allows = below
        left = max(0, view.stock - options.boneyard_keep) if options.draw else 0
        pips = end_pips(table.line, table.spinner, table.up, table.down)
        accept = None
        if pips and not left and not any(t.halves & pips for t in view.hand):
            # [A5-10] not blocked: another hand holds a tile that fits

            def accept(parts: list[list[Tile]]) -> bool:
                return any(t.halves & pips for part in parts[:-1] for t in part)

        dealt = deal_hands(view, players, pool, rng, allows, accept)
        if dealt is None or view.to_act is None:
            return None
        hands, boneyard = dealt
        last = None if not table.line else table.leader
        return AllFivesHandState(
            hands,
            boneyard,
            table.line,
            table.spinner,
            table.up,
            table.down,
            view.to_act,
            table.leader,
            any_lead,
            left,
            last,
            table.hand_points,
            None,
        )

    def move_keys(self, view: View, options: AllFivesOptions) -> list[Any]:
        table: AllFivesTable = view.table
        return [_key(move, view.hand, table, options) for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: AllFivesHandState = match.hand_state
        hand = state.hands[state.to_act]
        options = match.options
        return best(legal, lambda move: _key(move, hand, state, options))


def _key(
    move: Move, hand: tuple[Tile, ...], layout: Any, options: AllFivesOptions
) -> tuple[int, int, int, int]:
    """The points of the count the play makes, then the heaviest tile, a double first,
    then the most of the other tiles fitting the ends it leaves. ``layout`` is a table or
    a hand state (both hold the line, the spinner and the arms)."""
    tile = move.tile
    if move.kind is not _PLAY or tile is None:
        return (-1, -1, 0, 0)
    line, spinner, up, down = _after(layout, tile, move.end, options)
    ends = end_pips(line, spinner, up, down)
    placed, code = 0, tile.code
    for t in hand:
        if t.halves & ends and t.code != code:
            placed += 1
    points = play_points(options, count(line, spinner, up, down))
    return (points, tile.pips, int(tile.is_double), placed)


def _after(layout: Any, tile: Tile, end: End | None, options: AllFivesOptions) -> Any:
    """The line, spinner and arms once ``tile`` is laid at ``end``: what the bot foresees
    of a play to weigh it (the rules lay it: ``AllFives.hand_apply``)."""
    line, spinner = _short(layout.line, layout.spinner)
    up, down = layout.up, layout.down
    if end is End.UP or end is End.DOWN:
        arm = up if end is End.UP else down
        showing = arm[-1].outer if arm else line[spinner or 0].tile.high
        grown = (*arm, ArmTile(tile, showing, tile.low if tile.high == showing else tile.high))
        return (line, spinner, grown, down) if end is End.UP else (line, spinner, up, grown)
    new = lay(line, tile, end)
    if spinner is not None and end is End.LEFT:
        spinner += 1
    elif spinner is None and tile.is_double and options.spinner.name == "FIRST_DOUBLE":
        spinner = len(new) - 1 if end is End.RIGHT else 0
    return new, spinner, up, down


def _short(line: Any, spinner: int | None) -> tuple[Any, int | None]:
    """A line of at most 3 tiles that counts and opens as ``line`` does, now and after a
    tile at either end: its two end tiles and, between them, the spinner where it lies
    inside the line (what the count reads of a line: its ends, whether it is one tile,
    and whether the spinner has both sides touched)."""
    n = len(line)
    if n <= 3:
        return line, spinner
    if spinner is None or spinner == 0:
        return (line[0], line[1], line[-1]), spinner
    if spinner == n - 1:
        return (line[0], line[-2], line[-1]), 2
    return (line[0], line[spinner], line[-1]), 1


_PLAY = MoveKind.PLAY
