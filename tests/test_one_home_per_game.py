"""One home per game: a game is one package, and nothing else switches on which games
there are.

* Outside ``proto/`` and ``tests/``, one file names more than one ruleset id: the list of
  installed games (``domino_rules/games/__init__.py``). Exempt are the files made from
  the contract (the generated code and schemas, and the Python client's typed mirror of
  the messages) and the documentation, which describes the catalogue.
* The playground names no ruleset at all: it draws every game from ``ListRulesets``.
* Each installed game declares the section of ``docs/rules.md`` that documents it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from domino_rules import games
from domino_rules.games.package import GamePackage

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "service" / "domino_rules"
#: Made from the contract (``make proto``, ``npm run generate``, the client's updater), or
#: a typed mirror of its messages: they follow the proto, which names every game.
FROM_THE_CONTRACT = {
    "service/domino_rules/v1/domino_rules_pb2.py",
    "service/domino_rules/v1/domino_rules_pb2.pyi",
    "service/domino_rules/web/openapi/openapi.json",
    "service/domino_rules/web/openapi/match-record.schema.json",
    "clients/typescript/src/schema.ts",
    "clients/typescript/proto/domino_rules/v1/domino_rules.proto",
    "clients/python/src/domino_rules_client/contract.binpb",
    "clients/python/src/domino_rules_client/types.py",
}
#: The rulebook's page, rendered from docs/rules.md (docs/rules_page.py).
RULEBOOK = "service/domino_rules/web/rulebook/rules.html"
#: The one file that names every installed game.
THE_LIST = "service/domino_rules/games/__init__.py"
IDS = sorted(game.id for game in games.all_games())


def _tracked() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
    )
    return [name for name in out.stdout.decode().split("\0") if name]


def _ids_named(text: str) -> set[str]:
    """The ids ``text`` names as code names an id: quoted, or as a module or attribute
    (``"tiu_u"``, ``games.tiu_u``, ``view.tiu_u``); an id that is also a word (``block``)
    counts only so."""
    named = set()
    for i in IDS:
        pattern = rf"(?<![A-Za-z0-9_-])(?:(?<=[\"'`.]){i}|{i}(?=[\"'`]))(?![A-Za-z0-9_-])"
        if re.search(pattern, text):
            named.add(i)
    return named


def test_at_most_one_file_outside_the_contract_and_the_tests_names_several_games() -> None:
    several = {}
    for name in _tracked():
        if name.startswith(("proto/", "tests/")) or name in FROM_THE_CONTRACT:
            continue
        if name.endswith(".md") or name == RULEBOOK:
            continue  # documentation describes the catalogue
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        named = _ids_named(text)
        if len(named) > 1:
            several[name] = sorted(named)
    assert list(several) == [THE_LIST], several


def test_the_playground_names_no_ruleset() -> None:
    for path in sorted((PACKAGE / "web" / "play").iterdir()):
        named = _ids_named(path.read_text(encoding="utf-8")) if path.suffix != ".svg" else set()
        assert not named, f"{path.name} names {sorted(named)}: draw from ListRulesets"


def test_the_check_sees_a_name_and_not_a_word() -> None:
    name = IDS[0]
    assert _ids_named(f'x = "{name}"') == {name}
    assert _ids_named(f"view.{name}.line") == {name}
    assert _ids_named(f"{name}_options {name}x the {name} inline-{name};") == set()


@pytest.mark.parametrize("game", games.all_games(), ids=lambda g: g.id)
def test_each_game_has_its_section_in_the_rulebook(game: GamePackage) -> None:
    headings = re.findall(r"^## (.+)$", (ROOT / "docs" / "rules.md").read_text(), re.M)
    assert game.docs_section in headings
    assert game.ruleset.name in game.docs_section
