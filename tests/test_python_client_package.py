"""The Python client (clients/python) as an integrator gets it: built into a wheel,
installed into a fresh virtual environment with nothing else, and used from there.

- the wheel holds the typed package (``py.typed``) and the compiled contract, and
  declares no dependency outside its ``grpc`` extra;
- a script in that environment plays a whole match of every ruleset against a real REST
  server, with ``suggest_move`` for every seat, sending each move back unchanged, and an
  illegal move raises ``DominoRulesError`` with reason ``ILLEGAL_MOVE``;
- without grpcio, the REST client works and the gRPC client says which extra it needs;
- ``mypy --strict`` accepts a typed consumer of the installed package, and rejects one
  that misuses its types (so the types are really seen, not ``Any``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from domino_rules import rules

from .support.servers import Servers

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "clients" / "python"
TIMEOUT = 300
MYPY = Path(sys.executable).parent / "mypy"

#: Builds the wheel and its virtual environment once: its tests share them on one worker.
pytestmark = [pytest.mark.slow, pytest.mark.one_worker]


def _run(*command: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package built into a wheel, from a copy of its folder (nothing is written
    into the repository)."""
    work = tmp_path_factory.mktemp("client-build")
    source = work / "source"
    shutil.copytree(
        PACKAGE, source, ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__")
    )
    dist = work / "dist"
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        "--wheel-dir",
        dist,
        source,
    )
    (built,) = dist.glob("domino_rules_client-*.whl")
    return built


@pytest.fixture(scope="module")
def python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with only the wheel installed: its interpreter."""
    env = tmp_path_factory.mktemp("client-venv") / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    interpreter = env / "bin" / "python"
    _run(interpreter, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", wheel)
    return interpreter


def test_the_wheel_holds_the_typed_package_and_no_dependency(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (metadata_name,) = (n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(metadata_name).decode())
    for name in ("py.typed", "contract.binpb", "__init__.py", "rest.py", "grpc_client.py"):
        assert f"domino_rules_client/{name}" in names, name
    assert not any(n.startswith(("tests/", "update_contract")) for n in names)
    assert metadata["Name"] == "domino-rules-client"
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["License-Expression"] == "MIT"
    requires = metadata.get_all("Requires-Dist") or []
    assert requires and all('extra == "grpc"' in r for r in requires), requires
    assert metadata.get_all("Provides-Extra") == ["grpc"]


PLAY = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path

    import domino_rules_client
    from domino_rules_client import DominoRulesClient, DominoRulesError, Reason

    base, seed = sys.argv[1], sys.argv[2]
    client = DominoRulesClient(base, timeout=60)
    report = {"module": domino_rules_client.__file__, "matches": {}}
    for ruleset in [r["id"] for r in client.list_rulesets()]:
        game = client.new_game(ruleset, 2, seed=seed)
        state, version, moves, levels = game["state"], game["version"], 0, set()
        while True:
            legal = client.get_legal_moves(state)
            if legal["status"] == "MATCH_OVER":
                break
            seat = legal["to_act"]
            level = ("RANDOM", "GREEDY")[seat % 2] if moves % 7 else "STRONG"
            hint = client.suggest_move(state, level=level, seed=str(moves), playouts=20)
            move = hint["move"]
            assert move in legal["moves"], (move, legal["moves"])
            assert hint["seat"] == seat and hint["level"] == level
            levels.add(level)
            answer = client.apply_move(state, move, expected_version=version)
            state, version, moves = answer["state"], answer["version"], moves + 1
            assert version == moves
        score = client.get_score(state)
        report["matches"][ruleset] = {
            "status": score["status"],
            "moves": moves,
            "version": score["version"],
            "hands": len(score["hands"]),
            "winners": score["winners"],
            "seed": score.get("seed"),
            "levels": sorted(levels),
        }

    game = client.new_game("one_arm_joe", 3, seed=seed)
    view = client.get_view(game["state"], seat=game["to_act"])
    lead = view["legal_moves"][0]
    other = next(t for t in view["hand"] if t != lead["tile"])
    try:
        client.apply_move(game["state"], {"seat": view["seat"], "kind": "PLAY", "tile": other})
    except DominoRulesError as error:
        report["error"] = [error.code, error.reason, error.http_status, error.message]
        report["is_illegal"] = error.reason == Reason.ILLEGAL_MOVE
    try:
        domino_rules_client.DominoRulesGrpcClient
    except ImportError as error:
        report["grpc"] = str(error)
    print(json.dumps(report))
    """
)


def test_a_fresh_install_plays_every_ruleset(
    python: Path, servers: Servers, tmp_path: Path
) -> None:
    script = tmp_path / "play.py"
    script.write_text(PLAY)
    report = json.loads(_run(python, script, servers.http_base, "fresh", cwd=tmp_path))
    # the installed package, not the repository's source folder
    assert Path(report["module"]).is_relative_to(python.parent.parent)
    assert set(report["matches"]) == {r.id for r in rules.all_rulesets()}
    for ruleset, match in report["matches"].items():
        assert match["status"] == "MATCH_OVER", ruleset
        assert match["moves"] == match["version"] > 0 and match["hands"] >= 1, ruleset
        assert match["winners"] and match["seed"] == "fresh", ruleset
        assert match["levels"] == ["GREEDY", "RANDOM", "STRONG"], ruleset
    code, reason, http_status, message = report["error"]
    assert (code, reason, http_status) == ("FAILED_PRECONDITION", "ILLEGAL_MOVE", 400)
    assert message and report["is_illegal"] is True
    # no grpcio in this environment: the gRPC client names the extra it needs
    assert "domino-rules-client[grpc]" in report["grpc"]


CONSUMER = textwrap.dedent(
    """
    from domino_rules_client import (
        DominoRulesClient,
        DominoRulesError,
        GetLegalMovesResponse,
        Move,
        Reason,
        SuggestMoveResponse,
    )


    def next_move(client: DominoRulesClient, state: str) -> Move | None:
        legal: GetLegalMovesResponse = client.get_legal_moves(state, timeout=5.0)
        if legal["status"] == "MATCH_OVER":
            return None
        hint: SuggestMoveResponse = client.suggest_move(state, level="GREEDY")
        return hint["move"] if hint["move"] in legal["moves"] else legal["moves"][0]


    def play(client: DominoRulesClient, state: str, version: int) -> int | None:
        move = next_move(client, state)
        if move is None:
            return None
        try:
            answer = client.apply_move(state, move, expected_version=version)
        except DominoRulesError as error:
            if error.reason == Reason.STALE_STATE:
                return None
            status: int | None = error.http_status
            raise RuntimeError(f"{error.code} {error.reason} {status}") from error
        tile = move.get("tile")
        return answer["version"] + (tile["high"] if tile is not None else 0)
    """
)

MISUSE = textwrap.dedent(
    """
    from domino_rules_client import DominoRulesClient

    client = DominoRulesClient("http://127.0.0.1:8080")
    game = client.new_game("tiu_u", 2)
    client.apply_move(game["state"], "PASS")
    client.suggest_move(game["state"], level="CLEVER")
    points: str = client.get_score(game["state"])["seats"][0]["match_points"]
    """
)


@pytest.mark.skipif(not MYPY.exists(), reason="needs mypy (the dev extra)")
def test_mypy_strict_accepts_a_typed_consumer(python: Path, tmp_path: Path) -> None:
    def mypy(source: str) -> subprocess.CompletedProcess[str]:
        path = tmp_path / "consumer.py"
        path.write_text(source)
        return subprocess.run(
            [
                str(MYPY),
                "--strict",
                "--no-incremental",
                "--python-executable",
                str(python),
                str(path),
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )

    accepted = mypy(CONSUMER)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    rejected = mypy(MISUSE)
    assert rejected.returncode == 1, rejected.stdout + rejected.stderr
    assert rejected.stdout.count("error:") == 3, rejected.stdout
    for what in ('"apply_move"', '"suggest_move"', "assignment"):
        assert what in rejected.stdout, (what, rejected.stdout)
