"""Games scored by the tiles discarded face down: Tsair Deng and Dancing Dragons.

What the two share, written once: the hand sizes of the Chinese set (``[TD-2]``,
``[DD-1]``), the random first leader (``[TD-3]``, ``[DD-2]``), a hand's score and its one
winner (``[TD-8]``, ``[TD-9]``; ``[DD-7]``, ``[DD-8]``), and the match with its settlement
(``[TD-10]``, ``[DD-9]``).

>>> discard_points(((), (Tile(6, 5),), (Tile(1, 0), Tile(2, 2))))
((0, 11, 5), (0, 22, 10))
>>> settlement_of((10, 4, 0))
(-16, 2, 14)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import rng
from .limits import MAX_HANDS
from .match import HandEnd, HandResult, Match, hand_result
from .ruleset import TieBreak, points_text, seats_text, tie_break_text
from .tiles import Tile, hand_pips

__all__ = [
    "CHINESE_HAND_SIZES",
    "discard_points",
    "discard_result",
    "discards_match_over",
    "discards_max_hands",
    "explain_discards",
    "random_leader",
    "settlement_of",
]

#: Tiles per seat with the Chinese set, by number of players ([TD-2], [DD-1]).
CHINESE_HAND_SIZES = {2: 16, 3: 10, 4: 8}


def random_leader(seed: str, hand_number: int, players: int) -> int:
    """A seat drawn at random: ``Stream(seed, "lead/<hand>").below(players)``."""
    return rng.Stream(seed, f"lead/{hand_number}").below(players)


def discard_points(
    discards: tuple[tuple[Tile, ...], ...],
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's discarded pips and its hand score: the pips, doubled for every seat
    that discarded when some seat discarded nothing (a seat whose only discard is
    ``[0-0]`` has discards)."""
    counts = tuple(hand_pips(d) for d in discards)
    if any(not d for d in discards):
        return counts, tuple(0 if not d else 2 * c for d, c in zip(discards, counts, strict=False))
    return counts, counts


def discard_result(
    match: Match[Any, Any], discards: tuple[tuple[Tile, ...], ...], leader: int
) -> HandResult:
    """The hand just over: its counts and points (:func:`discard_points`) and its one
    winner: fewest points, then fewer discards, then the lower match total before this
    hand, then the first in turn order from this hand's leader."""
    players = match.players
    counts, points = discard_points(discards)
    before = [0] * players
    for result in match.history:  # this hand is not in the history yet
        for s, p in enumerate(result.points):
            before[s] += p

    def rank(seat: int) -> tuple[int, int, int, int]:
        turn = (seat - leader) % players
        return (points[seat], len(discards[seat]), before[seat], turn)

    winner = min(range(players), key=rank)
    return hand_result(counts, points, (winner,), HandEnd.ALL_TILES_PLACED, ())


def discards_max_hands(hands: int, target_score: int) -> int:
    """``hands`` hands, unless the match is played to a target (ended by ``MAX_HANDS``)."""
    return hands if target_score <= 0 else MAX_HANDS


def discards_match_over(
    hand_number: int, totals: tuple[int, ...], hands: int, target_score: int
) -> bool:
    """Over once a total reaches ``target_score`` (when set, ``hands`` then ignored), else
    after hand number ``hands``."""
    if target_score > 0:
        return max(totals) >= target_score
    return hand_number >= hands


def settlement_of(totals: tuple[int, ...]) -> tuple[int, ...]:
    """Every pair settles the difference of its totals: ``net_i = sum_j (total_j -
    total_i)``."""
    return tuple(sum(totals) - len(totals) * own for own in totals)


def explain_discards(
    match: Match[Any, Any],
    number: int,
    before: tuple[int, ...],
    state: Any,
    *,
    tags: tuple[str, str, str],
    blanks: bool,
    leader_of: Callable[[], int],
) -> str | None:
    """How finished hand ``number`` of a discard game was decided, in words: the end, the
    fewest points and any tie-break, the scores. ``tags`` are the rules' tags of the end,
    the scores and the winner (``("[TD-7]", "[TD-8]", "[TD-9]")``); ``blanks``: the set
    has a blank, so a score of 0 may be ``[0-0]`` discarded alone; ``state`` is the
    hand's final state where the match still holds it (``None`` for an earlier hand);
    ``leader_of()`` gives the hand's leader when ``state`` is ``None``. ``None`` for a
    result these rules do not give (a state from outside): the caller says the facts."""
    end, scored, won = tags
    result, players = match.history[number - 1], match.players
    counts, points, winners = result.counts, result.points, result.winners
    if len(winners) != 1 or points[winners[0]] != min(points):
        return None
    (winner,) = winners
    fewest = points[winner]
    tied = [seat for seat in range(players) if points[seat] == fewest]
    if len(tied) == 1:
        decided = f"seat {winner} has the fewest points, {fewest}, and wins the hand {won}"
    else:
        # without a blank, a seat scored 0 exactly when it discarded nothing
        discarded: tuple[int, ...] | None = (0,) * players if fewest == 0 and not blanks else None
        if state is not None:
            discarded = tuple(len(tiles) for tiles in state.discards)
            leader = state.leader
        else:
            leader = leader_of()
        steps = (
            TieBreak("fewer discarded tiles", discarded),
            TieBreak("the lower match total before this hand", before),
            TieBreak(
                f"the first in turn order from this hand's leader, seat {leader}",
                [(seat - leader) % players for seat in range(players)],
                shown=False,
            ),
        )
        decided = (
            f"{seats_text(tied)} tie for the fewest points, {fewest} each; seat {winner} "
            f"wins the tie on {tie_break_text(winner, tied, steps)} {won}"
        )
    if state is not None:
        empty = [seat for seat, tiles in enumerate(state.discards) if not tiles]
    elif not blanks:
        empty = [seat for seat in range(players) if counts[seat] == 0]
    elif any(p != c for p, c in zip(points, counts, strict=True)):
        # with a blank, a count of 0 may be [0-0] discarded alone; a doubled score shows
        # that some seat discarded nothing, and the seats of count 0 are the candidates
        empty = [seat for seat in range(players) if counts[seat] == 0]
    else:
        empty = []
    none = seats_text(empty) if state is not None or not blanks or len(empty) == 1 else "a seat"
    if len(empty) == players:
        scores = f"Nobody discarded, so every score is 0 {scored}."
    else:
        doubled = f", doubled because {none} discarded nothing" if empty else ""
        scores = f"Each seat scores its discarded pips{doubled} {scored}: {points_text(points)}."
    return f"Every tile played or discarded {end}: {decided}. {scores}"
