"""Errors of the API and the one table that gives each its code and reason.

Every error a client can cause becomes an :class:`ApiError`: a canonical status code
(``google.rpc.Code``), an ``ErrorInfo.reason`` and a message. Both doors use
:func:`to_status`; HTTP statuses derive from the code (``rest.HTTP_STATUS``), so the
two doors cannot disagree.

Reasons:

================== ===================== ==============================================
reason             code                  when
================== ===================== ==============================================
MALFORMED_REQUEST  INVALID_ARGUMENT      JSON or protobuf that does not parse; a
                                         missing or malformed field
UNKNOWN_RULESET    INVALID_ARGUMENT      no ruleset has that id
BAD_OPTIONS        INVALID_ARGUMENT      unknown option, wrong type, out of range
BAD_PLAYER_COUNT   INVALID_ARGUMENT      the ruleset cannot seat that many
BAD_SEED           INVALID_ARGUMENT      a seed that is empty, too long or has controls
BAD_SEAT           INVALID_ARGUMENT      a seat that is not at this table
BAD_STATE_TOKEN    INVALID_ARGUMENT      a token that is garbled, truncated, tampered,
                                         sealed with an unknown key, or too large
BAD_RECORD         INVALID_ARGUMENT      Replay: a record of another format, with neither
                                         seed nor first state, whose seat does not fit
                                         its viewpoint, or not of a record's shape
RECORD_TOO_LARGE   INVALID_ARGUMENT      Replay: a record over its limits of moves or
                                         events (``records.MAX_MOVES``, ``MAX_EVENTS``)
BAD_STEPS          INVALID_ARGUMENT      Replay: a range of steps not in the record
REQUEST_TOO_LARGE  RESOURCE_EXHAUSTED    a request past the size limit
NOT_YOUR_TURN      FAILED_PRECONDITION   the move's seat is not the seat to act
ILLEGAL_MOVE       FAILED_PRECONDITION   the move is not one of the legal moves
GAME_OVER          FAILED_PRECONDITION   the match is over
STALE_STATE        ABORTED               ``expected_version`` differs from the state's
OVERLOADED         RESOURCE_EXHAUSTED    SuggestMove or Replay: the bots, or the
                                         replays, are busy (a ``RetryInfo`` says when
                                         to try again)
DEADLINE_EXCEEDED  DEADLINE_EXCEEDED     SuggestMove or Replay: the caller's deadline
                                         passed before the search or the replay could
                                         end (a replay says how far it got)
BOT_FAILED         INTERNAL              SuggestMove: the bot could not suggest a move
                                         for the view of a game the rules made (no
                                         world agrees with the view, a search that went
                                         wrong): a bug, reported without details
INTERNAL           INTERNAL              a bug: reported without details
================== ===================== ==============================================

SuggestMove's bot raises a :class:`domino_rules.bots.BotError` of the class of its cause;
:func:`from_bot_error` gives each its reason (:data:`_BOT_ERRORS`): a budget out of range
(``PlayoutsError``) is ``BAD_PLAYOUTS``, an unknown level or another bad argument
(``BotArgumentError``) ``MALFORMED_REQUEST``, a finished match (``MatchOverError``)
``GAME_OVER``, a seat not to act (``NotToActError``) ``NOT_YOUR_TURN``. Every other failure
of the bot (``MismatchError``, ``SearchError``, any other exception) is ``BOT_FAILED``:
the service gives the bot the view of a game the rules made, so it is never the client's
fault. Its message is fixed, for the exception may name tiles no client may see; the
door logs the cause, with its traceback, beside the call's request id.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from .. import bots
from ..rules import errors as rules_errors

__all__ = ["DOMAIN", "ApiError", "from_bot_error", "from_rules_error", "to_status"]

DOMAIN = "domino-rules"

_RULES_ERRORS: tuple[tuple[type[rules_errors.RulesError], int, str], ...] = (
    (rules_errors.UnknownRulesetError, code_pb2.INVALID_ARGUMENT, "UNKNOWN_RULESET"),
    (rules_errors.OptionsError, code_pb2.INVALID_ARGUMENT, "BAD_OPTIONS"),
    (rules_errors.PlayerCountError, code_pb2.INVALID_ARGUMENT, "BAD_PLAYER_COUNT"),
    (rules_errors.GameOverError, code_pb2.FAILED_PRECONDITION, "GAME_OVER"),
    (rules_errors.NotYourTurnError, code_pb2.FAILED_PRECONDITION, "NOT_YOUR_TURN"),
    (rules_errors.IllegalMoveError, code_pb2.FAILED_PRECONDITION, "ILLEGAL_MOVE"),
    (rules_errors.InvalidMoveError, code_pb2.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
    (rules_errors.InvalidStateError, code_pb2.INVALID_ARGUMENT, "BAD_STATE_TOKEN"),
)
#: The bot's errors that a request can cause, most particular first; any other is a bug.
_BOT_ERRORS: tuple[tuple[type[bots.BotError], int, str], ...] = (
    (bots.PlayoutsError, code_pb2.INVALID_ARGUMENT, "BAD_PLAYOUTS"),
    (bots.BotArgumentError, code_pb2.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
    (bots.MatchOverError, code_pb2.FAILED_PRECONDITION, "GAME_OVER"),
    (bots.NotToActError, code_pb2.FAILED_PRECONDITION, "NOT_YOUR_TURN"),
)
#: What a client is told of a bot that failed: nothing of the failure itself.
BOT_FAILED_MESSAGE = (
    "the bot could not suggest a move for this state: a fault of the service, not of the "
    "request (its request id finds the cause in the service's log)"
)


class ApiError(Exception):
    def __init__(
        self, code: int, reason: str, message: str, *, retry_after: float | None = None,
        **metadata: str,
    ) -> None:  # fmt: skip
        """``retry_after``: seconds the caller should wait before it tries again (a
        ``google.rpc.RetryInfo`` detail, and REST's ``Retry-After`` header)."""
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = metadata
        self.retry_after = retry_after

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole: a heavy call's error comes back from the process that ran it."""
        return (_api_error, (self.code, self.reason, self.message, self.retry_after, self.metadata))

    def __repr__(self) -> str:
        return f"ApiError({code_pb2.Code.Name(self.code)}, {self.reason!r}, {self.message!r})"

    @classmethod
    def invalid(cls, reason: str, message: str, **metadata: str) -> ApiError:
        return cls(code_pb2.INVALID_ARGUMENT, reason, message, retry_after=None, **metadata)

    @classmethod
    def malformed(cls, message: str) -> ApiError:
        return cls(code_pb2.INVALID_ARGUMENT, "MALFORMED_REQUEST", message)

    @classmethod
    def internal(cls) -> ApiError:
        return cls(code_pb2.INTERNAL, "INTERNAL", "internal error")


def _api_error(
    code: int, reason: str, message: str, retry_after: float | None, metadata: dict[str, str]
) -> ApiError:
    return ApiError(code, reason, message, retry_after=retry_after, **metadata)


def from_rules_error(error: rules_errors.RulesError) -> ApiError:
    for cls, code, reason in _RULES_ERRORS:
        if isinstance(error, cls):
            return ApiError(code, reason, str(error))
    return ApiError(code_pb2.INVALID_ARGUMENT, "MALFORMED_REQUEST", str(error))


def from_bot_error(error: BaseException) -> ApiError:
    """The answer to a SuggestMove whose bot raised ``error`` (the module docstring)."""
    if isinstance(error, bots.BotError):
        for cls, code, reason in _BOT_ERRORS:
            if isinstance(error, cls):
                return ApiError(code, reason, str(error))
    return ApiError(code_pb2.INTERNAL, "BOT_FAILED", BOT_FAILED_MESSAGE)


def to_status(error: ApiError) -> status_pb2.Status:
    """The ``google.rpc.Status`` of an error, with its ``ErrorInfo`` (and ``RetryInfo``
    when the caller should try again later)."""
    info = error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=error.metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    details = [detail]
    if error.retry_after is not None:
        retry = error_details_pb2.RetryInfo()
        retry.retry_delay.FromNanoseconds(round(error.retry_after * 1e9))
        details.append(any_pb2.Any())
        details[-1].Pack(retry)
    return status_pb2.Status(code=error.code, message=error.message, details=details)
