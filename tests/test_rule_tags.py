"""Every rule of ``docs/rules.md`` is checked by a test that cites its tag, and every tag
a test cites is a rule there.

The rulebook tags each rule (``[OAJ-7]``: a game's prefix and a number) and promises
that at least one test checks each tagged rule. The prefixes are read from the rulebook
itself, so a new game's section is held to this as soon as it is written.

A tag counts as cited when it appears, as ``[OAJ-7]`` or ``OAJ-7``, in a test: the
source of a ``test*`` function of a ``test_*.py`` module under ``tests/`` (its
decorators, docstring, body and comments), or a docstring with examples in the rules
modules, which pytest runs as doctests. A tag in a helper or a section comment only
does not count: it checks nothing by itself. The other way round, a tag anywhere under
``tests/`` (or in those doctests) that the rulebook does not define is a typo.
"""

from __future__ import annotations

import ast
import doctest
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "docs" / "rules.md"
TESTS = ROOT / "tests"
#: The rules modules, whose doctests pytest runs with the tests.
RULES = ROOT / "service" / "domino_rules" / "rules"
HERE = Path(__file__).resolve()

#: A tag as the rulebook writes it: an upper-case prefix (digits after its first letter, as
#: ``A5``) and a number. (Tiles, such as
#: ``[6-4]``, have digits on both sides.)
TAG = re.compile(r"\[([A-Z][A-Z0-9]*-[0-9]+)\]")
#: A rule's own line: a list item that opens with its tag.
DEFINITION = re.compile(r"^- `\[([A-Z][A-Z0-9]*-[0-9]+)\]`", re.MULTILINE)


@dataclass(frozen=True)
class Source:
    """Text that may cite tags: ``where`` it is, and its first line there."""

    where: str
    text: str
    line: int = 1


def tag_order(tag: str) -> tuple[str, int]:
    prefix, number = tag.split("-")
    return prefix, int(number)


def named_tags(rulebook: str) -> dict[str, int]:
    """Every tag the rulebook names, with the line it is first named on."""
    named: dict[str, int] = {}
    for match in TAG.finditer(rulebook):
        named.setdefault(match.group(1), rulebook.count("\n", 0, match.start()) + 1)
    return named


def citation(prefixes: Iterable[str]) -> re.Pattern[str]:
    """A cited tag: in brackets with any prefix (so that a prefix the rulebook lacks is
    seen too), or bare with one of ``prefixes``."""
    bare = "|".join(sorted(map(re.escape, prefixes), key=lambda p: (-len(p), p)))
    return re.compile(rf"\[([A-Z][A-Z0-9]*-[0-9]+)\]|\b((?:{bare})-[0-9]+)\b")


def citations(source: Source, pattern: re.Pattern[str]) -> Iterator[tuple[str, int]]:
    """Each tag ``source`` cites, with its line."""
    for match in pattern.finditer(source.text):
        yield (
            match.group(1) or match.group(2),
            source.line + source.text.count("\n", 0, match.start()),
        )


def uncited(named: Iterable[str], tests: Iterable[Source], pattern: re.Pattern[str]) -> list[str]:
    """The tags of ``named`` that no source of ``tests`` cites, in rulebook order."""
    seen = {tag for source in tests for tag, _ in citations(source, pattern)}
    return sorted(set(named) - seen, key=tag_order)


def undefined(
    named: Iterable[str], sources: Iterable[Source], pattern: re.Pattern[str]
) -> list[str]:
    """Each citation in ``sources`` of a tag not in ``named``, as ``where:line: tag``."""
    known = set(named)
    return [
        f"{source.where}:{line}: {tag}"
        for source in sources
        for tag, line in citations(source, pattern)
        if tag not in known
    ]


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if p.resolve() != HERE)


def _test_functions(path: Path) -> Iterator[Source]:
    """The source of each ``test*`` function of a test module, decorators included."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            assert node.end_lineno is not None
            body = "\n".join(lines[first - 1 : node.end_lineno])
            yield Source(f"{_relative(path)}::{node.name}", body, first)


def doctests(path: Path) -> Iterator[Source]:
    """Each docstring of a module with examples in it (a doctest pytest runs)."""
    parser = doctest.DocTestParser()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        text = ast.get_docstring(node, clean=False)
        if text and parser.get_examples(text):
            name = getattr(node, "name", "<module>")
            line = node.body[0].lineno  # the docstring's
            yield Source(f"{_relative(path)}::{name} (doctest)", text, line)


def _tests_citing() -> list[Source]:
    """Every test that may cite a tag: test functions and the rules' doctests."""
    found = [source for path in _test_modules() for source in _test_functions(path)]
    found += [source for path in sorted(RULES.glob("*.py")) for source in doctests(path)]
    return found


def everything_citing() -> list[Source]:
    """Every file under ``tests/`` (helpers and comments included) and the doctests."""
    found = [
        Source(_relative(path), path.read_text(encoding="utf-8"))
        for path in sorted(TESTS.rglob("*.py"))
        if path.resolve() != HERE
    ]
    found += [source for path in sorted(RULES.glob("*.py")) for source in doctests(path)]
    return found


def _rulebook() -> str:
    return RULEBOOK.read_text(encoding="utf-8")


# ------------------------------------------------------------------ the rulebook


def test_each_tag_the_rulebook_names_is_one_of_its_rules() -> None:
    """A tag is defined once, on its rule's line; every other mention refers to one."""
    rulebook = _rulebook()
    defined = DEFINITION.findall(rulebook)
    assert defined, "the rulebook defines no tag: has the way rules are written changed?"
    twice = sorted({tag for tag in defined if defined.count(tag) > 1}, key=tag_order)
    assert not twice, f"tags defined more than once in docs/rules.md: {twice}"
    named = named_tags(rulebook)
    stray = [f"docs/rules.md:{line}: [{tag}]" for tag, line in named.items() if tag not in defined]
    assert not stray, "tags named but defined by no rule:\n" + "\n".join(stray)


def test_every_rule_tag_is_cited_by_a_test() -> None:
    named = named_tags(_rulebook())
    pattern = citation({tag.split("-")[0] for tag in named})
    missing = uncited(named, _tests_citing(), pattern)
    listed = "\n".join(f"  [{tag}] (docs/rules.md:{named[tag]})" for tag in missing)
    assert not missing, (
        f"{len(missing)} rule tags of docs/rules.md are cited by no test (a test_* function "
        f"under tests/ or a doctest of the rules modules); each needs a test that checks its "
        f"rule and names it:\n{listed}"
    )


def test_every_tag_a_test_cites_is_a_rule_of_the_rulebook() -> None:
    named = named_tags(_rulebook())
    pattern = citation({tag.split("-")[0] for tag in named})
    typos = undefined(named, everything_citing(), pattern)
    assert not typos, "tags cited but not defined in docs/rules.md:\n" + "\n".join(typos)


# ------------------------------------------------------------------ the check itself


NEW_GAME = """\
### Rules

- `[BLK-1]` Set: double-six. A tile is written `[6-4]`.
- `[BLK-2]` Players: 2 to 4.
- `[BLK-10]` The match, as `[BLK-1]` says.
"""


def test_the_check_reads_a_new_games_tags_from_the_rulebook() -> None:
    """A prefix the rulebook starts to use is checked at once, both ways; a tile is no
    tag, and citing ``BLK-10`` does not cite ``BLK-1``."""
    named = named_tags(NEW_GAME)
    assert named == {"BLK-1": 3, "BLK-2": 4, "BLK-10": 5}
    assert DEFINITION.findall(NEW_GAME) == ["BLK-1", "BLK-2", "BLK-10"]
    pattern = citation({"BLK"})
    tests = [
        Source("test_new.py::test_ten", '    """BLK-10: the match."""', 7),
        Source("test_new.py::test_two", "    # [BLK-2] and [BLK-3], a typo\n    pass", 9),
    ]
    assert uncited(named, tests, pattern) == ["BLK-1"]
    assert undefined(named, tests, pattern) == ["test_new.py::test_two:9: BLK-3"]
    # a bracketed tag of a prefix the rulebook does not use is a typo too; bare, it is text
    other = [Source("test_other.py", "[XYZ-1] and XYZ-2")]
    assert undefined(named, other, pattern) == ["test_other.py:1: XYZ-1"]
