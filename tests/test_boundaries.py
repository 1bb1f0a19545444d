"""The design's boundaries, checked: the rules core is pure, public surfaces are declared.

* ``domino_rules.rules`` imports nothing that speaks a wire format, serves, or does I/O
  (no protobuf, grpc, flask, sockets, files, processes, clocks or OS randomness), so it
  can be tested, fuzzed and benchmarked on its own; so do each game's rules; the bots
  and each game's bot add only their own generator; nothing outside a game package
  imports it (everything reads the catalogue).
* Only ``codec`` and the API's servicer and replay know both the rules core and the
  generated messages; the transports reach the rules through the API; the match
  records' forms know only the messages.
* Every public module lists its public names in ``__all__``, and every name listed exists.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
from pathlib import Path

import pytest

import domino_rules

PACKAGE = Path(domino_rules.__file__).parent
RULES = PACKAGE / "rules"

#: What the rules core may import: the pure part of the standard library.
RULES_MAY_IMPORT = frozenset(
    {
        "__future__",
        "abc",
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


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
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
    bad = _outside(_absolute_imports(path), RULES_MAY_IMPORT, "domino_rules.rules")
    assert not bad, f"{path.name} imports {bad}: not allowed in the rules core"


def test_the_rules_package_adds_only_the_games_to_its_kernel() -> None:
    bad = _outside(
        _absolute_imports(RULES / "__init__.py"),
        RULES_MAY_IMPORT,
        "domino_rules.rules",
        "domino_rules.games",
    )
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
    import subprocess

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
