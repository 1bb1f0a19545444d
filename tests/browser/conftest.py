"""A headless Chromium for the playground tests, the API on a second origin, where
screenshots go, and axe-core (npm) for the accessibility checks."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver import Chrome
from selenium.webdriver.chrome.service import Service

from domino_rules.api import RulesService

from ..support import summary
from ..support.servers import Serve, Servers

#: What Chromium needs to run headless on a closed network, with nothing of its own
#: going out (no updates, sync or background fetches).
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)
#: The heading of what axe-core found on each page, in the summary at the end of the run.
AXE_HEADING = "axe-core violations by impact, on each page checked:"
#: The browser tests' own npm package: axe-core, locked in package-lock.json.
HERE = Path(__file__).resolve().parent
INSTALL = "apt-get install -y --no-install-recommends chromium chromium-driver"


def _found(*names: str) -> str | None:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Chrome]:
    """Debian's chromium, driven by its chromedriver, with a fresh profile."""
    chromium = _found("chromium", "chromium-browser")
    driver_path = _found("chromedriver")
    if chromium is None or driver_path is None:
        pytest.fail(
            f"the browser tests need Chromium and chromedriver (`make test` runs `{INSTALL}`)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="playground-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def api_elsewhere(serve: Serve) -> Servers:
    """A second service: the page comes from ``servers`` and calls this one, another
    origin (another port), as a page hosted apart from the API does."""
    return serve(RulesService())


@pytest.fixture(scope="session")
def artifacts(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go: ``$DOMINO_RULES_ARTIFACTS/playground`` when set, else a
    temporary directory; printed either way."""
    root = os.environ.get("DOMINO_RULES_ARTIFACTS")
    if root:
        path = Path(root) / "playground"
        path.mkdir(parents=True, exist_ok=True)
    else:
        path = tmp_path_factory.mktemp("playground")
    summary.note(request.config, f"playground screenshots: {path}")
    return path


@pytest.fixture(scope="session")
def axe_script() -> str:
    """axe-core's ``axe.min.js``, to run in the page: ``npm ci`` installs the locked
    version here (again only when package-lock.json is newer than the install)."""
    installed = HERE / "node_modules" / ".package-lock.json"
    lock = HERE / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("the accessibility checks need Node and npm (to install axe-core)")
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=HERE,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"npm ci failed:\n{done.stdout}\n{done.stderr}"
    return (HERE / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def axe_report(request: pytest.FixtureRequest) -> list[str]:
    """Lines saying what axe-core found on each page, printed at the end of the run."""
    return summary.lines(request.config, AXE_HEADING)
