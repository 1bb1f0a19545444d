"""The catalogue of rulesets, by id. Each ruleset module ends with ``register(...)``."""

from __future__ import annotations

from typing import Any

from .errors import UnknownRulesetError
from .ruleset import Ruleset

__all__ = ["all_rulesets", "get", "most_players", "register"]

_RULESETS: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset: Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    known = _RULESETS.get(ruleset.id)
    if known is not None and type(known).__qualname__ != type(ruleset).__qualname__:
        raise ValueError(f"ruleset id {ruleset.id!r} is taken by {type(known).__qualname__}")
    if known is not None:
        return known  # the same module imported a second time (doctest collection)
    _RULESETS[ruleset.id] = ruleset
    return ruleset


def get(ruleset_id: str) -> Ruleset[Any, Any]:
    try:
        return _RULESETS[ruleset_id]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(_RULESETS))}"
        ) from None


def all_rulesets() -> tuple[Ruleset[Any, Any], ...]:
    return tuple(_RULESETS[k] for k in sorted(_RULESETS))


def most_players() -> int:
    """The most players any ruleset seats, with any of its options: no seat of any table
    is this or more."""
    rulesets = all_rulesets()
    if rulesets not in _MOST:
        _MOST.clear()
        _MOST[rulesets] = max((_most_players(r) for r in rulesets), default=0)
    return _MOST[rulesets]


_MOST: dict[tuple[Ruleset[Any, Any], ...], int] = {}


def _most_players(ruleset: Ruleset[Any, Any]) -> int:
    """The most players ``ruleset`` seats, with any of its options (an int option of a
    narrow range is tried at every value)."""
    most = ruleset.player_range(ruleset.make_options({}))[1]
    for spec in ruleset.option_specs():
        low, high = spec.minimum, spec.maximum
        if spec.type == "int" and low is not None and high is not None and high - low < 64:
            for value in range(low, high + 1):
                options = ruleset.make_options({spec.name: value})
                most = max(most, ruleset.player_range(options)[1])
    return int(most)
