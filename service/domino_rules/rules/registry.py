"""The kernel's re-export of the catalogue: :func:`get`, :func:`all_rulesets` and
:func:`most_players`, for library users (``from domino_rules import rules``).

The catalogue is :mod:`domino_rules.games`, the one list of installed games; this module
keeps no list of its own. It reads the catalogue when one of its functions is first
called, not when it is imported, so that importing the kernel imports no game (this is
the one import of the package that reaches a layer above its own,
``tests/test_boundaries.py``).

>>> from domino_rules.rules import registry
>>> registry.get("one_arm_joe").name
'One Arm Joe'
"""

from __future__ import annotations

from typing import Any

from .ruleset import Ruleset

__all__ = ["all_rulesets", "get", "most_players"]


def get(ruleset_id: str) -> Ruleset[Any, Any]:
    """The ruleset of ``ruleset_id``; :class:`~.errors.UnknownRulesetError` for an id no
    installed game has."""
    from .. import games  # the catalogue, once its kernel is loaded (see above)

    return games.get(ruleset_id).ruleset


def all_rulesets() -> tuple[Ruleset[Any, Any], ...]:
    """The ruleset of every installed game, by id."""
    from .. import games

    return games.all_rulesets()


def most_players() -> int:
    """The most players any installed ruleset seats, with any of its options: no seat of
    any table is this or more."""
    from .. import games

    return games.most_players()
