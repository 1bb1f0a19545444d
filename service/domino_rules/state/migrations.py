"""Token layouts of other versions: read, and turned into this version's match.

A token only unpacks under the layout that packed it, named by its fingerprint
(:mod:`.packing`). When a release changes the shape of a game's state (a field added to
its hand state, an enum member renamed, ...), its fingerprint changes, and the tokens
of games in play would be refused. ``docs/VERSIONING.md`` says what a release owes them:
a version reads the tokens of the previous minor version, and a rolling update that
mixes the two loses no match. A :class:`Migration` is how: it keeps the other layout's
types (copies of the dataclasses as they were) and a function from a match of that shape
to a match of today's. :func:`.codec.decode_game` passes every payload through :func:`migrate`
before :func:`.packing.unpack`, which knows only today's layouts, and nothing else
changes: the migrated match is packed anew in today's
layout, then unpacked and checked like any other token (in full, unless the service
trusts its sealed tokens), so a migration cannot let through a game the rules refuse.

Both directions of a rolling update are migrations of this one kind:

* **upgrade**: the release that changes a layout keeps the previous layout as a
  migration (old types, and a function that fills the new parts), so the new replicas
  read the old replicas' tokens;
* **read-ahead**: the old replicas must read the new replicas' tokens too, so a layout
  change is announced one minor version early: that version carries the *next* layout as
  a migration into its own (dropping what it cannot use, which the change must allow:
  see the policy). Only then may a release write the new layout.

Migrations are listed in :data:`MIGRATIONS` (a game kept outside the package adds its own
with :func:`register`). A migration is kept for one minor version after the layout it
reads stopped being written, then dropped, with a line in ``CHANGELOG.md``.

This release reads the 0.1.0 layouts unchanged (no state changed shape), so the list is
empty: ``tests/upgrade/`` proves the 0.1.0 tokens and records still play, and
``tests/test_migrations.py`` proves the mechanism with a layout of its own.
"""

from __future__ import annotations

import dataclasses
import functools
import zlib
from collections.abc import Callable
from typing import Any

from ..rules import Match, Ruleset
from ..rules.limits import MAX_EVENTS, MAX_HANDS
from . import packing

__all__ = ["MIGRATIONS", "Migration", "migrate", "register"]


@dataclasses.dataclass(frozen=True)
class Migration:
    """A layout of another version of one ruleset, and how its matches become today's.

    ``options_type`` and ``hand_state_type`` (and, when the match itself changed shape,
    ``match_type``) are the dataclasses as that version had them, field names, order and
    enum members included: they give its fingerprint. ``migrate`` takes a match of those
    types (built with them, ``options`` and ``hand_state`` included) and returns a match
    of today's ruleset. ``release`` names the version whose layout it is (for messages
    and the changelog)."""

    ruleset_id: str
    release: str
    options_type: type
    hand_state_type: type
    migrate: Callable[[Any], Match[Any, Any]]
    match_type: type = Match

    @functools.cached_property
    def fingerprint(self) -> bytes:
        return _fingerprint(
            self.ruleset_id, self.match_type, self.options_type, self.hand_state_type
        )

    @functools.cached_property
    def unpacker(self) -> Callable[..., tuple[Any, int]]:
        """The unpacker of this layout's match (the whole of it, events included)."""
        compiler = packing._Compiler()
        # The counts are bounded by the framework's limits here; the migrated match is
        # then packed and unpacked again under today's layout, with its own bounds.
        compiler.env["HANDS"] = lambda players, options, hand_number: max(
            0, min(hand_number, MAX_HANDS)
        )
        compiler.env["MAX_EVENTS"] = MAX_EVENTS
        bound = {"options": self.options_type, "hand_state": self.hand_state_type}
        limits = {
            "history": "HANDS(f_players, f_options, f_hand_number)",
            "last_events": "MAX_EVENTS",
        }
        unpacker = compiler.build(self.match_type, bound, limits, unread="last_events")[1]
        return unpacker


def _fingerprint(ruleset_id: str, match_type: type, options: type, hand_state: type) -> bytes:
    if match_type is Match:
        return packing._fingerprint_of(ruleset_id, options, hand_state)
    import hashlib

    bound = {"options": options, "hand_state": hand_state}
    seen: set[type] = set()
    text = ",".join(
        f"{n}:{packing._describe(h, seen)}" for n, h in packing._fields(match_type, bound)
    )
    return hashlib.sha256(f"{ruleset_id}\n{text}".encode()).digest()[: packing._FINGERPRINT]


#: The layouts of other versions this version reads. None today: 0.1.0's layouts are
#: this version's own.
MIGRATIONS: list[Migration] = []


def register(migration: Migration) -> None:
    """Read ``migration``'s layout from now on (a game kept outside the package)."""
    MIGRATIONS.append(migration)


def _by_fingerprint() -> dict[bytes, Migration]:
    return {m.fingerprint: m for m in MIGRATIONS}


def _ruleset(ruleset_id: str) -> Ruleset[Any, Any] | None:
    from ..rules import all_rulesets

    return next((r for r in all_rulesets() if r.id == ruleset_id), None)


def migrate(payload: bytes) -> bytes:
    """``payload`` in today's layout when it is of a layout a migration reads; otherwise
    ``payload`` as it is (and :func:`.packing.unpack` refuses it). A payload of a known
    old layout that does not unpack, or whose match does not migrate, is refused with
    :class:`.packing.PackError`."""
    migration = _by_fingerprint().get(payload[: packing._FINGERPRINT])
    if migration is None:
        return payload
    ruleset = _ruleset(migration.ruleset_id)
    if ruleset is None:
        return payload
    flags = payload[packing._FINGERPRINT]
    data = payload[packing._FINGERPRINT + 1 :]
    if flags & ~packing._DEFLATED:
        raise packing.PackError("unknown state flags")
    if flags & packing._DEFLATED:
        inflater = zlib.decompressobj()
        try:
            data = inflater.decompress(data, packing._MAX_INFLATED)
        except zlib.error:
            raise packing.PackError("the state does not inflate") from None
        if inflater.unconsumed_tail or not inflater.eof:
            raise packing.PackError("the state does not inflate within its limits")
    if len(data) < packing._GAME_ID + 1:
        raise packing.PackError("the state is truncated")
    game_id = data[: packing._GAME_ID].hex()
    version, pos = packing._read_uvarint(data, packing._GAME_ID)
    try:
        old, pos = migration.unpacker(data, pos, True)
        if pos != len(data):
            raise packing.PackError("the state has trailing bytes")
        match = migration.migrate(old)
    except packing.PackError:
        raise
    except (ValueError, TypeError, IndexError, AttributeError, RecursionError):
        raise packing.PackError(
            f"the state, of the layout of release {migration.release}, does not migrate"
        ) from None
    return packing.pack(ruleset, match, game_id, version)
