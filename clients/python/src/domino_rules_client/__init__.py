"""A typed Python client of the domino rules service.

The REST client needs nothing beyond the standard library::

    from domino_rules_client import DominoRulesClient, DominoRulesError, Reason

    client = DominoRulesClient("http://127.0.0.1:8080", timeout=10)
    game = client.new_game("one_arm_joe", 3, options={"target_score": 40})
    state, version = game["state"], game["version"]
    hint = client.suggest_move(state, level="GREEDY")
    answer = client.apply_move(state, hint["move"], expected_version=version)
    try:  # the new state with the old version: refused, and nothing changes
        client.apply_move(answer["state"], hint["move"], expected_version=version)
    except DominoRulesError as error:
        print(error.code, error.reason, error.http_status)  # ABORTED STALE_STATE 409
        assert error.reason == Reason.STALE_STATE

``DominoRulesGrpcClient`` (``pip install 'domino-rules-client[grpc]'``) has the same
methods over gRPC; it is imported only when first used.

Answers are proto3 JSON dicts, typed in :mod:`domino_rules_client.types`. A legal move
from ``get_legal_moves``, ``get_view`` (``legal_moves``) or ``suggest_move`` is sent
back to ``apply_move`` unchanged. Every refusal raises :class:`DominoRulesError`.

:class:`MatchRecorder` (:mod:`domino_rules_client.records`) writes a match's record as
it is played; ``replay`` checks a record against the match its seed deals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._base import DEFAULT_TIMEOUT, BaseClient
from .errors import GRPC_CODES, DominoRulesError, Reason
from .records import MatchRecorder
from .rest import DominoRulesClient
from .types import (
    ApplyMoveResponse,
    BotLevel,
    Divergence,
    Event,
    GetLegalMovesResponse,
    GetScoreResponse,
    GetViewResponse,
    MatchRecord,
    Move,
    NewGameResponse,
    RecordedMove,
    ReplayResponse,
    ReplayStep,
    RulesetInfo,
    SeatHand,
    Status,
    SuggestMoveResponse,
    Tile,
    Verdict,
    Viewpoint,
)

if TYPE_CHECKING:
    from .grpc_client import DominoRulesGrpcClient

__all__ = [
    "DEFAULT_TIMEOUT",
    "GRPC_CODES",
    "ApplyMoveResponse",
    "BaseClient",
    "BotLevel",
    "Divergence",
    "DominoRulesClient",
    "DominoRulesError",
    "DominoRulesGrpcClient",
    "Event",
    "GetLegalMovesResponse",
    "GetScoreResponse",
    "GetViewResponse",
    "MatchRecord",
    "MatchRecorder",
    "Move",
    "NewGameResponse",
    "Reason",
    "RecordedMove",
    "ReplayResponse",
    "ReplayStep",
    "RulesetInfo",
    "SeatHand",
    "Status",
    "SuggestMoveResponse",
    "Tile",
    "Verdict",
    "Viewpoint",
]

__version__ = "0.2.0"


def __getattr__(name: str) -> Any:
    if name == "DominoRulesGrpcClient":
        try:
            from .grpc_client import DominoRulesGrpcClient
        except ImportError as error:
            raise ImportError(
                f"DominoRulesGrpcClient needs grpcio and protobuf: "
                f"pip install 'domino-rules-client[grpc]' ({error})"
            ) from error
        return DominoRulesGrpcClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
