"""Errors of the rules core.

Every error is a :class:`ValueError`, split by cause::

    RulesError (ValueError)
     ├── UnknownRulesetError   no ruleset has that id
     ├── OptionsError          an option is unknown, of the wrong type or out of range
     ├── PlayerCountError      the ruleset cannot seat that many players
     ├── InvalidStateError     a state (from a client's token) no play of the ruleset
     │                         reaches: a field of the wrong type, size or range, or
     │                         tiles that are not exactly one copy of the set
     └── MoveError             a move the state does not allow
          ├── InvalidMoveError the move is malformed: its fields do not fit its kind
          │                    (or its text does not parse)
          ├── GameOverError    the match is over: nothing is legal
          ├── NotYourTurnError the move's seat is not the seat to act
          └── IllegalMoveError the move is well formed and the seat is to act, but it
                               is not one of the legal moves

Messages name what the request named (the move) and public facts only, never a tile a
seat holds: they end up in logs and in front of other people.

The API maps each class to one gRPC code and ``ErrorInfo.reason`` (see ``api.errors``).
"""

from __future__ import annotations

__all__ = [
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidStateError",
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


class InvalidStateError(RulesError):
    pass


class MoveError(RulesError):
    pass


class InvalidMoveError(MoveError):
    pass


class GameOverError(MoveError):
    pass


class NotYourTurnError(MoveError):
    pass


class IllegalMoveError(MoveError):
    pass
