"""Errors of the rules core.

Every error is a :class:`ValueError`, split by cause::

    RulesError (ValueError)
     ├── UnknownRulesetError   no ruleset has that id
     ├── OptionsError          an option is unknown, of the wrong type or out of range
     ├── PlayerCountError      the ruleset cannot seat that many players
     └── MoveError             a move the state does not allow
          ├── GameOverError    the match is over: nothing is legal
          ├── NotYourTurnError the move's seat is not the seat to act
          └── IllegalMoveError the seat is to act, but the move is not a legal one

The API maps each class to one gRPC code and ``ErrorInfo.reason`` (see ``api.errors``).
"""

from __future__ import annotations

__all__ = [
    "GameOverError",
    "IllegalMoveError",
    "MoveError",
    "NotYourTurnError",
    "OptionsError",
    "PlayerCountError",
    "RulesError",
    "UnknownRulesetError",
]


class RulesError(ValueError):
    """Base of every error the rules core raises on bad input."""


class UnknownRulesetError(RulesError):
    pass


class OptionsError(RulesError):
    pass


class PlayerCountError(RulesError):
    pass


class MoveError(RulesError):
    pass


class GameOverError(MoveError):
    pass


class NotYourTurnError(MoveError):
    pass


class IllegalMoveError(MoveError):
    pass
