"""The artifacts of ``make dist``, installed as a platform installs them.

``release/dist.py`` makes a release's artifacts into a temporary directory, which is all
the rest of the test uses: each package is installed into a fresh environment (a venv
for each Python package, an npm project for the tarball) made outside the repository,
with no path into the source tree (no ``PYTHONPATH``, no editable install, no ``file:``
link), and runs its README's example against an instance served by the service's own
installed wheel. Only third-party dependencies come from the package registries (the
service's at the versions of ``constraints.txt``, copied next to the artifacts; the gRPC
libraries of the clients). The Python client's REST part and the npm package's REST
entry install with no registry at all (``pip --no-index``, ``npm --offline``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import domino_rules

ROOT = Path(__file__).resolve().parent.parent
VERSION = domino_rules.__version__
TIMEOUT = 600

pytestmark = pytest.mark.slow


def _env() -> dict[str, str]:
    """This process's environment, less whatever points Python into the source tree."""
    return {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}


def _run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env or _env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def _blocks(readme: Path, language: str) -> list[str]:
    """The README's code blocks in ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```", readme.read_text(), re.M | re.S)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``make dist``'s artifacts (the image's build context, not the image), copied where
    nothing else of the repository is."""
    built = tmp_path_factory.mktemp("dist") / "dist"
    _run(
        sys.executable,
        ROOT / "release" / "dist.py",
        "--out",
        built,
        "--image",
        "context",
        cwd=ROOT,
        env=dict(os.environ),  # the repository's venv, which makes the release
    )
    release = tmp_path_factory.mktemp("release")
    for artifact in built.iterdir():
        shutil.copy(artifact, release)
    shutil.copy(ROOT / "constraints.txt", release)
    return release


EXPECTED = {
    f"domino_rules-{VERSION}-py3-none-any.whl",
    f"domino_rules-{VERSION}.tar.gz",
    f"domino_rules_client-{VERSION}-py3-none-any.whl",
    f"domino_rules_client-{VERSION}.tar.gz",
    f"domino-rules-client-{VERSION}.tgz",
    f"domino-rules-contract-{VERSION}.tar.gz",
    f"domino-rules-{VERSION}-image-context.tar.gz",
    "SHA256SUMS",
}


def test_dist_makes_every_artifact_of_one_version(dist: Path) -> None:
    assert {p.name for p in dist.iterdir()} >= EXPECTED
    sums = (dist / "SHA256SUMS").read_text()
    assert {line.split()[1] for line in sums.splitlines()} == EXPECTED - {"SHA256SUMS"}
    with tarfile.open(dist / f"domino-rules-contract-{VERSION}.tar.gz") as bundle:
        names = set(bundle.getnames())
    top = f"domino-rules-contract-{VERSION}"
    assert {
        f"{top}/proto/domino_rules/v1/domino_rules.proto",
        f"{top}/proto/google/api/annotations.proto",
        f"{top}/proto/google/api/http.proto",
        f"{top}/domino_rules.binpb",
        f"{top}/openapi.json",
        f"{top}/schemas/match-record.schema.json",
        f"{top}/schemas/messages.schema.json",
        f"{top}/README.md",
        f"{top}/VERSION",
    } <= names
    with tarfile.open(dist / f"domino-rules-{VERSION}-image-context.tar.gz") as context:
        names = set(context.getnames())
    assert {
        "Dockerfile",
        "pyproject.toml",
        "constraints.txt",
        "service/domino_rules/cli.py",
    } <= names
    assert not any(n.startswith(("tests/", "clients/")) for n in names)
    with tarfile.open(dist / f"domino-rules-client-{VERSION}.tgz") as npm:
        package = json.load(npm.extractfile("package/package.json"))  # type: ignore[arg-type]
    assert package["version"] == VERSION
    for wheel in dist.glob("*.whl"):
        with zipfile.ZipFile(wheel) as archive:
            metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
            assert f"\nVersion: {VERSION}\n" in archive.read(metadata).decode()


@dataclass
class Instance:
    """The served instance: its addresses, and the interpreter of the service's venv."""

    grpc: str
    rest: str
    python: Path


def _venv(root: Path) -> Path:
    _run(sys.executable, "-m", "venv", root, cwd=root.parent)
    python = root / "bin" / "python"
    _run(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip", cwd=root.parent)
    return python


@pytest.fixture(scope="module")
def served(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    """The service's wheel in a venv of its own, serving on free ports."""
    home = tmp_path_factory.mktemp("service")
    python = _venv(home / "venv")
    wheel = dist / f"domino_rules-{VERSION}-py3-none-any.whl"
    _run(python, "-m", "pip", "install", "--quiet", "-c", dist / "constraints.txt", wheel, cwd=home)
    command = home / "venv" / "bin" / "domino-rules"
    assert _run(command, "--version", cwd=home).split() == ["domino-rules", VERSION]
    located = _run(python, "-c", "import domino_rules; print(domino_rules.__file__)", cwd=home)
    assert Path(located.strip()).is_relative_to(home), located
    process = subprocess.Popen(
        [command, "serve", "--grpc-port", "0", "--http-port", "0"],
        cwd=home,
        env={**_env(), "DOMINO_RULES_GRPC_WORKERS": "1", "DOMINO_RULES_HTTP_WORKERS": "2"},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        grpc_line, rest_line = process.stdout.readline(), process.stdout.readline()
        grpc = re.fullmatch(r"gRPC listening on (127\.0\.0\.1:\d+)\n", grpc_line)
        rest = re.fullmatch(r"REST listening on (http://127\.0\.0\.1:\d+)\n", rest_line)
        assert grpc and rest, (grpc_line, rest_line)
        yield Instance(grpc.group(1), rest.group(1), python)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(60)
        if process.stdout is not None:
            process.stdout.close()


def test_the_service_readme_example_runs_with_the_installed_wheel(
    served: Instance, tmp_path: Path
) -> None:
    """README's "From Python, with this package installed": the gRPC stubs of the wheel."""
    (example,) = [b for b in _blocks(ROOT / "README.md", "python") if "DominoRulesStub" in b]
    script = tmp_path / "example.py"
    script.write_text(
        example.replace("127.0.0.1:50051", served.grpc) + "print(after.version, after.status)\n"
    )
    assert _run(served.python, script, cwd=tmp_path).split() == ["1", "1"]


def test_the_python_client_readme_examples_run_from_its_wheel(
    dist: Path, served: Instance, tmp_path: Path
) -> None:
    """A fresh venv, the client's wheel with no index at all (REST needs nothing else),
    the README's two REST examples (a match with bots; a match record) as one script."""
    python = _venv(tmp_path / "venv")
    wheel = dist / f"domino_rules_client-{VERSION}-py3-none-any.whl"
    _run(python, "-m", "pip", "install", "--quiet", "--no-index", wheel, cwd=tmp_path)
    readme = tmp_path / "README.md"
    with zipfile.ZipFile(wheel) as archive:  # the README as the package carries it
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        readme.write_text(archive.read(metadata).decode().split("\n\n", 1)[1])
    examples = _blocks(readme, "python")
    assert len(examples) >= 2
    assert f"domino_rules_client-{VERSION}-py3-none-any.whl" in readme.read_text()
    script = tmp_path / "example.py"
    script.write_text(
        "\n".join(examples[:2]).replace("http://127.0.0.1:8080", served.rest)
        + "\nprint('played', Path('match.json').exists())\n"
    )
    output = _run(python, script, cwd=tmp_path)
    assert output.strip().endswith("played True"), output
    assert "VALID" in output


def test_the_typescript_readme_examples_run_from_the_tarball(
    dist: Path, served: Instance, tmp_path: Path
) -> None:
    """A fresh npm project: the tarball installed offline (its REST entry needs no other
    package), then TypeScript and the gRPC libraries from the registry, and the README's
    REST and gRPC examples compiled with ``tsc --strict`` and run."""
    npm = shutil.which("npm")
    assert npm is not None, "Node 20+ and npm are required"
    project = tmp_path / "project"
    project.mkdir()
    (project / "package.json").write_text(
        json.dumps({"name": "platform", "private": True, "type": "module"})
    )
    tarball = dist / f"domino-rules-client-{VERSION}.tgz"
    quiet = ("--no-audit", "--no-fund")
    _run(npm, "install", *quiet, "--offline", tarball, cwd=project)
    installed = json.loads((project / "node_modules/domino-rules-client/package.json").read_text())
    assert installed["version"] == VERSION
    assert not (project / "node_modules" / "@grpc").exists()
    _run(npm, "install", *quiet, "typescript@5", "@grpc/grpc-js", "@grpc/proto-loader", cwd=project)
    readme = project / "node_modules" / "domino-rules-client" / "README.md"
    assert f"domino-rules-client-{VERSION}.tgz" in readme.read_text()
    blocks = _blocks(readme, "ts")
    rest = next(b for b in blocks if "new DominoRulesClient(" in b and "listRulesets" in b)
    grpc = next(b for b in blocks if "new DominoRulesGrpcClient(" in b)
    (project / "rest.ts").write_text(rest.replace("http://127.0.0.1:8080", served.rest))
    (project / "grpc.ts").write_text(
        grpc.replace("127.0.0.1:50051", served.grpc) + 'console.log("grpc done");\n'
    )
    (project / "tsconfig.json").write_text(
        json.dumps(
            {
                "compilerOptions": {
                    "strict": True,
                    "target": "ES2022",
                    "module": "NodeNext",
                    "moduleResolution": "NodeNext",
                    "outDir": "out",
                    "skipLibCheck": True,
                },
                "files": ["rest.ts", "grpc.ts"],
            }
        )
    )
    _run(project / "node_modules" / ".bin" / "tsc", "-p", ".", cwd=project)
    node = shutil.which("node")
    assert node is not None
    # the winners, then the seed, revealed at the end of the match
    assert "my-seed" in _run(node, "out/rest.js", cwd=project)
    assert _run(node, "out/grpc.js", cwd=project).strip() == "grpc done"
