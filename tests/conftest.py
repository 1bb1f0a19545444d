"""Fixtures shared by every test: real servers on 127.0.0.1, port 0; and how the suite
runs in parallel.

The suite runs in worker processes (pytest-xdist, ``-n auto --dist loadgroup``, see
``pyproject.toml``), each with its own session fixtures: its own servers on ports of its
own. Tests are handed out one by one, except:

- tests marked ``serial`` (they time things, bind fixed resources, drive Chromium or
  nginx, or start fleets of ``domino-rules serve``) run on one worker, one after the
  other, as one group: ``serial`` itself, or the group the mark names
  (``serial("chromium")``: the tests that share the session's Chromium), so that two
  such groups can go to two workers;
- the tests of a module marked ``one_worker`` (its module fixtures, a build or a
  ``serve``, cost too much to make on every worker) run on one worker, in order.

The ``serial`` groups are handed out first, the biggest first, then what holds a
``slow`` test, then the rest in order, so that the longest work starts at once. The
marks are read where the tests are collected, in the workers: each worker writes what
it found for the controller's scheduler (:class:`Grouped`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

from domino_rules.api import RulesService

from .support import summary
from .support.servers import Serve, Servers, serving

#: The group of the tests that cannot share the machine (marked ``serial``), unless the
#: mark names another.
SERIAL = "serial"


@pytest.fixture(scope="session")
def serve() -> Iterator[Serve]:
    """A factory: ``serve(service)`` starts the gRPC server and the REST gateway of
    ``service`` and returns where they answer; all are stopped at the end of the session."""
    with ExitStack() as running:
        yield lambda service: running.enter_context(serving(service))


@pytest.fixture(scope="session")
def servers(serve: Serve) -> Servers:
    """Both doors of a default service (unsealed tokens), shared by the whole session."""
    return serve(RulesService())


# --------------------------------------------------------------------------- in parallel

#: Where the workers write the groups they found, for the controller (``workerinput``).
_GROUPS_KEY = "test_groups"
_GROUPS_DIR = pytest.StashKey[Path]()


def _groups(items: list[pytest.Item]) -> dict[str, dict[str, Any]]:
    """By test id, for the tests that are not handed out one by one or that are slow: its
    group (``None`` for none) and whether it is slow."""
    found: dict[str, dict[str, Any]] = {}
    for item in items:
        group = None
        serial = item.get_closest_marker("serial")
        if serial is not None:
            group = f"{SERIAL}:{serial.args[0]}" if serial.args else SERIAL
        elif item.get_closest_marker("one_worker") is not None:
            group = item.nodeid.split("::", 1)[0]
        slow = item.get_closest_marker("slow") is not None
        if group is not None or slow:
            found[item.nodeid] = {"group": group, "slow": slow}
    return found


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """The controller tells each worker where to write the groups it finds."""
    config: pytest.Config = node.config
    directory = config.stash.get(_GROUPS_DIR, None)
    if directory is None:
        directory = config.stash[_GROUPS_DIR] = Path(tempfile.mkdtemp(prefix="test-groups-"))
    node.workerinput[_GROUPS_KEY] = str(directory)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A worker writes the groups of the tests it collected (before it tells the
    controller its collection, so that the file is there when the scheduler reads it)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None or _GROUPS_KEY not in workerinput:
        return
    directory = Path(workerinput[_GROUPS_KEY])
    partial = directory / f"{workerinput['workerid']}.part"
    partial.write_text(json.dumps(_groups(items)), encoding="utf-8")
    os.replace(partial, partial.with_suffix(".json"))


def pytest_unconfigure(config: pytest.Config) -> None:
    directory = config.stash.get(_GROUPS_DIR, None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup``, with the groups read from the marks (:class:`Grouped`)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    return Grouped(config, log)


class Grouped(LoadScopeScheduling):  # type: ignore[misc]
    """xdist's scheduling by work units, each unit a group of tests (a :data:`SERIAL`
    group, a ``one_worker`` module) or a single test; units are handed out the serial
    groups first (the biggest first), then those holding a slow test, then the other
    groups, then single tests in the order collected.

    (xdist's own ``loadgroup`` names a test's group in its id, which pytest 9 no longer
    lets a plugin change; the marks travel through a file instead.)"""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        #: What the workers found: by test id, its group and whether it is slow.
        self.found: dict[str, dict[str, Any]] = {}
        self.ordered = False

    def _split_scope(self, nodeid: str) -> str:
        group = self.found.get(nodeid, {}).get("group")
        return str(group) if group is not None else nodeid

    def schedule(self) -> None:
        if self.collection is None and self.collection_is_completed:
            directory = self.config.stash.get(_GROUPS_DIR, None)
            for path in sorted(directory.glob("*.json")) if directory else ():
                self.found.update(json.loads(path.read_text(encoding="utf-8")))
        super().schedule()

    def _assign_work_unit(self, node: Any) -> None:
        if not self.ordered:  # the first unit handed out: the queue is whole
            self.ordered = True
            units = sorted(self.workqueue.items(), key=self._priority)  # stable
            self.workqueue.clear()
            self.workqueue.update(units)
        super()._assign_work_unit(node)

    def _priority(self, unit: tuple[str, dict[str, bool]]) -> int:
        scope, tests = unit
        if scope == SERIAL or scope.startswith(f"{SERIAL}:"):
            return 0
        if any(self.found.get(nodeid, {}).get("slow") for nodeid in tests):
            return 1
        return 2 if len(tests) > 1 else 3


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker hands what it noted for the summary to the controller."""
    handed = getattr(session.config, "workeroutput", None)
    if handed is not None:
        handed[summary.WORKER_KEY] = summary.notes(session.config)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """The controller takes what a worker noted for the summary (xdist's hook)."""
    handed = getattr(node, "workeroutput", None) or {}
    config = getattr(node, "config", None)
    if isinstance(config, pytest.Config):
        summary.merge(config, handed.get(summary.WORKER_KEY))


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """What the tests noted for the end of the run (the playground's screenshots, what
    axe-core found), from every worker."""
    for line in summary.printed(config):
        terminalreporter.write_line(line)
