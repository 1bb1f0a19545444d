"""Settings from flags and the environment, with embedded defaults.

============================= ================ ===========================================
variable                      default          meaning
============================= ================ ===========================================
DOMINO_RULES_HOST             127.0.0.1        the address both doors bind
DOMINO_RULES_GRPC_PORT        50051            gRPC port (0 = pick a free one)
DOMINO_RULES_HTTP_PORT        8080             REST port (0 = pick a free one)
DOMINO_RULES_HTTP_WORKERS     2                gunicorn worker processes
DOMINO_RULES_SEAL_KEYS        (none)           ``id2:BASE64KEY,id1:BASE64KEY``: first seals
DOMINO_RULES_REQUIRE_SEALED   0                1 = refuse unsealed tokens
============================= ================ ===========================================
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from .api import RulesService
from .tokens import KeyRing, TokenCodec

__all__ = ["Settings"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"", "0", "false", "no", "off"}


def _flag(name: str, text: str) -> bool:
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name} must be 1 or 0, not {text!r}")


def _port(name: str, text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise ValueError(f"{name} must be a port number, not {text!r}") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"{name} must be from 0 to 65535, not {port}")
    return port


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    grpc_port: int = 50051
    http_port: int = 8080
    http_workers: int = 2
    seal_keys: str = ""
    require_sealed: bool = False

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``env`` (default ``os.environ``); ``ValueError`` says what is wrong."""
        env = os.environ if env is None else env
        settings = cls(
            host=env.get("DOMINO_RULES_HOST", cls.host),
            grpc_port=_port(
                "DOMINO_RULES_GRPC_PORT", env.get("DOMINO_RULES_GRPC_PORT", str(cls.grpc_port))
            ),
            http_port=_port(
                "DOMINO_RULES_HTTP_PORT", env.get("DOMINO_RULES_HTTP_PORT", str(cls.http_port))
            ),
            http_workers=int(env.get("DOMINO_RULES_HTTP_WORKERS", str(cls.http_workers))),
            seal_keys=env.get("DOMINO_RULES_SEAL_KEYS", ""),
            require_sealed=_flag(
                "DOMINO_RULES_REQUIRE_SEALED", env.get("DOMINO_RULES_REQUIRE_SEALED", "0")
            ),
        )
        settings.tokens()  # fail now, with a clear message, on a bad key setting
        return settings

    def tokens(self) -> TokenCodec:
        try:
            keys = KeyRing.parse(self.seal_keys) if self.seal_keys.strip() else None
        except ValueError as exc:
            raise ValueError(f"DOMINO_RULES_SEAL_KEYS: {exc}") from None
        return TokenCodec(keys, require_sealed=self.require_sealed)

    def service(self) -> RulesService:
        return RulesService(self.tokens())
