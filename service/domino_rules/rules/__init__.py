"""The rules core: pure game logic, no protobuf, no I/O, no clocks.

Importing this package registers every ruleset.
"""

from . import one_arm_joe, throw_up, tiu_u, tsair_deng  # noqa: F401  (each module registers its ruleset)
from .base import (
    End,
    Event,
    EventKind,
    HandEnd,
    HandResult,
    HandState,
    Match,
    Move,
    MoveKind,
    OptionSpec,
    Ruleset,
    Score,
    Status,
    View,
)
from .errors import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    MoveError,
    NotYourTurnError,
    OptionsError,
    PlayerCountError,
    RulesError,
    UnknownRulesetError,
)
from .registry import all_rulesets, get
from .tiles import Tile

__all__ = [
    "End",
    "Event",
    "EventKind",
    "GameOverError",
    "HandEnd",
    "HandResult",
    "HandState",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidStateError",
    "Match",
    "Move",
    "MoveError",
    "MoveKind",
    "NotYourTurnError",
    "OptionSpec",
    "OptionsError",
    "PlayerCountError",
    "RulesError",
    "Ruleset",
    "Score",
    "Status",
    "Tile",
    "UnknownRulesetError",
    "View",
    "all_rulesets",
    "get",
]
