"""The design's boundaries, checked: the rules core is pure, public surfaces are declared.

* ``domino_rules.rules`` imports nothing that speaks a wire format, serves, or does I/O
  (no protobuf, grpc, flask, sockets, files, processes, clocks or OS randomness), so it
  can be tested, fuzzed and benchmarked on its own.
* Only ``codec`` knows both the rules core and the generated messages; the transports
  reach the rules through the API.
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


def _rules_modules() -> list[Path]:
    return sorted(RULES.rglob("*.py"))


@pytest.mark.parametrize("path", _rules_modules(), ids=lambda p: p.name)
def test_the_rules_core_imports_only_the_pure_standard_library(path: Path) -> None:
    for level, name in _imports(path):
        if level > 0:
            # relative imports must stay inside rules/
            assert level == 1, f"{path.name} reaches outside rules/: {'.' * level}{name}"
            continue
        top = name.split(".")[0]
        assert top in RULES_MAY_IMPORT, f"{path.name} imports {name}: not allowed in rules/"


def test_the_boundary_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import socket\nfrom google.protobuf import message\nfrom .. import codec\n")
    names = _imports(bad)
    assert (0, "socket") in names and (0, "google.protobuf") in names and (2, "") in names
    assert not {n.split(".")[0] for level, n in names if level == 0} <= RULES_MAY_IMPORT


def test_importing_the_rules_core_loads_no_wire_or_server_library() -> None:
    code = (
        "import sys, domino_rules.rules as r; r.all_rulesets();"
        "bad = [m for m in sys.modules if m.split('.')[0] in"
        " {'google', 'grpc', 'flask', 'werkzeug', 'socket', 'subprocess', 'cryptography'}];"
        "print(','.join(sorted(bad)))"
    )
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("module", ["rest", "grpc_server", "cli", "settings"])
def test_transports_do_not_reach_into_the_rules_core(module: str) -> None:
    for level, name in _imports(PACKAGE / f"{module}.py"):
        if level == 1:
            assert not name.startswith("rules"), f"{module}.py imports .{name}: go through api"


def test_only_the_codec_knows_both_rules_and_messages() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if "_pb2" in path.name or path.parent.name == "v1":
            continue
        modules = {name for _, name in _imports(path)}
        knows_rules = path.is_relative_to(RULES) or any(
            m == "rules" or m.startswith("rules.") for m in modules
        )
        knows_messages = any(m == "v1" or m.startswith("v1.") for m in modules)
        if knows_rules and knows_messages:
            assert path.name in {"codec.py", "service.py"}, path.relative_to(PACKAGE)


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
