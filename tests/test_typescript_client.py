"""The TypeScript client (clients/typescript) against real servers.

``npm ci`` installs the locked dependencies once (kept in node_modules until
package-lock.json changes), ``npm run build`` compiles with tsc, then:

- the committed types are what ``openapi-typescript`` makes of the committed OpenAPI
  document (``npm run generate``);
- the REST example plays a whole match of every ruleset to MATCH_OVER through the typed
  client, and the gRPC example does the same with @grpc/grpc-js and the proto loaded at
  run time, sending legal moves back unchanged;
- with the same seeds both doors play the very same matches.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from domino_rules import rules

from .support.servers import Servers

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "clients" / "typescript"
DOCUMENT = ROOT / "service" / "domino_rules" / "openapi" / "openapi.json"
TIMEOUT = 300
#: `<ruleset>: MATCH_OVER after <moves> moves, <hands> hands, winners [...]`
LINE = re.compile(r"^(\w+): (\w+) after (\d+) moves, (\d+) hands, winners \[([\d, ]*)\]", re.M)

pytestmark = pytest.mark.slow


def _run(*args: str) -> str:
    npm = shutil.which("npm")
    assert npm is not None, "npm is required (Node 20+)"
    command = [npm if args[0] == "npm" else args[0], *args[1:]]
    done = subprocess.run(
        command, cwd=PACKAGE, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def built() -> Path:
    """The package installed (``npm ci``, only when the lock file is newer) and compiled."""
    installed = PACKAGE / "node_modules" / ".package-lock.json"
    lock = PACKAGE / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        _run("npm", "ci", "--no-audit", "--no-fund")
    _run("npm", "run", "build")
    return PACKAGE / "dist" / "examples"


def _matches(output: str) -> dict[str, tuple[str, int, int, str]]:
    found = {m[1]: (m[2], int(m[3]), int(m[4]), m[5]) for m in LINE.finditer(output)}
    assert set(found) == {r.id for r in rules.all_rulesets()}, output
    for ruleset, (status, moves, hands, _) in found.items():
        assert status == "MATCH_OVER" and moves > 0 and hands >= 1, (ruleset, output)
    return found


def test_generated_types_are_fresh(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "schema.d.ts"
    _run("node_modules/.bin/openapi-typescript", str(DOCUMENT), "--output", str(out))
    assert out.read_text() == (PACKAGE / "src" / "schema.d.ts").read_text(), (
        "clients/typescript/src/schema.d.ts is stale: run `npm run generate` there"
    )


def test_both_examples_play_every_ruleset_to_the_end(built: Path, servers: Servers) -> None:
    node = shutil.which("node")
    assert node is not None
    rest = _run(node, str(built / "play_rest.js"), servers.http_base, "pytest")
    grpc = _run(node, str(built / "play_grpc.js"), servers.grpc_target, "pytest")
    assert "refused: BAD_PLAYER_COUNT (INVALID_ARGUMENT, HTTP 400)" in rest
    assert "refused: INVALID_ARGUMENT" in grpc
    assert _matches(rest) == _matches(grpc), "the two doors played different matches"
