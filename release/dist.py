"""``make dist``: every artifact of a release, all of one version, in ``dist/``.

From the repository root, in the project's venv (``make dist`` installs it first)::

    python release/dist.py                  # into dist/ (emptied first)
    python release/dist.py --out DIR        # elsewhere
    python release/dist.py --image context  # the image's build context, even with an engine

It writes, for version ``V`` (``pyproject.toml``; every other version must be the same):

* ``domino_rules-V-py3-none-any.whl`` and ``domino_rules-V.tar.gz``: the service;
* ``domino_rules_client-V-py3-none-any.whl`` and ``domino_rules_client-V.tar.gz``: the
  Python client;
* ``domino-rules-client-V.tgz``: the TypeScript client (``npm pack`` in
  ``clients/typescript``, after ``npm ci`` when ``node_modules`` is older than its lock);
* ``domino-rules-contract-V.tar.gz``: the contract: the ``.proto`` files (with the two
  vendored ``google/api`` files), a descriptor set of them (``FileDescriptorSet``,
  imports and comments included), the OpenAPI document and the JSON Schemas (a match
  record's, and every message of the OpenAPI document as ``$defs``);
* ``domino-rules-V-image.tar``: the container image (``docker save`` or ``podman save``
  of ``domino-rules:V``) when an engine is present (``deploy/engine.sh``); without one,
  ``domino-rules-V-image-context.tar.gz``, the image's build context (``docker build -t
  domino-rules:V - < domino-rules-V-image-context.tar.gz``);
* ``SHA256SUMS``: the SHA-256 of each.

It ends with the list of artifacts and their sizes. Nothing is published:
``docs/RELEASING.md`` gives the maintainer's commands.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TS_CLIENT = ROOT / "clients" / "typescript"
PY_CLIENT = ROOT / "clients" / "python"
OPENAPI = ROOT / "service" / "domino_rules" / "web" / "openapi"
#: The files the image's build needs: those of the repository less what .dockerignore
#: leaves out of the context (the top-level folders below), and the Dockerfile.
IMAGE_LEFT_OUT = {".ci", "bench", "clients", "deploy", "tests", "release"}


def versions() -> dict[str, str]:
    """Every place that states the release's version, and what it says."""
    found = {
        "pyproject.toml": tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
            "version"
        ],
        "clients/python/pyproject.toml": tomllib.loads((PY_CLIENT / "pyproject.toml").read_text())[
            "project"
        ]["version"],
        "clients/typescript/package.json": json.loads((TS_CLIENT / "package.json").read_text())[
            "version"
        ],
    }
    for path in (
        "service/domino_rules/__init__.py",
        "clients/python/src/domino_rules_client/__init__.py",
    ):
        match = re.search(r'^__version__ = "([^"]+)"', (ROOT / path).read_text(), re.M)
        found[path] = match.group(1) if match else "(none)"
    return found


def version() -> str:
    """The release's version; ``SystemExit`` when its parts disagree."""
    found = versions()
    if len(set(found.values())) != 1:
        lines = "\n".join(f"  {path}: {v}" for path, v in found.items())
        raise SystemExit(f"dist: the versions differ; a release has one:\n{lines}")
    return found["pyproject.toml"]


def run(*command: str | Path, cwd: Path = ROOT) -> None:
    print("+", " ".join(map(str, command)), file=sys.stderr, flush=True)
    subprocess.run([str(c) for c in command], cwd=cwd, check=True)


def python_packages(out: Path) -> None:
    for project in (ROOT, PY_CLIENT):
        run(sys.executable, "-m", "build", "--outdir", out, project)


def npm_package(out: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("dist: npm is not installed (Node 20 or later brings it)")
    installed = TS_CLIENT / "node_modules" / ".package-lock.json"
    lock = TS_CLIENT / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        run(npm, "ci", "--no-audit", "--no-fund", cwd=TS_CLIENT)  # the locked dev dependencies
    run(npm, "pack", "--pack-destination", out, cwd=TS_CLIENT)  # builds it first (prepack)


def _tar(path: Path, files: dict[str, bytes]) -> None:
    """A gzipped tarball of ``files`` (name: bytes), the same bytes for the same files."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(files[name]), 0o644, 0
            tar.addfile(info, io.BytesIO(files[name]))
    path.write_bytes(gzip.compress(raw.getvalue(), mtime=0))


def descriptor_set() -> bytes:
    """The contract compiled: a ``FileDescriptorSet`` with its imports and comments."""
    from grpc_tools import protoc

    include = Path(protoc.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "contract.binpb"
        args = [
            "protoc",
            f"-I{ROOT / 'proto'}",
            f"-I{include}",
            "--include_imports",
            "--include_source_info",
            f"--descriptor_set_out={out}",
            "domino_rules/v1/domino_rules.proto",
        ]
        if protoc.main(args) != 0:
            raise SystemExit("dist: protoc failed")
        return out.read_bytes()


def messages_schema(openapi: dict[str, Any], version: str) -> dict[str, Any]:
    """Every message of the OpenAPI document as one JSON Schema (2020-12), under
    ``$defs``: ``{"$ref": ".../messages.schema.json#/$defs/NewGameResponse"}``."""
    text = json.dumps(openapi["components"]["schemas"])
    defs = json.loads(text.replace('"#/components/schemas/', '"#/$defs/'))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://domino-rules/contract/{version}/messages.schema.json",
        "title": f"domino-rules {version}: the messages of the REST door (proto3 JSON)",
        "description": "The schemas of the OpenAPI document's components, as $defs.",
        "$defs": defs,
    }


CONTRACT_README = """\
# domino-rules {version}: the contract

- `proto/`: the gRPC contract, `domino_rules/v1/domino_rules.proto`, and the two files of
  googleapis it imports (`google/api/annotations.proto`, `google/api/http.proto`).
  Compile with `-I proto`.
- `domino_rules.binpb`: the same, compiled: a `google.protobuf.FileDescriptorSet` with
  every import and the comments (`protoc --include_imports --include_source_info`), for
  tools that take one (`grpcurl -protoset`, `buf`, dynamic clients).
- `openapi.json`: the REST door, OpenAPI 3.1 (what the service serves at `/openapi.json`).
- `schemas/match-record.schema.json`: the JSON Schema of a match record's JSON form
  (served at `/schemas/match-record.json`).
- `schemas/messages.schema.json`: every message of the REST door, one JSON Schema with
  `$defs` (`#/$defs/NewGameResponse`, ...).

What a minor and a major version may change in each: `docs/VERSIONING.md` of the
service's repository.
"""


def contract_bundle(out: Path, version: str) -> None:
    top = f"domino-rules-contract-{version}"
    files: dict[str, bytes] = {}
    for proto in sorted((ROOT / "proto").rglob("*.proto")):
        files[f"{top}/proto/{proto.relative_to(ROOT / 'proto')}"] = proto.read_bytes()
    openapi_bytes = (OPENAPI / "openapi.json").read_bytes()
    files[f"{top}/openapi.json"] = openapi_bytes
    files[f"{top}/schemas/match-record.schema.json"] = (
        OPENAPI / "match-record.schema.json"
    ).read_bytes()
    schema = messages_schema(json.loads(openapi_bytes), version)
    files[f"{top}/schemas/messages.schema.json"] = (json.dumps(schema, indent=2) + "\n").encode()
    files[f"{top}/domino_rules.binpb"] = descriptor_set()
    files[f"{top}/README.md"] = CONTRACT_README.format(version=version).encode()
    files[f"{top}/VERSION"] = f"{version}\n".encode()
    _tar(out / f"{top}.tar.gz", files)


def _engine() -> str | None:
    found = subprocess.run(
        [str(ROOT / "deploy" / "engine.sh")], capture_output=True, text=True, check=False
    )
    return found.stdout.strip() if found.returncode == 0 else None


def image_context(out: Path, version: str) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    files: dict[str, bytes] = {}
    for name in filter(None, listed.split("\0")):
        top = name.split("/", 1)[0]
        path = ROOT / name
        if top in IMAGE_LEFT_OUT or not path.is_file():
            continue
        files[name] = path.read_bytes()
    _tar(out / f"domino-rules-{version}-image-context.tar.gz", files)


def image(out: Path, version: str, mode: str) -> None:
    engine = _engine() if mode == "auto" else None
    if engine is None:
        if mode == "auto":
            print(
                "dist: no container engine (deploy/engine.sh): writing the image's build "
                "context instead of the image",
                file=sys.stderr,
            )
        image_context(out, version)
        return
    tag = f"domino-rules:{version}"
    run("make", "image", f"IMAGE={tag}", f"ENGINE={engine}")
    run(*engine.split(), "save", "-o", out / f"domino-rules-{version}-image.tar", tag)


def checksums(out: Path) -> None:
    lines = [
        f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}\n"
        for path in sorted(out.iterdir())
        if path.name != "SHA256SUMS"
    ]
    (out / "SHA256SUMS").write_text("".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument(
        "--image",
        choices=("auto", "context", "none"),
        default="auto",
        help="auto: the image with an engine, else its build context (default)",
    )
    args = parser.parse_args(argv)
    release = version()
    out: Path = args.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    python_packages(out)
    npm_package(out)
    contract_bundle(out, release)
    if args.image != "none":
        image(out, release, args.image)
    checksums(out)
    print(f"\ndomino-rules {release}: {out}")
    for path in sorted(out.iterdir()):
        print(f"  {path.stat().st_size:>10,}  {path.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
