"""Each game is written once, and the speed machinery lives in the layers built for it.

* A game's package is plain code: it generates no code (``exec``, ``eval``, ``compile``),
  never reaches into an instance dict (``__dict__``) and never writes a field of a frozen
  value (``object.__setattr__``); the kernel's builders (``rules/building.py``) make its
  states.
* Code generation in the whole package happens only in its homes (:data:`CODE_HOMES`).
* A game's bot plays its playouts through the rules (``Ruleset.play_hand``, run by the
  kernel's ``HandPlayouts``): it keeps no move, end of hand or score of its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import domino_rules
from domino_rules import games
from domino_rules.bots.dealing import GameBot
from domino_rules.games.package import GamePackage

PACKAGE = Path(domino_rules.__file__).parent

#: The modules that may generate code: the kernel's builders and the checks and events
#: it compiles once per type, the packing and the codec of states, and the doors' JSON.
CODE_HOMES = frozenset(
    {
        "rules/building.py",
        "rules/checks.py",
        "rules/events.py",
        "state/codec.py",
        "state/packing.py",
        "state/pbjson.py",
    }
)


def _tricks(path: Path) -> list[str]:
    """Each use in ``path`` of code generation or of an instance-dict or frozen-field
    trick, as ``line: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in {"exec", "eval", "compile"}:
                found.append((node.lineno, f"{node.func.id}()"))
        elif isinstance(node, ast.Attribute):
            if node.attr == "__dict__":
                found.append((node.lineno, ".__dict__"))
            elif (
                node.attr == "__setattr__"
                and isinstance(node.value, ast.Name)
                and node.value.id == "object"
            ):
                found.append((node.lineno, "object.__setattr__"))
    return [f"{line}: {what}" for line, what in sorted(found)]


def _code_generation(path: Path) -> list[str]:
    return [t for t in _tricks(path) if t.endswith("()")]


@pytest.mark.parametrize(
    "path",
    sorted((PACKAGE / "games").rglob("*.py")),
    ids=lambda p: str(p.relative_to(PACKAGE / "games")),
)
def test_a_games_package_holds_no_speed_tricks(path: Path) -> None:
    found = _tricks(path)
    assert not found, f"games/{path.relative_to(PACKAGE / 'games')}: {found}"


def test_code_is_generated_only_in_its_homes() -> None:
    generating = {
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "v1" not in path.relative_to(PACKAGE).parts and _code_generation(path)
    }
    assert generating <= CODE_HOMES, sorted(generating - CODE_HOMES)


def test_the_check_finds_each_trick(tmp_path: Path) -> None:
    source = tmp_path / "tricks.py"
    source.write_text(
        "exec('x = 1')\nfields = value.__dict__.copy()\nobject.__setattr__(value, 'a', 1)\n",
        encoding="utf-8",
    )
    assert _tricks(source) == ["1: exec()", "2: .__dict__", "3: object.__setattr__"]


@pytest.mark.parametrize("game", games.all_games(), ids=lambda game: game.id)
def test_a_games_bot_keeps_only_what_the_bot_knows(game: GamePackage) -> None:
    """A game's bot fills in the kernel's GameBot (how to deal a world, the heuristic, the
    search's constants) and adds nothing public of its own: the playouts are the
    kernel's, through the rules."""
    public = {name for name in vars(type(game.bot)) if not name.startswith("_")}
    extra = public - set(dir(GameBot)) - set(GameBot.__annotations__)
    assert not extra, f"{game.id}'s bot has parts the kernel's GameBot does not: {sorted(extra)}"
