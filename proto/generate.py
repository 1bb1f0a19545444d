"""Regenerate the Python code of the protos: ``python proto/generate.py``.

Compiles every ``.proto`` under ``proto/domino_rules`` with ``-I proto`` into
``service/`` (or ``--out DIR``), so generated imports (``from domino_rules.v1 import ...``)
work inside the package. The google/api protos are vendored for compiling only; at run
time their code comes from googleapis-common-protos. A test regenerates into a temporary
folder and fails when the committed code is stale.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from grpc_tools import protoc

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
SOURCES = sorted(p.relative_to(PROTO).as_posix() for p in (PROTO / "domino_rules").rglob("*.proto"))
#: Files with a service also get ``*_pb2_grpc.py``.
SERVICES = [s for s in SOURCES if "service " in (PROTO / s).read_text()]


def generate(out: pathlib.Path) -> list[pathlib.Path]:
    """Generate into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    include = pathlib.Path(protoc.__file__).parent / "_proto"
    args = ["protoc", f"-I{PROTO}", f"-I{include}", f"--python_out={out}", f"--pyi_out={out}"]
    if protoc.main(args + SOURCES) != 0:
        raise SystemExit("protoc failed")
    if (
        protoc.main(["protoc", f"-I{PROTO}", f"-I{include}", f"--grpc_python_out={out}", *SERVICES])
        != 0
    ):
        raise SystemExit("protoc (grpc) failed")
    return sorted(
        p for p in out.rglob("*") if p.name.endswith(("_pb2.py", "_pb2.pyi", "_pb2_grpc.py"))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "service")
    args = parser.parse_args(argv)
    for path in generate(args.out):
        print(path.relative_to(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
