"""The client of the REST door, standard library only (``urllib``, ``json``)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

from ._base import DEFAULT_TIMEOUT, BaseClient
from .errors import DominoRulesError

__all__ = ["ROUTES", "DominoRulesClient"]

#: Each RPC's REST route: (method, path).
ROUTES: dict[str, tuple[str, str]] = {
    "ListRulesets": ("GET", "/v1/rulesets"),
    "NewGame": ("POST", "/v1/games"),
    "GetLegalMoves": ("POST", "/v1/games:legalMoves"),
    "ApplyMove": ("POST", "/v1/games:applyMove"),
    "GetScore": ("POST", "/v1/games:score"),
    "GetView": ("POST", "/v1/games:view"),
    "SuggestMove": ("POST", "/v1/games:suggestMove"),
    "Replay": ("POST", "/v1/records:replay"),
}


class DominoRulesClient(BaseClient):
    """The REST door of the service at ``base_url`` (``http://127.0.0.1:8080``; a path
    prefix such as ``https://host/rules`` works too).

    ``timeout``: seconds for each call (connecting, sending and each wait for the
    answer), unless the call gives its own. ``headers`` go with every request (an
    ``Authorization`` for a proxy in front, say). A call that times out raises
    :class:`DominoRulesError` with ``code`` ``"DEADLINE_EXCEEDED"``; a service that
    cannot be reached, ``"UNAVAILABLE"``.
    """

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8080",
        *,
        timeout: float = DEFAULT_TIMEOUT,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.headers = dict(headers or {})

    def __repr__(self) -> str:
        return f"DominoRulesClient({self.base_url!r})"

    def healthy(self, *, timeout: float | None = None) -> bool:
        """True when ``GET /healthz`` answers ``SERVING``."""
        try:
            answer = self.request("GET", "/healthz", timeout=timeout)
        except DominoRulesError:
            return False
        return answer.get("status") == "SERVING"

    def _call(self, rpc: str, body: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        verb, path = ROUTES[rpc]
        return self.request(verb, path, body if verb == "POST" else None, timeout=timeout)

    def request(
        self,
        verb: str,
        path: str,
        body: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """One request to ``path`` with a JSON body; the JSON object answered.

        The methods of the RPCs call this; it is public for paths they do not cover.
        """
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        headers = {"Accept": "application/json", **self.headers}
        if data is not None:
            headers["Content-Type"] = "application/json"
        url = self.base_url + path
        request = urllib.request.Request(url, data=data, method=verb, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self._timeout(timeout)) as response:
                raw = response.read()
                status = response.status
                request_id = response.headers.get("x-request-id")
        except urllib.error.HTTPError as error:
            with error:
                raise DominoRulesError.from_body(
                    error.code,
                    error.read(),
                    request_id=error.headers.get("x-request-id"),
                    retry_after=_retry_after(error.headers.get("retry-after")),
                ) from None
        except TimeoutError:
            raise _timed_out(url, timeout, self.timeout) from None
        except urllib.error.URLError as error:
            if isinstance(error.reason, TimeoutError):
                raise _timed_out(url, timeout, self.timeout) from None
            raise DominoRulesError("UNAVAILABLE", "", f"{url}: {error.reason}") from None
        except OSError as error:  # the connection broke while the answer was read
            raise DominoRulesError("UNAVAILABLE", "", f"{url}: {error}") from None
        try:
            answer = json.loads(raw.decode("utf-8")) if raw else {}
        except (UnicodeDecodeError, ValueError):
            answer = None
        if not isinstance(answer, dict):
            raise DominoRulesError(
                "UNKNOWN",
                "",
                f"the answer to {verb} {path} is not a JSON object",
                status,
                request_id=request_id,
            )
        return answer


def _timed_out(url: str, timeout: float | None, default: float) -> DominoRulesError:
    seconds = default if timeout is None else timeout
    return DominoRulesError("DEADLINE_EXCEEDED", "", f"{url}: no answer within {seconds} s")


def _retry_after(value: str | None) -> float | None:
    """A ``Retry-After`` header in seconds (its date form is not used by the service)."""
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
