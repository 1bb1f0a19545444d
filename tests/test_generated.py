"""The committed generated code matches a fresh generation from proto/."""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_generated_code_is_not_stale(tmp_path: pathlib.Path) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "proto" / "generate.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert fresh, "nothing generated"
    stale = [
        str(rel)
        for rel in fresh
        if not (ROOT / "service" / rel).exists()
        or (ROOT / "service" / rel).read_bytes() != (tmp_path / rel).read_bytes()
    ]
    assert not stale, f"generated code is stale, run `python proto/generate.py`: {stale}"
    committed = {
        p.relative_to(ROOT / "service")
        for p in (ROOT / "service" / "domino_rules").rglob("*")
        if p.name.endswith(("_pb2.py", "_pb2.pyi", "_pb2_grpc.py"))
    }
    assert committed == set(fresh), "generated files without a proto (or the reverse)"
