"""The rules core: pure game logic, no protobuf, no I/O, no clocks.

This package is the in-process library API: :func:`get` a ruleset by id, then its
``make_options``, ``new_match``, ``legal_moves``, ``apply``, ``view`` and ``score``.
Its modules are the kernel every game shares (moves, events, the match, views, options,
the :class:`Ruleset` base and the check of a state from outside); the games themselves
live in :mod:`domino_rules.games`, the catalogue, which :func:`get`, :func:`all_rulesets`
and :func:`most_players` read when first called (:mod:`.registry`): importing the kernel
imports no game.
"""

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
from .events import Event, EventKind
from .match import HandEnd, HandResult, HandState, Match, Status
from .moves import End, Move, MoveKind
from .options import OptionSpec
from .registry import all_rulesets, get, most_players
from .ruleset import Profile, Ruleset
from .tiles import Tile
from .views import Score, View

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
    "Profile",
    "RulesError",
    "Ruleset",
    "Score",
    "Status",
    "Tile",
    "UnknownRulesetError",
    "View",
    "all_rulesets",
    "get",
    "most_players",
]
