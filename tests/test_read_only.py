"""``serve`` on a read-only root filesystem: it writes only in its temporary directory
(``$TMPDIR``, or ``/tmp``), and when none is writable it stops before starting anything,
with exit status 2 and one line naming ``TMPDIR``.

As root, with mount namespaces at hand (CI runs as root), ``serve`` runs in a namespace of
its own (``unshare --mount``) where ``/`` is remounted read-only, as a container with
``readOnlyRootFilesystem: true`` has it, with or without ``/tmp`` left writable (the
``emptyDir`` of ``deploy/kubernetes``). Elsewhere, only the refusal of a ``TMPDIR``
that cannot be written is checked, on a directory without write permission.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from domino_rules import games
from domino_rules.serving.lifecycle import NoTemporaryDirectory, temporary_directory
from domino_rules.state.tokens import KeyRing

from .served import SERVE, Served, _Reader

#: Starts serve in mount namespaces of its own: alone on the machine.
pytestmark = [
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="mount namespaces and /proc are Linux's"
    ),
    pytest.mark.serial,
]

#: In the namespace: each directory named as an argument before "--" becomes a mount of
#: its own (bound onto itself, contents and all: a checkout under /tmp stays in sight),
#: read-only when named "ro:DIR", writable otherwise; then / is made read-only (this
#: mount only: the rest of the machine is untouched).
_NAMESPACE = """
set -e
while [ "$1" != -- ]; do
  dir="${1#ro:}"
  mount --bind "$dir" "$dir"
  if [ "$dir" != "$1" ]; then mount -o remount,bind,ro "$dir"; fi
  shift
done
shift
mount -o remount,bind,ro /
exec "$@"
"""


def _namespaces() -> bool:
    """Whether this process may run a command in a mount namespace with / read-only."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            "mount -o remount,bind,ro /",
        ],
        capture_output=True,
        timeout=60,
        check=False,
    )
    return probe.returncode == 0


NAMESPACES = _namespaces()
needs_namespaces = pytest.mark.skipif(
    not NAMESPACES, reason="needs root and mount namespaces (unshare --mount)"
)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TMPDIR", "TEMP", "TMP")}
    env["DOMINO_RULES_SEAL_KEYS"] = KeyRing.generate("k1")  # no start-up warning
    env["DOMINO_RULES_LOG_LEVEL"] = "debug"  # a door that started would say so
    env.update(extra)
    return env


def _serve_command(writable: list[str]) -> list[str]:
    args = ["--grpc-port", "0", "--http-port", "0", "--grpc-workers", "1", "--http-workers", "1"]
    inner = [*SERVE, *args]
    if not NAMESPACES:
        return inner
    return [
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        _NAMESPACE,
        "sh",
        *writable,
        "--",
        *inner,
    ]


def _refused(command: list[str], env: dict[str, str]) -> str:
    """Run ``command``, which must stop at once with status 2 and print nothing on
    stdout; its stderr."""
    result = subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    return result.stderr


@needs_namespaces
def test_a_read_only_root_with_a_writable_tmp_serves_and_stops_cleanly() -> None:
    """/ read-only, /tmp writable (an emptyDir): both doors serve, /metrics adds up every
    process (their files are in /tmp), and a stop is clean."""
    process = subprocess.Popen(
        _serve_command(["/tmp"]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(TMPDIR="/tmp", DOMINO_RULES_LOG_LEVEL="info"),
        start_new_session=True,
    )
    assert process.stdout is not None and process.stderr is not None
    served = Served(process, 0, 0, None, _Reader(process.stderr))
    try:
        grpc_line = process.stdout.readline()
        rest_line = process.stdout.readline()
        assert grpc_line.startswith("gRPC listening on 127.0.0.1:"), grpc_line + served.kill()
        served.grpc_port = int(grpc_line.rsplit(":", 1)[1])
        served.http_port = int(rest_line.rsplit(":", 1)[1])
        with grpc.insecure_channel(f"127.0.0.1:{served.grpc_port}") as channel:
            answer = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=30
            )
        assert answer.status == health_pb2.HealthCheckResponse.SERVING
        with urllib.request.urlopen(f"{served.base}/v1/rulesets", timeout=30) as listed:
            listed_ids = {r["id"] for r in json.load(listed)["rulesets"]}
            assert listed_ids == {game.id for game in games.all_games()}
        with urllib.request.urlopen(f"{served.base}/metrics", timeout=30) as scraped:
            body = scraped.read().decode()
        assert 'domino_rules_processes{role="rest_worker"} 1.0' in body
        code, err = served.stop()
    finally:
        served.kill()
    assert code == 0, err
    assert "Traceback" not in err and "Read-only file system" not in err


@needs_namespaces
@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_read_only_root_without_a_writable_tmp_stops_with_one_line(log_format: str) -> None:
    """/ read-only and nothing left writable, TMPDIR unset: status 2 and one line that names
    TMPDIR, before any door starts (at --log-level debug a started door would log)."""
    err = _refused(_serve_command([]), _env(DOMINO_RULES_LOG_FORMAT=log_format))
    (line,) = err.splitlines()
    if log_format == "json":
        record = json.loads(line)
        assert record["level"] == "ERROR"
        line = record["message"]
    else:
        assert line.startswith("domino-rules: ")
    assert "TMPDIR" in line and "/tmp" in line and "Read-only file system" in line


def test_a_tmpdir_that_cannot_be_written_stops_serve_with_one_line(tmp_path: Path) -> None:
    """TMPDIR names a directory no file can be made in (read-only in the namespace as
    root, a directory without write permission otherwise): status 2, one line naming
    TMPDIR and the directory; nothing falls back to another directory."""
    directory = tmp_path / "read-only"
    directory.mkdir()
    if not NAMESPACES:
        if os.geteuid() == 0:
            pytest.skip("root writes anywhere: needs mount namespaces (unshare --mount)")
        directory.chmod(0o555)
    try:
        # /tmp writable (a fallback there would work), TMPDIR read-only
        err = _refused(_serve_command(["/tmp", f"ro:{directory}"]), _env(TMPDIR=str(directory)))
    finally:
        directory.chmod(0o755)
    (line,) = err.splitlines()
    assert line.startswith("domino-rules: TMPDIR is ") and str(directory) in line, line


def test_the_temporary_directory_is_tmpdir_or_a_writable_fallback(tmp_path: Path) -> None:
    assert temporary_directory({"TMPDIR": str(tmp_path)}) == str(tmp_path)
    assert temporary_directory({}) in ("/tmp", "/var/tmp", "/usr/tmp")
    with pytest.raises(NoTemporaryDirectory, match=r"TMPDIR is .*no-such-directory"):
        temporary_directory({"TMPDIR": str(tmp_path / "no-such-directory")})


def test_serve_still_stops_with_a_signal_in_a_namespace() -> None:
    """The namespace wrapper execs serve: a signal reaches serve itself."""
    if not NAMESPACES:
        pytest.skip("needs root and mount namespaces (unshare --mount)")
    process = subprocess.Popen(
        _serve_command(["/tmp"]),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=_env(TMPDIR="/tmp", DOMINO_RULES_LOG_LEVEL="warning"),
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("gRPC listening")
        with open(f"/proc/{process.pid}/cmdline", "rb") as cmdline:
            assert b"domino_rules.cli" in cmdline.read()  # not sh, not unshare
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        process.stdout.close()  # type: ignore[union-attr]
