"""The games: one package each, and the catalogue that every other part reads.

A game is a package whose module holds ``GAME``, a
:class:`~domino_rules.games.package.GamePackage` (its rules, its bot, how the playground
draws it, what the benchmarks play). The service plays the games of :data:`INSTALLED`
(this is the one place that names them all) and those that the environment variable
``DOMINO_RULES_GAMES`` adds: module names separated by commas, for a game kept outside
this package (each process of the service reads it, the bots' worker processes
included, so a game installed that way is everywhere at once).

This is the one registry of the package. Every other part reads it: the layers above
import it; the kernel's :func:`domino_rules.rules.get` (with ``all_rulesets`` and
``most_players``) re-exports it for library users, reading it when first called; and the
bots' kernel finds each ruleset's bot through the lookup this module hands it
(:func:`~domino_rules.bots.worlds.use_catalogue`).

Importing this package installs every game; a package that lacks a part, or whose
parts do not fit together, fails the import with a
:class:`~domino_rules.games.package.PackageError` that names the game and the part,
never at the first request. The layer that knows the contract checks every installed
game against it when it is imported (:func:`domino_rules.state.codec.check_contract`).

>>> from domino_rules import games
>>> games.get("one_arm_joe").ruleset.name
'One Arm Joe'
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from ..bots.dealing import GameBot
from ..bots.worlds import use_catalogue
from ..rules.errors import OptionsError, UnknownRulesetError
from ..rules.ruleset import Ruleset
from .package import GamePackage, PackageError

__all__ = [
    "ENVIRONMENT",
    "INSTALLED",
    "all_games",
    "all_rulesets",
    "get",
    "install",
    "most_players",
]

#: The games this service plays, by module.
INSTALLED = (
    "domino_rules.games.one_arm_joe",
    "domino_rules.games.tsair_deng",
    "domino_rules.games.tiu_u",
    "domino_rules.games.throw_up",
    "domino_rules.games.block",
    "domino_rules.games.dancing_dragons",
    "domino_rules.games.all_fives",
    "domino_rules.games.mexican_train",
    "domino_rules.games.chicken_foot",
)
#: The environment variable that installs more games (module names, comma-separated).
ENVIRONMENT = "DOMINO_RULES_GAMES"

_GAMES: dict[str, GamePackage] = {}
_MODULES: dict[str, str] = {}
#: :func:`most_players`, once worked out (``None`` after each install).
_most: int | None = None


def install(module_name: str) -> GamePackage:
    """Install the game of ``module_name`` (its ``GAME``) and return it; installing the
    same module again returns the game installed. Raises :class:`PackageError` for a
    module with no ``GAME``, a package whose parts do not fit, or an id already taken."""
    known = _MODULES.get(module_name)
    if known is not None:
        return _GAMES[known]
    module = importlib.import_module(module_name)
    game = getattr(module, "GAME", None)
    if not isinstance(game, GamePackage):
        raise PackageError(f"{module_name} has no GAME: a game package declares a GamePackage")
    global _most
    game.check()
    if game.id in _GAMES:
        raise PackageError(f"{module_name}: ruleset id {game.id!r} is taken")
    _GAMES[game.id] = game
    _MODULES[module_name] = game.id
    _most = None
    return game


def get(ruleset_id: str) -> GamePackage:
    """The game of ``ruleset_id``; :class:`UnknownRulesetError` for an id no game has."""
    try:
        return _GAMES[ruleset_id]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(_GAMES))}"
        ) from None


def all_games() -> tuple[GamePackage, ...]:
    """Every game installed, by id."""
    return tuple(_GAMES[k] for k in sorted(_GAMES))


def all_rulesets() -> tuple[Ruleset[Any, Any], ...]:
    """The ruleset of every game installed, by id."""
    return tuple(_GAMES[k].ruleset for k in sorted(_GAMES))


def most_players() -> int:
    """The most players any installed ruleset seats, with any of its options: no seat of
    any table is this or more."""
    global _most
    if _most is None:
        _most = max((_most_players(g.ruleset) for g in _GAMES.values()), default=0)
    return _most


def _most_players(ruleset: Ruleset[Any, Any]) -> int:
    """The most players ``ruleset`` seats, with any of its options (an int option of a
    narrow range is tried at every value its ruleset takes: a set of 9, 12 or 15 pips
    refuses the values between)."""
    most = ruleset.player_range(ruleset.make_options({}))[1]
    for spec in ruleset.option_specs():
        low, high = spec.minimum, spec.maximum
        if spec.type == "int" and low is not None and high is not None and high - low < 64:
            for value in range(low, high + 1):
                try:
                    options = ruleset.make_options({spec.name: value})
                except OptionsError:
                    continue
                most = max(most, ruleset.player_range(options)[1])
    return int(most)


def _bot_of(ruleset_id: str) -> GameBot | None:
    """The bot of the game installed as ``ruleset_id``: what the bots' kernel reads."""
    game = _GAMES.get(ruleset_id)
    return game.bot if game is not None else None


def _installed() -> list[str]:
    extra = os.environ.get(ENVIRONMENT, "")
    return [*INSTALLED, *(name.strip() for name in extra.split(",") if name.strip())]


use_catalogue(_bot_of)
for _name in _installed():
    install(_name)
