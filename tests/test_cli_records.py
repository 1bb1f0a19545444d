"""``domino-rules record``, ``replay`` and ``convert``: a bot-only match written as a
record, replayed VALID with a readable log, and a changed record stopped at its step."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from domino_rules import cli, records, rules

from .cases import cases_for

RULESETS = [r.id for r in rules.all_rulesets()]


def _record(tmp_path: pathlib.Path, ruleset: str, name: str = "match.json") -> pathlib.Path:
    setup = cases_for(ruleset).short
    out = tmp_path / name
    code = cli.main(
        [
            "record", ruleset, "--players", str(setup.players), "--seed", f"cli-{ruleset}",
            "--level", "random", "--options", json.dumps(dict(setup.options)), "--out", str(out),
        ]
    )  # fmt: skip
    assert code == 0
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_recorded_match_replays_valid_with_a_readable_log(
    tmp_path: pathlib.Path, ruleset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path, ruleset)
    record = json.loads(path.read_text())
    assert isinstance(record["moves"], list) and record["seed"] == f"cli-{ruleset}"
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 0
    log = capsys.readouterr().out
    players = record["players"]
    assert "hand 1 dealt:" in log
    assert all(f"  seat {seat}: " in log for seat in range(players))
    assert "match over: won by" in log
    assert log.rstrip().splitlines()[-1].startswith(f"VALID: {len(record['moves'])} moves")
    first = records.move_text(records.from_json(record).moves[0].move, seat=True)
    assert f"    1. {first}" in log


@pytest.mark.parametrize("ruleset", ["throw_up", "tsair_deng"])
def test_a_changed_record_stops_at_its_step(
    tmp_path: pathlib.Path, ruleset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path, ruleset)
    record = json.loads(path.read_text())
    players = record["players"]
    step = next(i for i, m in enumerate(record["moves"], 1) if "tile" in m["move"])
    move = record["moves"][step - 1]["move"]
    move["seat"] = (move.get("seat", 0) + 1) % players
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"DIVERGED at step {step} (move {step}): NOT_YOUR_TURN")


def test_the_text_form_replays_and_converts_back(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path, "tiu_u")
    capsys.readouterr()
    assert cli.main(["convert", str(path), "--to", "text"]) == 0
    text = tmp_path / "match.txt"
    text.write_text(capsys.readouterr().out)
    assert cli.main(["replay", str(text)]) == 0
    capsys.readouterr()
    assert cli.main(["convert", str(text), "--to", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(path.read_text())
    setup = cases_for("block").short
    written = tmp_path / "block.txt"  # a .txt file gets the text form
    argv = [
        "record", "block", "--players", str(setup.players), "--level", "GREEDY",
        "--options", json.dumps(dict(setup.options)), "--out", str(written),
    ]  # fmt: skip
    assert cli.main(argv) == 0
    assert written.read_text().startswith("domino-rules match record 1\n")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["record", "chess", "--players", "2", "--out", "-"], "UNKNOWN_RULESET"),
        (["record", "one_arm_joe", "--players", "1", "--out", "-"], "BAD_PLAYER_COUNT"),
        (
            ["record", "one_arm_joe", "--players", "2", "--options", "[1]", "--out", "-"],
            "BAD_OPTIONS",
        ),
        (["replay", "missing.json"], "No such file"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_file_that_is_not_a_record_exits_2(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("a shopping list\n")
    assert cli.main(["replay", str(path)]) == 2
    assert "line 1" in capsys.readouterr().err


def test_the_installed_command_records_and_replays(tmp_path: pathlib.Path) -> None:
    """The console script itself, in its own process, as users run it."""
    command = [sys.executable, "-m", "domino_rules.cli"]
    out = tmp_path / "oaj.json"
    made = subprocess.run(
        [*command, "record", "one_arm_joe", "--players", "2", "--seed", "shell",
         "--level", "GREEDY", "--options", '{"target_score": 0}', "--out", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    replayed = subprocess.run(
        [*command, "replay", str(out)], capture_output=True, text=True, timeout=120, check=False
    )
    assert replayed.returncode == 0, replayed.stderr
    assert "VALID" in replayed.stdout
