"""Random playouts in process: the rules core's own loop (:mod:`domino_rules.bots.playout`),
under the name the tests have always imported it by."""

from domino_rules.bots.playout import (
    MAX_MOVES,
    AnyMatch,
    AnyRuleset,
    Observer,
    PlayoutError,
    Rules,
    Step,
    hand_over,
    match_over,
    play_out,
    random_match,
)

__all__ = [
    "MAX_MOVES",
    "AnyMatch",
    "AnyRuleset",
    "Observer",
    "PlayoutError",
    "Rules",
    "Step",
    "hand_over",
    "match_over",
    "play_out",
    "random_match",
]
