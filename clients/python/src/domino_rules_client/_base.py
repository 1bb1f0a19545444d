"""The methods both clients share: each builds a request as proto3 JSON and hands it to
the transport's ``_call``, which answers the response as proto3 JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from .types import (
    ApplyMoveResponse,
    BotLevel,
    GetLegalMovesResponse,
    GetScoreResponse,
    GetViewResponse,
    MatchRecord,
    Move,
    NewGameResponse,
    ReplayResponse,
    RulesetInfo,
    SuggestMoveResponse,
)

__all__ = ["DEFAULT_TIMEOUT", "BaseClient", "wrap_options"]

#: Seconds a call may take, unless the client or the call says otherwise. A STRONG
#: SuggestMove with the largest budget is the slowest call; most take milliseconds.
DEFAULT_TIMEOUT = 30.0

JSON = dict[str, Any]


class BaseClient:
    """The RPCs of the service. Every method takes ``timeout`` (seconds), which
    overrides the client's own for that call."""

    timeout: float

    def _call(self, rpc: str, body: JSON, timeout: float | None) -> JSON:
        raise NotImplementedError

    def _timeout(self, timeout: float | None) -> float:
        return self.timeout if timeout is None else timeout

    # ------------------------------------------------------------------ the RPCs

    def list_rulesets(self, *, timeout: float | None = None) -> list[RulesetInfo]:
        """The catalogue: each ruleset with its player range, typed options and bots."""
        answer = self._call("ListRulesets", {}, timeout)
        return cast(list[RulesetInfo], answer["rulesets"])

    def new_game(
        self,
        ruleset: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: str | None = None,
        *,
        timeout: float | None = None,
    ) -> NewGameResponse:
        """Start a match and deal its first hand.

        ``options`` are the ruleset's own options (``{"target_score": 40}``); the
        wrapped form (``{"one_arm_joe": {"target_score": 40}}``) is accepted too.
        Omitted options take their defaults. ``seed`` (1 to 128 characters) makes the
        match reproducible; omitted, the server draws one.
        """
        body: JSON = {"ruleset": ruleset, "players": players}
        if options:
            body["options"] = wrap_options(ruleset, options)
        if seed is not None:
            body["seed"] = seed
        return cast(NewGameResponse, self._call("NewGame", body, timeout))

    def get_legal_moves(
        self, state: str, seat: int | None = None, *, timeout: float | None = None
    ) -> GetLegalMovesResponse:
        """The seat to act and its legal moves; with ``seat``, only that seat's moves
        (none when another seat is to act)."""
        body = _present(state=state, seat=seat)
        return cast(GetLegalMovesResponse, self._call("GetLegalMoves", body, timeout))

    def apply_move(
        self,
        state: str,
        move: Move,
        expected_version: int | None = None,
        *,
        timeout: float | None = None,
    ) -> ApplyMoveResponse:
        """Apply ``move``: a legal move as the service returned it, sent back unchanged.

        With ``expected_version`` (the ``version`` you last saw), a state of another
        version is refused with ``STALE_STATE``, so that of two racing writers only one
        wins. A refused move changes nothing.
        """
        body = _present(state=state, move=move, expected_version=expected_version)
        return cast(ApplyMoveResponse, self._call("ApplyMove", body, timeout))

    def get_score(self, state: str, *, timeout: float | None = None) -> GetScoreResponse:
        """Hand and match points, per-hand history, winners, settlement; the ``seed``
        once the match is over."""
        return cast(GetScoreResponse, self._call("GetScore", {"state": state}, timeout))

    def get_view(
        self, state: str, seat: int | None = None, *, timeout: float | None = None
    ) -> GetViewResponse:
        """What ``seat`` may see, with its ``legal_moves``; ``None``: a spectator."""
        body = _present(state=state, seat=seat)
        return cast(GetViewResponse, self._call("GetView", body, timeout))

    def suggest_move(
        self,
        state: str,
        seat: int | None = None,
        level: BotLevel | None = None,
        *,
        seed: str | None = None,
        playouts: int | None = None,
        timeout: float | None = None,
    ) -> SuggestMoveResponse:
        """A legal move for the seat to act, chosen by a bot that sees only that
        seat's view: send ``answer["move"]`` to :meth:`apply_move` unchanged.

        ``seat`` must be the seat to act (omitted: the seat to act). ``level``:
        ``"RANDOM"``, ``"GREEDY"`` or ``"STRONG"`` (omitted: ``STRONG``, whose
        ``estimates`` rank every legal move). ``seed`` fixes the bot's randomness;
        ``playouts`` is STRONG's budget (omitted: the ruleset's default).
        """
        body = _present(state=state, seat=seat, level=level, seed=seed, playouts=playouts)
        return cast(SuggestMoveResponse, self._call("SuggestMove", body, timeout))

    def replay(
        self,
        record: MatchRecord | Mapping[str, Any],
        *,
        seat: int | None = None,
        from_step: int = 0,
        to_step: int | None = None,
        timeout: float | None = None,
    ) -> ReplayResponse:
        """Replay a match record (``MatchRecorder.record``, or any record in its JSON
        form) from its seed, or from its first state while the seed is secret, checking
        every step: ``verdict`` ``"VALID"``, or ``"DIVERGED"`` with the first step that
        parts and why (``divergence``).

        ``steps`` are those from ``from_step`` (0: the deal) to ``to_step`` (omitted: the
        last), each with its events, match points and view as ``seat`` sees them (omitted:
        a spectator), and every hand once the record holds the seed; ``next_step`` is set
        when they did not fit one answer. ``state`` is the match after the last move that
        replayed: a token to go on with. A record that cannot be replayed at all (no seed
        and no first state, too large) raises :class:`DominoRulesError` (``BAD_RECORD``,
        ``RECORD_TOO_LARGE``), as does a range of steps not in it (``BAD_STEPS``).
        """
        body = _present(
            record=dict(record), seat=seat, from_step=from_step or None, to_step=to_step
        )
        return cast(ReplayResponse, self._call("Replay", body, timeout))

    # ------------------------------------------------------------------ older names

    def legal_moves(
        self, state: str, seat: int | None = None, *, timeout: float | None = None
    ) -> GetLegalMovesResponse:
        """The same as :meth:`get_legal_moves`."""
        return self.get_legal_moves(state, seat, timeout=timeout)

    def score(self, state: str, *, timeout: float | None = None) -> GetScoreResponse:
        """The same as :meth:`get_score`."""
        return self.get_score(state, timeout=timeout)

    def view(
        self, state: str, seat: int | None = None, *, timeout: float | None = None
    ) -> GetViewResponse:
        """The same as :meth:`get_view`."""
        return self.get_view(state, seat, timeout=timeout)


def wrap_options(ruleset: str, options: Mapping[str, Any]) -> JSON:
    """``options`` as ``NewGame`` takes them, under the ruleset's id: the ruleset's own
    options (``{"target_score": 40}``) are wrapped, already wrapped ones are copied."""
    wrapped = len(options) == 1 and ruleset in options and isinstance(options[ruleset], Mapping)
    return dict(options) if wrapped else {ruleset: dict(options)}


def _present(**fields: Any) -> JSON:
    """The fields that are set: ``None`` leaves an optional field unset."""
    return {name: value for name, value in fields.items() if value is not None}
