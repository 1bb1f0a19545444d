"""The games: one package each, and the catalogue that every other part reads.

A game is a package whose module holds ``GAME``, a
:class:`~domino_rules.games.package.GamePackage` (its rules, its bot, how the playground
draws it, what the benchmarks play). The service plays the games of :data:`INSTALLED`
(this is the one place that names them all) and those that the environment variable
``DOMINO_RULES_GAMES`` adds: module names separated by commas, for a game kept outside
this package (each process of the service reads it, the bots' worker processes
included, so a game installed that way is everywhere at once).

Importing this package installs every game; a package that lacks a part, or whose
parts do not fit together (or do not fit the contract, see :func:`add_check`), fails
the import with a :class:`~domino_rules.games.package.PackageError` that names the game
and the part, never at the first request.

>>> from domino_rules import games
>>> games.get("one_arm_joe").ruleset.name
'One Arm Joe'
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable

from ..bots.worlds import register_bot
from ..rules import registry
from ..rules.errors import UnknownRulesetError
from .package import GamePackage, PackageError

__all__ = [
    "ENVIRONMENT",
    "INSTALLED",
    "add_check",
    "all_games",
    "get",
    "install",
]

#: The games this service plays, by module.
INSTALLED = (
    "domino_rules.games.one_arm_joe",
    "domino_rules.games.tsair_deng",
    "domino_rules.games.tiu_u",
    "domino_rules.games.throw_up",
    "domino_rules.games.block",
    "domino_rules.games.dancing_dragons",
)
#: The environment variable that installs more games (module names, comma-separated).
ENVIRONMENT = "DOMINO_RULES_GAMES"

_GAMES: dict[str, GamePackage] = {}
_MODULES: dict[str, str] = {}
_CHECKS: list[Callable[[GamePackage], None]] = []


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
    game.check()
    if game.id in _GAMES:
        raise PackageError(f"{module_name}: ruleset id {game.id!r} is taken")
    for check in _CHECKS:
        check(game)
    registry.register(game.ruleset)
    register_bot(game.bot)
    _GAMES[game.id] = game
    _MODULES[module_name] = game.id
    return game


def add_check(check: Callable[[GamePackage], None]) -> None:
    """Run ``check`` on every game installed, now and from now on: a layer above (the
    codec, which knows the contract) refuses a game that lacks a part of its own."""
    _CHECKS.append(check)
    for game in list(_GAMES.values()):
        check(game)


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


def _installed() -> list[str]:
    extra = os.environ.get(ENVIRONMENT, "")
    return [*INSTALLED, *(name.strip() for name in extra.split(",") if name.strip())]


for _name in _installed():
    install(_name)
