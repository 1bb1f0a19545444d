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


# ------------------------------------------------------------------ bad input, named

RECORD = ["record", "block", "--players", "2", "--level", "random", "--out"]


def _one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command: exit 2, one line on standard error, nothing on standard output,
    no traceback; the line."""
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Traceback" not in err and out == "", (out, err)
    return err


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("random.bin", bytes(range(256)) * 8, "binary data"),
        ("latin1.json", '{"ruleset": "caf\xe9"}'.encode("latin-1"), "not UTF-8 text"),
        ("empty.json", b"", "empty"),
        ("blank.txt", b"  \n\n", "empty"),
        ("list.json", b"[1, 2]", "a JSON object, not a list"),
        ("string.json", b'"a record"', "a JSON object, not a string"),
        ("number.json", b"12", "a JSON object, not a number"),
        ("object.json", b"{}", "an empty record"),
        ("other.json", b'{"name": "x"}', "not a match record"),
        ("cut.json", b'{"format": 1, "ruleset": "block", "moves": [{"move"', "cut short"),
        ("cut-string.json", b'{"format": 1, "ruleset": "blo', "cut short"),
        ("version.json", b'{"format": 2, "ruleset": "block", "seed": "s"}', "format 2"),
        ("version.txt", b"domino-rules match record 2\nruleset block\n", "format 2"),
        ("cut.txt", b"domino-rules match record 1\nruleset block\n1. s0 pl", "cut short"),
        ("notes.txt", b"a shopping list\n", "line 1"),
        ("deep.json", b"[" * 100_000 + b"]" * 100_000, "deeper"),
        ("noseed.json", b'{"format": 1, "ruleset": "block", "players": 2}', "neither the seed"),
    ],
)
def test_a_file_that_is_not_a_record_is_named_for_what_it_is(
    tmp_path: pathlib.Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: bytes,
    words: str,
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    for command in (["replay", str(path)], ["convert", str(path), "--to", "text"]):
        line = _one_line(command, capsys)
        assert line.startswith(f"domino-rules {command[0]}: {path}: ") and words in line, line


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["replay", "nope.json"], "nope.json: No such file or directory"),
        (["replay", "."], ".: a directory, not a record"),
        (
            ["record", "block", "--players", "2", "--out", "-", "--options", "[" * 5000],
            "BAD_OPTIONS",
        ),
        (
            ["record", "block", "--players", "2", "--out", "-", "--options", '{"x": 1}'],
            "BAD_OPTIONS",
        ),
        (["record", "block", "--players", "2", "--out", "."], "Is a directory"),
    ],
)
def test_bad_arguments_are_one_line_each(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert words in _one_line(argv, capsys)


@pytest.mark.parametrize("flag", ["--to", "--from", "--seat"])
def test_numbers_out_of_range_are_refused_by_the_parser(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    path = _record(tmp_path, "one_arm_joe")
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        cli.main(["replay", str(path), flag, str(10**20)])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "out of range" in err and "Traceback" not in err


def test_a_record_past_the_limits_is_refused_before_anything_is_printed(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.json"
    moves = ",".join(['{"move": {"kind": "PASS"}}'] * (records.MAX_MOVES + 1))
    path.write_text(f'{{"format": 1, "ruleset": "block", "seed": "s", "moves": [{moves}]}}')
    assert "at most 20000" in _one_line(["replay", str(path)], capsys)
    text = tmp_path / "long.txt"
    lines = [f"{n}. s0 pass" for n in range(1, records.MAX_MOVES + 2)]
    text.write_text("domino-rules match record 1\nruleset block\n" + "\n".join(lines) + "\n")
    assert "over 20000 moves" in _one_line(["replay", str(text)], capsys)


def test_only_a_divergence_exits_1(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path, "one_arm_joe")
    record = json.loads(path.read_text())
    record["moves"][0]["move"]["seat"] = (record["moves"][0]["move"].get("seat", 0) + 1) % 3
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 1
    assert "DIVERGED" in capsys.readouterr().err
