"""The design's boundaries, checked: the rules core is pure, public surfaces are declared.

* ``domino_rules.rules`` imports nothing that speaks a wire format, serves, or does I/O
  (no protobuf, grpc, flask, sockets, files, processes, clocks or OS randomness), so it
  can be tested, fuzzed and benchmarked on its own; so do each game's rules; the bots
  and each game's bot add only their own generator; nothing outside a game package
  imports it (everything reads the catalogue).
* Only ``codec`` and the API's servicer and replay know both the rules core and the
  generated messages; the transports reach the rules through the API; the match
  records' forms know only the messages.
* The package's imports (at module level or in a function) have no cycle, and no module
  imports a layer above its own (the layers of ``docs/ARCHITECTURE.md``, which
  :data:`LAYERS` lists in the same order); a game package imports the kernels, never
  another game nor the catalogue; nothing else imports a game. Importing the kernels
  imports no game.
* Every public module lists its public names in ``__all__``, and every name listed exists.
"""

from __future__ import annotations

import ast
import functools
import importlib
import itertools
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import domino_rules

PACKAGE = Path(domino_rules.__file__).parent
RULES = PACKAGE / "rules"
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "ARCHITECTURE.md"

#: What the rules core may import: the pure part of the standard library.
RULES_MAY_IMPORT = frozenset(
    {
        "__future__",
        "abc",
        "bisect",
        "collections",
        "contextlib",
        "dataclasses",
        "enum",
        "functools",
        "hashlib",
        "itertools",
        "math",
        "operator",
        "re",
        "typing",
    }
)


#: What the bots may import besides the rules core and their own kernel: the pure
#: standard library and their own generator.
BOTS_MAY_IMPORT = RULES_MAY_IMPORT | {"random", "statistics", "struct"}
#: Libraries that speak a wire format, serve, or do I/O.
WIRE_OR_SERVER = {"google", "grpc", "flask", "werkzeug", "socket", "subprocess", "cryptography"}


def _module_of(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(level, absolute-or-relative module name)`` of every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((0, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def _absolute_imports(path: Path) -> set[str]:
    """Every module ``path`` (a module of the package) imports, by absolute name; for
    ``from X import a``, both ``X`` and ``X.a`` (``a`` may be a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = _module_of(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            if node.module or not node.level:
                found.add(module)  # (``from .. import x`` imports only ``x``)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _outside(imports: set[str], allowed_stdlib: frozenset[str], *inside: str) -> list[str]:
    """The imports that are neither in ``allowed_stdlib`` nor in one of the ``inside``
    packages of domino_rules (a name imported from an allowed module is allowed)."""
    bad = []
    for name in sorted(imports):
        top = name.split(".")[0]
        if top != "domino_rules":
            if top not in allowed_stdlib:
                bad.append(name)
            continue
        if not any(name == p or name.startswith(p + ".") for p in inside):
            parent = name.rsplit(".", 1)[0]
            if not any(parent == p or parent.startswith(p + ".") for p in inside):
                bad.append(name)
    return bad


def _rules_modules() -> list[Path]:
    return sorted(p for p in RULES.rglob("*.py") if p.name != "__init__.py")


def _games() -> list[Path]:
    return sorted(p for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").exists())


@pytest.mark.parametrize("path", _rules_modules(), ids=lambda p: p.name)
def test_the_rules_core_imports_only_the_pure_standard_library(path: Path) -> None:
    # (the kernel's re-export of the catalogue reads it, once called: see UPWARD)
    reexport = [up for (module, up) in UPWARD if module == _module_of(path)]
    bad = _outside(_absolute_imports(path), RULES_MAY_IMPORT, "domino_rules.rules", *reexport)
    assert not bad, f"{path.name} imports {bad}: not allowed in the rules core"


def test_the_rules_package_imports_only_its_kernel() -> None:
    bad = _outside(_absolute_imports(RULES / "__init__.py"), RULES_MAY_IMPORT, "domino_rules.rules")
    assert not bad, f"rules/__init__.py imports {bad}"


@pytest.mark.parametrize("path", sorted((PACKAGE / "bots").glob("*.py")), ids=lambda p: p.name)
def test_the_bots_import_only_the_rules_core_and_the_pure_standard_library(path: Path) -> None:
    imports = _absolute_imports(path)
    bad = _outside(imports, BOTS_MAY_IMPORT, "domino_rules.rules", "domino_rules.bots")
    assert not bad, f"bots/{path.name} imports {bad}"


@pytest.mark.parametrize("game", _games(), ids=lambda p: p.name)
def test_a_games_rules_import_only_the_rules_core(game: Path) -> None:
    bad = _outside(_absolute_imports(game / "rules.py"), RULES_MAY_IMPORT, "domino_rules.rules")
    assert not bad, f"games/{game.name}/rules.py imports {bad}"


@pytest.mark.parametrize("game", _games(), ids=lambda p: p.name)
def test_a_games_bot_imports_only_its_rules_and_the_two_kernels(game: Path) -> None:
    own = f"domino_rules.games.{game.name}.rules"
    imports = _absolute_imports(game / "bot.py")
    bad = _outside(imports, BOTS_MAY_IMPORT, "domino_rules.rules", "domino_rules.bots", own)
    assert not bad, f"games/{game.name}/bot.py imports {bad}"


def test_the_boundary_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import socket\nfrom google.protobuf import message\nfrom .. import codec\n")
    names = _imports(bad)
    assert (0, "socket") in names and (0, "google.protobuf") in names and (2, "") in names
    assert not {n.split(".")[0] for level, n in names if level == 0} <= RULES_MAY_IMPORT
    assert _outside({"socket", "domino_rules.state.codec"}, RULES_MAY_IMPORT, "domino_rules.rules")
    assert not _outside({"domino_rules.rules.tiles.Tile"}, frozenset(), "domino_rules.rules")


def test_nothing_outside_a_game_package_imports_it() -> None:
    """Every other part reads the catalogue (:mod:`domino_rules.games`): a game package is
    installed by name, never imported by the service."""
    games = {f"domino_rules.games.{g.name}" for g in _games()}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_of(path)
        if any(module == g or module.startswith(g + ".") for g in games):
            continue
        imports = _absolute_imports(path)
        reached = sorted(i for i in imports for g in games if i == g or i.startswith(g + "."))
        assert not reached, (
            f"{path.relative_to(PACKAGE)} imports {reached}: read domino_rules.games"
        )


def test_importing_the_rules_core_loads_no_wire_or_server_library() -> None:
    code = (
        "import sys, domino_rules.rules as r; r.all_rulesets();"
        "bad = [m for m in sys.modules if m.split('.')[0] in"
        f" {sorted(WIRE_OR_SERVER)!r}];"
        "print(','.join(sorted(bad)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == ""


@pytest.mark.parametrize(
    "path", ["doors/rest.py", "doors/grpc_server.py", "cli.py", "serving/settings.py"]
)
def test_transports_do_not_reach_into_the_rules_core(path: str) -> None:
    for name in _absolute_imports(PACKAGE / path):
        assert not name.startswith("domino_rules.rules"), f"{path} imports {name}: use the API"


def test_only_the_codec_knows_both_rules_and_messages() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if "_pb2" in path.name or path.parent.name == "v1":
            continue
        modules = _absolute_imports(path)
        knows_rules = path.is_relative_to(RULES) or any(
            m.startswith("domino_rules.rules") for m in modules
        )
        knows_messages = any(m.startswith("domino_rules.v1") for m in modules)
        if knows_rules and knows_messages:
            where = path.relative_to(PACKAGE).as_posix()
            assert where in {"state/codec.py", "api/service.py", "api/replay.py"}, where


def test_the_records_forms_know_only_the_messages() -> None:
    for path in sorted((PACKAGE / "records").rglob("*.py")):
        for name in _absolute_imports(path):
            if name.startswith("domino_rules."):
                assert name.startswith(("domino_rules.v1", "domino_rules.records")), (path, name)


# ------------------------------------------------------------------ layers and cycles

#: The layers, bottom first, with the folders and modules of each (under
#: ``service/domino_rules/``), as the table of ``docs/ARCHITECTURE.md`` lists them: a
#: module imports its own layer and those below, never one above.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the contract", ("v1/", "__init__.py")),
    ("the match records", ("records/",)),
    ("the games' kernel", ("rules/",)),
    ("the bots' kernel", ("bots/",)),
    ("the games", ("games/",)),
    ("state tokens and encoding", ("state/",)),
    ("the transport-free API", ("api/",)),
    ("observability", ("observability/",)),
    ("serving and processes", ("serving/",)),
    ("the pages", ("web/",)),
    ("the two doors", ("doors/",)),
    ("the command line", ("cli.py", "record_commands.py")),
)

#: The imports that reach a layer above their own, each on purpose; they are left out of
#: the search for cycles too.
UPWARD = frozenset(
    {
        # The kernel's documented re-export of the catalogue, for library users
        # (``rules.get``, ``rules.all_rulesets``, ``rules.most_players``): it imports the
        # catalogue when first called, never when imported, so importing the kernel
        # imports no game.
        ("domino_rules.rules.registry", "domino_rules.games"),
    }
)


def _package_modules(root: Path) -> dict[str, str]:
    """Every module of the package at ``root``, by name: its path under ``root``."""
    return {_module_of(p, root): p.relative_to(root).as_posix() for p in root.rglob("*.py")}


@functools.cache
def _import_graph(root: Path) -> dict[str, dict[str, int]]:
    """Every module of the package at ``root``: the modules of the package it imports,
    at module level, in a function or for type checking alike, each with the line of its
    first import. ``from X import a`` imports ``X.a`` where that is a module, else ``X``;
    ``import X.Y`` imports ``X.Y``."""
    modules = _package_modules(root)
    graph: dict[str, dict[str, int]] = {}
    for module, relative in modules.items():
        path = root / relative
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        here = module.split(".")
        package = here if path.name == "__init__.py" else here[:-1]
        edges: dict[str, int] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package[: len(package) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                         for a in node.names]  # fmt: skip
            else:
                continue
            for name in names:
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    edges[name] = min(edges.get(name, node.lineno), node.lineno)
        graph[module] = edges
    return graph


def _layer(relative: str) -> int | None:
    """The index in :data:`LAYERS` of the module at ``relative`` (a path under the package)."""
    for index, (_, places) in enumerate(LAYERS):
        if any(relative.startswith(p) if p.endswith("/") else relative == p for p in places):
            return index
    return None


def _game(relative: str) -> str | None:
    """The game whose package holds the module at ``relative``, if any (``games/<id>/``)."""
    parts = relative.split("/")
    return parts[1] if parts[0] == "games" and len(parts) > 2 else None


def _wrong_imports(root: Path) -> list[str]:
    """Each import of the package at ``root`` that reaches a layer above its own, or a
    game from outside its package, named with its place."""
    modules, graph = _package_modules(root), _import_graph(root)
    catalogue = f"{root.name}.games"
    wrong = []
    for module, edges in sorted(graph.items()):
        for imported, line in sorted(edges.items()):
            if (module, imported) in UPWARD:
                continue
            here, there = modules[module], modules[imported]
            where = f"{here}:{line}: {module} imports {imported}"
            game, its = _game(here), _game(there)
            low, high = _layer(here), _layer(there)
            if its is not None and its != game and module != catalogue:
                wrong.append(f"{where}, of the game {its!r}: read the catalogue ({catalogue})")
            elif game is not None and imported == catalogue:
                wrong.append(f"{where}: a game is installed by the catalogue, never reads it")
            elif low is not None and high is not None and high > low:
                wrong.append(f"{where}: {LAYERS[high][0]!r} is a layer above {LAYERS[low][0]!r}")
    return wrong


def _cycle(graph: dict[str, dict[str, int]]) -> list[str]:
    """The modules of one import cycle of ``graph`` (the first again at the end), or
    ``[]``; the imports in :data:`UPWARD` are left out."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str]:
        path.append(module)
        for imported in sorted(graph.get(module, {})):
            if (module, imported) in UPWARD or imported in done:
                continue
            if imported in path:
                return [*path[path.index(imported) :], imported]
            found = visit(imported)
            if found:
                return found
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        if module not in done:
            found = visit(module)
            if found:
                return found
    return []


def _cycle_text(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    steps = [f"{a} imports {b} (line {graph[a][b]})" for a, b in itertools.pairwise(cycle)]
    return "import cycle: " + "; ".join(steps)


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(m for m, r in _package_modules(PACKAGE).items() if _layer(r) is None)
    assert not unplaced, f"{unplaced}: add their folder to LAYERS and docs/ARCHITECTURE.md"


def test_no_module_imports_a_layer_above_its_own_nor_another_game() -> None:
    wrong = _wrong_imports(PACKAGE)
    assert not wrong, "\n".join(wrong)


def test_the_imports_have_no_cycle() -> None:
    graph = _import_graph(PACKAGE)
    cycle = _cycle(graph)
    assert not cycle, _cycle_text(graph, cycle)


def test_the_exceptions_are_still_imports() -> None:
    graph = _import_graph(PACKAGE)
    gone = sorted(f"{a} -> {b}" for a, b in UPWARD if b not in graph.get(a, {}))
    assert not gone, f"no longer imported, take them out of UPWARD: {gone}"


def test_the_layers_are_those_of_the_architecture_document() -> None:
    lines = iter(ARCHITECTURE.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if line.startswith("| layer (bottom first) |"):
            break
    next(lines)  # the rule under the header
    documented = []
    for line in lines:
        if not line.startswith("|"):
            break
        name, places = (cell.strip() for cell in line.split("|")[1:3])
        documented.append((name, tuple(re.findall(r"`([^`]+)`", places))))
    assert tuple(documented) == LAYERS


def test_the_layer_check_names_what_is_wrong(tmp_path: Path) -> None:
    root = tmp_path / "domino_rules"
    files = {
        "__init__.py": "",
        "rules/__init__.py": "from .tiles import Tile\n",
        "rules/tiles.py": "def upward():\n    from ..games import get\n",
        "games/__init__.py": "from ..rules import Tile\n",
        "games/package.py": "",
        "games/one/__init__.py": "from ..package import GamePackage\nfrom ..two import bot\n",
        "games/two/__init__.py": "from .. import get\n",
        "games/two/bot.py": "import domino_rules.rules.tiles\n",
        "api/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from ..games.two import bot\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    wrong = _wrong_imports(root)
    assert wrong == [
        "api/__init__.py:3: domino_rules.api imports domino_rules.games.two.bot, of the game "
        "'two': read the catalogue (domino_rules.games)",
        "games/one/__init__.py:2: domino_rules.games.one imports domino_rules.games.two.bot, "
        "of the game 'two': read the catalogue (domino_rules.games)",
        "games/two/__init__.py:1: domino_rules.games.two imports domino_rules.games: a game "
        "is installed by the catalogue, never reads it",
        "rules/tiles.py:2: domino_rules.rules.tiles imports domino_rules.games: 'the games' "
        'is a layer above "the games\' kernel"',
    ], wrong
    graph = _import_graph(root)
    assert graph["domino_rules.games.two.bot"] == {"domino_rules.rules.tiles": 1}
    assert _cycle_text(graph, _cycle(graph)) == (
        "import cycle: domino_rules.rules.tiles imports domino_rules.games (line 2); "
        "domino_rules.games imports domino_rules.rules (line 1); "
        "domino_rules.rules imports domino_rules.rules.tiles (line 1)"
    )


def test_importing_the_kernels_imports_no_game_and_the_library_finds_every_game() -> None:
    code = """
import importlib, pkgutil, sys
import domino_rules.bots, domino_rules.rules
for package in (domino_rules.rules, domino_rules.bots):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
loaded = sorted(m for m in sys.modules if m.startswith("domino_rules.games"))
assert not loaded, loaded
from domino_rules import bots, games, rules
ruleset = rules.get("tiu_u")
assert ruleset is games.get("tiu_u").ruleset and ruleset in rules.all_rulesets()
assert rules.most_players() == games.most_players() > 2
options = ruleset.make_options({"hands": 1})
match = ruleset.new_match(options, 2, "a seed")
view = ruleset.view(match, ruleset.to_act(match))
suggestion = bots.suggest(ruleset, options, 2, view, bots.Level.STRONG, playouts=20)
assert suggestion.move in view.legal_moves
print("ok")
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert out.stdout.strip() == "ok", out.stderr[-2000:]


def _public_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="domino_rules."):
        last = info.name.rsplit(".", 1)[-1]
        if last.startswith("_") or "_pb2" in last or ".v1" in info.name:
            continue
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _public_modules())
def test_all_lists_exactly_the_public_names(name: str) -> None:
    module = importlib.import_module(name)
    declared = getattr(module, "__all__", None)
    assert declared is not None, f"{name} has no __all__"
    assert len(set(declared)) == len(declared), f"{name}.__all__ repeats a name"
    missing = [n for n in declared if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ lists names it does not have: {missing}"
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    defined = {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
    }
    unlisted = sorted(defined - set(declared))
    assert not unlisted, f"{name} defines public names missing from __all__: {unlisted}"


@pytest.mark.parametrize(
    "path", sorted(p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "api").glob("*.py"))
)
def test_the_api_imports_nothing_above_it(path: str) -> None:
    """api/ is below observability/, doors/, web/ and serving/: a serving process passes
    down what its work processes need (``Admission(on_start=...)``)."""
    above = ("observability", "doors", "web", "serving", "cli", "record_commands")
    for name in _absolute_imports(PACKAGE / path):
        for layer in above:
            assert not name.startswith(f"domino_rules.{layer}"), f"{path} imports {name}"
