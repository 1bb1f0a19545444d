"""State tokens: the whole game, as opaque bytes the caller keeps and sends back.

Layout (all tokens)::

    byte 0        format version (2; format 1 is refused, see below)
    byte 1        n, the length of the key id; 0 = unsealed
    bytes 2..2+n  key id (ASCII)
    rest          unsealed: payload ‖ first 8 bytes of SHA-256(header ‖ payload)
                  sealed:   nonce (12 bytes) ‖ AES-256-GCM(payload), header as associated data

The payload is the packed private state (:mod:`domino_rules.state.packing`). Format 1 tokens
(a protobuf value tree, before the packed layout) are refused with a message that names
the format, so a client knows to start a new game rather than retry.

An unsealed token's checksum catches garbled or truncated tokens, but anyone can read
or forge it; a sealed token can be neither read nor changed without the key. Keys come
as a ring: the first key seals, every key opens, so keys rotate without breaking games
in flight.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import re
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = ["FORMAT_VERSION", "RETIRED_FORMATS", "KeyRing", "TokenCodec", "TokenError"]

FORMAT_VERSION = 2
#: Formats this service once wrote and no longer reads.
RETIRED_FORMATS = frozenset({1})
_CHECK = 8
_NONCE = 12
_TAG = 16
_KEY_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class TokenError(ValueError):
    """The token cannot be opened; the message says why."""


@dataclass(frozen=True)
class KeyRing:
    """Sealing keys, newest first: ``keys[0]`` seals, all open."""

    keys: tuple[tuple[str, bytes], ...]

    @classmethod
    def parse(cls, text: str) -> KeyRing:
        """Parse ``"id2:BASE64KEY,id1:BASE64KEY"``; ``ValueError`` says what is wrong."""
        keys: list[tuple[str, bytes]] = []
        for n, item in enumerate((p.strip() for p in text.split(",")), start=1):
            if not item:
                raise ValueError(f"key {n} is empty (expected ID:BASE64KEY)")
            key_id, sep, encoded = item.partition(":")
            if not sep:
                raise ValueError(f"key {n} has no ':' (expected ID:BASE64KEY)")
            if not _KEY_ID.match(key_id):
                raise ValueError(
                    f"key {n}: id {key_id!r} must be 1-64 letters, digits, '.', '_' or '-'"
                )
            try:
                key = base64.b64decode(encoded, validate=True)
            except binascii.Error:
                raise ValueError(f"key {key_id!r} is not valid base64") from None
            if len(key) != 32:
                raise ValueError(f"key {key_id!r} is {len(key)} bytes; AES-256 needs 32")
            if any(key_id == k for k, _ in keys):
                raise ValueError(f"key id {key_id!r} appears twice")
            keys.append((key_id, key))
        return cls(tuple(keys))

    @staticmethod
    def generate(key_id: str) -> str:
        """A new ``ID:BASE64KEY`` entry; ``ValueError`` for an id :meth:`parse` would
        refuse."""
        if not _KEY_ID.match(key_id):
            raise ValueError(f"id {key_id[:80]!r} must be 1-64 letters, digits, '.', '_' or '-'")
        return f"{key_id}:{base64.b64encode(os.urandom(32)).decode()}"


class TokenCodec:
    """Seals and opens tokens. Without a key ring, tokens are unsealed."""

    def __init__(
        self,
        keys: KeyRing | None = None,
        *,
        require_sealed: bool = False,
        max_token_bytes: int = 64 * 1024,
    ) -> None:
        if require_sealed and not (keys and keys.keys):
            raise ValueError("sealed tokens are required, but no sealing key is configured")
        self._keys = dict(keys.keys) if keys else {}
        self._sealer = keys.keys[0] if keys and keys.keys else None
        self._aead = {key_id: AESGCM(key) for key_id, key in self._keys.items()}
        self.require_sealed = require_sealed
        self.max_token_bytes = max_token_bytes

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its keys and settings (for the processes a serving process hands
        heavy calls to: its own children, over a pipe)."""
        keys = KeyRing(tuple(self._keys.items())) if self._keys else None
        return (_codec, (keys, self.require_sealed, self.max_token_bytes))

    @property
    def sealed(self) -> bool:
        return self._sealer is not None

    def seal(self, payload: bytes) -> bytes:
        if self._sealer is None:
            header = bytes((FORMAT_VERSION, 0))
            return header + payload + hashlib.sha256(header + payload).digest()[:_CHECK]
        key_id = self._sealer[0].encode()
        header = bytes((FORMAT_VERSION, len(key_id))) + key_id
        nonce = os.urandom(_NONCE)
        return header + nonce + self._aead[self._sealer[0]].encrypt(nonce, payload, header)

    def open(self, token: bytes) -> bytes:
        """The payload of ``token``; :class:`TokenError` says why it cannot be opened."""
        return self.open_sealed(token)[0]

    def open_sealed(self, token: bytes) -> tuple[bytes, bool]:
        """The payload of ``token``, and whether it was sealed with one of this service's
        keys (authenticated: only a holder of the key could have made it)."""
        if not token:
            raise TokenError("the state token is empty")
        if len(token) > self.max_token_bytes:
            raise TokenError(
                f"the state token is {len(token)} bytes; the limit is {self.max_token_bytes}"
            )
        if len(token) < 2:
            raise TokenError("the state token is truncated (no header)")
        if token[0] in RETIRED_FORMATS:
            raise TokenError(
                f"the state token is of format {token[0]}, which this service no longer reads "
                f"(it reads format {FORMAT_VERSION}): start a new game"
            )
        if token[0] != FORMAT_VERSION:
            raise TokenError(
                f"unknown state token format {token[0]} (this service reads {FORMAT_VERSION})"
            )
        n = token[1]
        if len(token) < 2 + n:
            raise TokenError("the state token is truncated (in its key id)")
        header, body = token[: 2 + n], token[2 + n :]
        if n == 0:
            if self.require_sealed:
                raise TokenError(
                    "unsealed state tokens are refused: this service requires sealed tokens"
                )
            if len(body) < _CHECK:
                raise TokenError("the state token is truncated")
            payload, check = body[:-_CHECK], body[-_CHECK:]
            if not hmac.compare_digest(hashlib.sha256(header + payload).digest()[:_CHECK], check):
                raise TokenError("the state token is garbled or truncated (checksum mismatch)")
            return payload, False
        key_id = header[2:].decode("ascii", errors="replace")
        aead = self._aead.get(key_id)
        if aead is None:
            if not self._aead:
                raise TokenError(
                    f"the state token is sealed (key {key_id!r}), and this service has no keys"
                )
            raise TokenError(f"the state token is sealed with unknown key {key_id!r}")
        if len(body) < _NONCE + _TAG:
            raise TokenError("the state token is truncated")
        try:
            return aead.decrypt(body[:_NONCE], body[_NONCE:], header), True
        except InvalidTag:
            raise TokenError(
                "the state token was tampered with or truncated (it does not authenticate)"
            ) from None


def _codec(keys: KeyRing | None, require_sealed: bool, max_token_bytes: int) -> TokenCodec:
    return TokenCodec(keys, require_sealed=require_sealed, max_token_bytes=max_token_bytes)
