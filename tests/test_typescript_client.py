"""The TypeScript client (clients/typescript) as an integrator gets it: a packed npm package.

``npm ci`` installs the package's locked dev dependencies once (kept in node_modules until
package-lock.json changes); ``npm pack`` builds it (``prepack``) and packs it. Then:

- the committed types are what ``openapi-typescript`` makes of the committed OpenAPI
  document (``npm run generate``);
- the tarball is publishable: public metadata, an ``exports`` map with a ``./grpc`` entry,
  the gRPC libraries only as optional peers, types (the generated ones too) in ``dist``,
  and the ``.proto`` files the gRPC entry loads, identical to the repository's ``proto/``;
- a fresh REST consumer installs the tarball alone (no gRPC library arrives), compiles
  the examples with ``tsc --strict`` and plays a whole match of every ruleset, taking moves
  from getLegalMoves, getView and suggestMove and sending them back unchanged; a consumer
  with deliberate type errors does not compile;
- a fresh gRPC consumer (the tarball and the gRPC libraries) compiles and plays the very
  same matches over gRPC;
- the REST entry bundles for the browser (esbuild, ``--platform=browser``) with no Node
  built-in, and the bundle plays against the REST door; the gRPC entry does not bundle so;
- both consumers compile a program that records a match of every ruleset with
  ``MatchRecorder`` (the platform's record and seat 0's) and gets ``VALID`` from
  ``replay`` through either door, the records being the JSON form the service writes;
  seat 0's record holds no tile of another seat's face-down discard, and replays up to
  the first of them, where it stops with ``MOVE_HIDDEN``;
- the same program takes back two moves (``undo``) and plays other moves from the
  earlier token: the record replays ``VALID``, and a take-back of too many is refused.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domino_rules import records, rules

from .cases import CASES
from .support.servers import Servers

#: npm installs and builds in clients/typescript once: its tests share them on one worker.
pytestmark = pytest.mark.one_worker

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "clients" / "typescript"
PROTO = ROOT / "proto"
DOCUMENT = ROOT / "service" / "domino_rules" / "web" / "openapi" / "openapi.json"
NAME = "domino-rules-client"
TIMEOUT = 300
#: `<ruleset>: MATCH_OVER after <moves> moves, ..., moves from legal=L view=V suggest=S, then ...`
LINE = re.compile(
    r"^(\w+): (\w+) after (\d+) moves, .*moves from legal=(\d+) view=(\d+) suggest=(\d+), "
    r"then (\w+) (\w+)$",
    re.M,
)
GRPC_LIBRARIES = ("@grpc/grpc-js", "@grpc/proto-loader")

#: What a REST consumer in Node compiles with: strict, Node's types, no DOM.
NODE_TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022",
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "lib": ["ES2022"],
        "types": ["node"],
        "strict": True,
        "noUncheckedIndexedAccess": True,
        "exactOptionalPropertyTypes": True,
        # as most projects do; the page below checks the REST entry's declarations in full
        "skipLibCheck": True,
        "outDir": "out",
    },
}

#: A page's script: the REST entry alone, with no Node types at all.
BROWSER_TS = """\
import { DominoRulesClient, DominoRulesError, type Move } from "domino-rules-client";

/** Starts a match and plays `count` moves, each suggested by a bot and sent back unchanged. */
export async function firstMoves(baseUrl: string, count: number): Promise<string> {
  const client = new DominoRulesClient(baseUrl);
  const game = await client.newGame({ ruleset: "tiu_u", players: 2, seed: "browser" });
  let { state, version } = game;
  for (let i = 0; i < count; i++) {
    const suggestion = await client.suggestMove({ state, level: "RANDOM", seed: "b" });
    const move: Move | undefined = suggestion.move;
    if (move === undefined) throw new Error("no suggestion");
    ({ state, version } = await client.applyMove({ state, move, expected_version: version }));
  }
  try {
    await client.getView({ state: "AAAA" });
  } catch (error) {
    if (error instanceof DominoRulesError) return `version ${version}, then ${error.reason}`;
    throw error;
  }
  return "not refused";
}
"""

#: Calls that must not compile: each line marked `// wrong` is a type error.
WRONG_TS = """\
import { DominoRulesClient, MatchRecorder } from "domino-rules-client";

const client = new DominoRulesClient("http://127.0.0.1:8080");
const game = await client.newGame({ ruleset: "chess", players: 2 }); // wrong
const { moves } = await client.getLegalMoves({ state: game.state });
await client.applyMove({ state: game.state, move: moves }); // wrong
await client.applyMove({ state: game.state, move: { seat: 0, kind: "JUMP" } }); // wrong
const status: number = (await client.getScore({ state: game.state })).status; // wrong
await client.suggestMove({ state: game.state, level: "GENIUS" }); // wrong
await client.getView({ state: game.state, seat: "north" }); // wrong
await client.replay({ record: { viewpoint: "EVERYONE" } }); // wrong
new MatchRecorder({ ruleset: "tiu_u", players: 2 }); // wrong
new MatchRecorder({ ruleset: "tiu_u", players: 2, newGame: game }).add(moves); // wrong
export { status };
"""

#: Records a match of every ruleset through any client (``DominoRules``): the platform's
#: record and seat 0's, both replayed; one JSON line per ruleset.
RECORD_TS = """\
import {
  DominoRulesError,
  MatchRecorder,
  type ApplyMoveResponse,
  type DominoRules,
  type Move,
  type Options,
  type ReplayResponse,
  type RulesetId,
} from "domino-rules-client";

import { chooser } from "./play.js";

export type Setups = Record<string, { players: number; options: Record<string, unknown> }>;

async function refusal(call: Promise<ReplayResponse>): Promise<string> {
  try {
    await call;
    return "accepted";
  } catch (error) {
    if (error instanceof DominoRulesError) return error.reason ?? error.code;
    throw error;
  }
}

export async function recordEveryRuleset(client: DominoRules, setups: Setups): Promise<void> {
  for (const info of (await client.listRulesets()).rulesets) {
    const ruleset = info.id as RulesetId;
    const setup = setups[ruleset];
    if (setup === undefined) throw new Error(`no setup for ${ruleset}`);
    const { players } = setup;
    const options = { [ruleset]: setup.options } as Options;
    const seed = `ts-record-${ruleset}`;
    const game = await client.newGame({ ruleset, players, options, seed });
    const platform = new MatchRecorder({ ruleset, players, options, newGame: game });
    const seat0 = new MatchRecorder({ ruleset, players, options, newGame: game, seat: 0 });
    const pick = chooser(seed);
    let { state, version, status } = game;
    while (status !== "MATCH_OVER") {
      const move: Move = pick((await client.getLegalMoves({ state })).moves);
      const answer = await client.applyMove({ state, move, expected_version: version });
      ({ state, version, status } = answer);
      const view = await client.getView({ state, seat: 0 });
      platform.add(move, answer.events, view.match_points);
      seat0.add(move, move.seat === 0 ? answer.events : view.events, view.match_points);
    }
    const secret = await client.replay({ record: platform.record });
    const unseeded = await refusal(client.replay({ record: seat0.record }));
    let wrongSeed = "accepted";
    try {
      seat0.reveal(`not ${seed}`);
    } catch {
      wrongSeed = "refused";
    }
    const score = await seat0.finish(client, state);
    platform.reveal(score.seed ?? "");
    const mine = await client.replay({ record: seat0.record, seat: 0, from_step: 1, to_step: 2 });
    const seeded = await client.replay({ record: JSON.parse(JSON.stringify(platform)) });
    console.log(JSON.stringify({
      ruleset,
      moves: platform.length,
      version,
      secret: secret.verdict,
      unseeded,
      wrongSeed,
      seed: seat0.seed,
      mine: [mine.verdict, mine.divergence?.reason ?? null, ...mine.steps.map((step) => step.step)],
      seeded: [seeded.verdict, seeded.moves, seeded.steps[0]?.hands.length],
      platform: platform.record,
      seat0: seat0.toJSON(),
    }));
  }
}

const same = (a: Move, b: Move): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A person's take-back against bots: a few moves of One-Arm Joe, `undo` of the last two, then
 * other moves from the earlier token to the end; the platform's record and seat 0's replayed.
 */
export async function takeBack(client: DominoRules, setups: Setups): Promise<void> {
  const ruleset: RulesetId = "one_arm_joe";
  const setup = setups[ruleset];
  if (setup === undefined) throw new Error(`no setup for ${ruleset}`);
  const { players } = setup;
  const options = { [ruleset]: setup.options } as Options;
  const seed = "ts-take-back";
  const game = await client.newGame({ ruleset, players, options, seed });
  const platform = new MatchRecorder({ ruleset, players, options, newGame: game });
  const seat0 = new MatchRecorder({ ruleset, players, options, newGame: game, seat: 0 });
  const pick = chooser(seed);
  const states: string[] = [game.state];
  const moves: Move[] = [];
  const play = async (state: string, move: Move): Promise<ApplyMoveResponse> => {
    const answer = await client.applyMove({ state, move });
    const view = await client.getView({ state: answer.state, seat: 0 });
    platform.add(move, answer.events, view.match_points);
    seat0.add(move, move.seat === 0 ? answer.events : view.events, view.match_points);
    return answer;
  };
  // a few moves, until two moves back the seat to act had a choice to make otherwise
  const choice = async (state: string): Promise<boolean> =>
    (await client.getLegalMoves({ state })).moves.length > 1;
  while (moves.length < 4 || !(await choice(states.at(-3)!))) {
    const state = states.at(-1)!;
    const move = pick((await client.getLegalMoves({ state })).moves);
    states.push((await play(state, move)).state);
    moves.push(move);
  }
  const takenBack = moves.at(-2)!;
  let state = states.at(-3)!;
  const points = (await client.getView({ state, seat: 0 })).match_points;
  platform.undo(2, points);
  seat0.undo(2, points);
  let tooMany = "accepted";
  try {
    platform.undo(moves.length - 1);
  } catch (error) {
    tooMany = error instanceof RangeError ? "refused" : String(error);
  }
  let other: boolean | undefined;
  let status = "IN_PROGRESS";
  while (status !== "MATCH_OVER") {
    const legal = (await client.getLegalMoves({ state })).moves;
    const choices = other === undefined ? legal.filter((move) => !same(move, takenBack)) : legal;
    const move = pick(choices.length > 0 ? choices : legal);
    other ??= !same(move, takenBack);
    ({ state, status } = await play(state, move));
  }
  const secret = await client.replay({ record: platform.record });
  await platform.finish(client, state);
  await seat0.finish(client, state);
  const seeded = await client.replay({ record: platform.record });
  const mine = await client.replay({ record: seat0.record, seat: 0 });
  const undone = secret.steps.filter((step) => step.undo);
  console.log(JSON.stringify({
    takeBack: ruleset,
    before: moves.length,
    steps: platform.length,
    other,
    tooMany,
    verdicts: [secret.verdict, seeded.verdict, mine.verdict],
    undone: undone.map((step) => [step.step, step.undo, step.move === undefined]),
    platform: platform.record,
  }));
}
"""

RECORD_ENTRY = {
    "rest": 'import { DominoRulesClient } from "domino-rules-client";\n'
    "const client = new DominoRulesClient(process.argv[2]);\n",
    "grpc": 'import { DominoRulesGrpcClient } from "domino-rules-client/grpc";\n'
    "const client = new DominoRulesGrpcClient(process.argv[2]);\n",
}


def _run(*args: str, cwd: Path = PACKAGE, ok: bool = True) -> subprocess.CompletedProcess[str]:
    program = shutil.which(args[0])
    assert program is not None, f"{args[0]} is required (Node 20+ and npm)"
    done = subprocess.run(
        [program, *args[1:]],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    if ok:
        assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def _bin(name: str) -> str:
    """A tool of the package's own dev dependencies (tsc, esbuild, openapi-typescript)."""
    return str(PACKAGE / "node_modules" / ".bin" / name)


def _installed_version(package: str) -> str:
    """The version of ``package`` the lock file installed: consumers get the same one."""
    manifest = PACKAGE / "node_modules" / package / "package.json"
    version = json.loads(manifest.read_text())["version"]
    assert isinstance(version, str)
    return version


@pytest.fixture(scope="module")
def dev_installed() -> Path:
    """The package's dev dependencies (``npm ci``, again only when the lock file is newer)."""
    installed = PACKAGE / "node_modules" / ".package-lock.json"
    lock = PACKAGE / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        _run("npm", "ci", "--no-audit", "--no-fund")
    return PACKAGE


@dataclass(frozen=True)
class Packed:
    tarball: Path
    files: frozenset[str]
    size: int
    unpacked_size: int


@pytest.fixture(scope="module")
def packed(dev_installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Packed:
    """``npm pack``: the ``prepack`` script builds dist/ and copies proto/, then it packs."""
    out = tmp_path_factory.mktemp("packed")
    stdout = _run("npm", "pack", "--json", "--pack-destination", str(out)).stdout
    (report,) = json.loads(stdout[stdout.index("[") :])
    return Packed(
        tarball=out / report["filename"],
        files=frozenset(entry["path"] for entry in report["files"]),
        size=report["size"],
        unpacked_size=report["unpackedSize"],
    )


@dataclass(frozen=True)
class Consumer:
    root: Path

    def tsc(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        return _run(_bin("tsc"), "--strict", *args, cwd=self.root, ok=ok)

    def node(self, *args: str) -> str:
        return _run("node", *args, cwd=self.root).stdout


def _consumer(root: Path, packed: Packed, *extra: str, sources: tuple[str, ...]) -> Consumer:
    """A fresh project that installs the tarball (and ``extra`` packages), with ``sources``
    copied from the package's examples/ as its own code."""
    root.mkdir()
    (root / "package.json").write_text(
        json.dumps({"name": root.name, "private": True, "type": "module"}) + "\n"
    )
    (root / "tsconfig.json").write_text(
        json.dumps({**NODE_TSCONFIG, "include": list(sources)}, indent=2) + "\n"
    )
    for source in sources:
        shutil.copy(PACKAGE / "examples" / source, root / source)
    packages = [str(packed.tarball), f"@types/node@{_installed_version('@types/node')}", *extra]
    _run(
        "npm",
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        *packages,
        cwd=root,
    )
    return Consumer(root)


@pytest.fixture(scope="module")
def rest_consumer(packed: Packed, tmp_path_factory: pytest.TempPathFactory) -> Consumer:
    root = tmp_path_factory.mktemp("consumers") / "rest-consumer"
    return _consumer(root, packed, sources=("play.ts", "play_rest.ts"))


@pytest.fixture(scope="module")
def grpc_consumer(packed: Packed, tmp_path_factory: pytest.TempPathFactory) -> Consumer:
    root = tmp_path_factory.mktemp("consumers") / "grpc-consumer"
    libraries = [f"{name}@{_installed_version(name)}" for name in GRPC_LIBRARIES]
    return _consumer(root, packed, *libraries, sources=("play.ts", "play_grpc.ts"))


def _matches(output: str) -> dict[str, tuple[str, ...]]:
    found = {m[1]: m.groups()[1:] for m in LINE.finditer(output)}
    assert set(found) == {r.id for r in rules.all_rulesets()}, output
    for ruleset, (status, moves, legal, view, suggest, reason, code) in found.items():
        assert status == "MATCH_OVER" and int(moves) > 0, (ruleset, output)
        # every source of moves was used, and each move was applied
        assert int(legal) > 0 and int(view) > 0 and int(suggest) > 0, (ruleset, output)
        assert int(legal) + int(view) + int(suggest) == int(moves), (ruleset, output)
        assert (reason, code) == ("GAME_OVER", "FAILED_PRECONDITION"), (ruleset, output)
    return found


# ------------------------------------------------------------------ the package


def test_generated_types_are_fresh(dev_installed: Path, tmp_path: Path) -> None:
    out = tmp_path / "schema.ts"
    _run(_bin("openapi-typescript"), str(DOCUMENT), "--output", str(out))
    assert out.read_text() == (PACKAGE / "src" / "schema.ts").read_text(), (
        "clients/typescript/src/schema.ts is stale: run `npm run generate` there"
    )


def test_the_package_is_publishable(packed: Packed) -> None:
    manifest = json.loads((PACKAGE / "package.json").read_text())
    assert manifest["name"] == NAME and "private" not in manifest
    for field in ("version", "description", "license", "keywords", "files", "exports"):
        assert manifest.get(field), field
    assert manifest["type"] == "module"
    assert set(manifest["exports"]) >= {".", "./grpc"}
    # nothing at run time for a REST user; the gRPC libraries are optional peers
    assert not manifest.get("dependencies")
    assert set(manifest["peerDependencies"]) == set(GRPC_LIBRARIES)
    assert all(manifest["peerDependenciesMeta"][name]["optional"] for name in GRPC_LIBRARIES)

    wanted = {"package.json", "README.md", "dist/index.js", "dist/grpc.js"}
    wanted |= {"dist/index.d.ts", "dist/grpc.d.ts", "dist/schema.d.ts"}
    assert wanted <= packed.files, sorted(packed.files)
    for entry in manifest["exports"].values():
        for target in [entry] if isinstance(entry, str) else entry.values():
            assert target.removeprefix("./") in packed.files, target
    assert not {f for f in packed.files if f.startswith(("src/", "examples/", "node_modules/"))}
    assert packed.size < 100_000, packed.size


def test_the_shipped_protos_are_the_repository_s(packed: Packed) -> None:
    """The gRPC entry loads these at run time: the contract and every import in proto/."""
    with tarfile.open(packed.tarball) as tar:
        shipped = {
            member.name.removeprefix("package/proto/"): tar.extractfile(member)
            for member in tar.getmembers()
            if member.name.startswith("package/proto/") and member.isfile()
        }
        contents = {name: file.read() for name, file in shipped.items() if file is not None}
    assert set(contents) >= {
        "domino_rules/v1/domino_rules.proto",
        "google/api/annotations.proto",
        "google/api/http.proto",
    }
    assert {p.relative_to(PROTO).as_posix() for p in (PROTO / "domino_rules").rglob("*.proto")} <= (
        set(contents)
    )
    for name, content in contents.items():
        assert content == (PROTO / name).read_bytes(), f"proto/{name} differs in the package"


# ------------------------------------------------------------------ consumers


def test_a_rest_consumer_installs_no_grpc_library(rest_consumer: Consumer) -> None:
    modules = rest_consumer.root / "node_modules"
    assert (modules / NAME / "dist" / "schema.d.ts").is_file()
    assert not (modules / "@grpc").exists(), sorted(p.name for p in modules.iterdir())
    assert not (modules / "protobufjs").exists()


def test_wrong_calls_do_not_compile(rest_consumer: Consumer) -> None:
    """The types are real: each deliberately wrong call is an error, and nothing else is."""
    (rest_consumer.root / "wrong.ts").write_text(WRONG_TS)
    config = {"extends": "./tsconfig.json", "include": ["wrong.ts"]}
    (rest_consumer.root / "tsconfig.wrong.json").write_text(json.dumps(config) + "\n")
    done = rest_consumer.tsc("-p", "tsconfig.wrong.json", "--noEmit", ok=False)
    assert done.returncode != 0
    errors = {
        int(m[1]) for m in re.finditer(r"^wrong\.ts\((\d+),\d+\): error TS", done.stdout, re.M)
    }
    marked = {n for n, line in enumerate(WRONG_TS.splitlines(), 1) if line.endswith("// wrong")}
    assert errors == marked, done.stdout


def test_rest_and_grpc_consumers_play_the_same_matches(
    rest_consumer: Consumer, grpc_consumer: Consumer, servers: Servers
) -> None:
    rest_consumer.tsc("-p", "tsconfig.json")
    grpc_consumer.tsc("-p", "tsconfig.json")
    rest = rest_consumer.node("out/play_rest.js", servers.http_base, "pytest")
    grpc = grpc_consumer.node("out/play_grpc.js", servers.grpc_target, "pytest")
    assert "refused: BAD_PLAYER_COUNT (INVALID_ARGUMENT, HTTP 400)" in rest
    assert "refused: STALE_STATE (ABORTED, HTTP 409) at version 0" in rest
    assert "refused: BAD_PLAYER_COUNT (INVALID_ARGUMENT, HTTP -)" in grpc
    assert "refused: STALE_STATE (ABORTED, HTTP -) at version 0" in grpc
    assert _matches(rest) == _matches(grpc), "the two doors played different matches"
    # the same lines, game ids and final versions included
    assert [m[0] for m in LINE.finditer(rest)] == [m[0] for m in LINE.finditer(grpc)]


@pytest.fixture
def browser_project(rest_consumer: Consumer) -> Path:
    page = rest_consumer.root / "page"
    page.mkdir(exist_ok=True)
    (page / "page.ts").write_text(BROWSER_TS)
    config = {
        "compilerOptions": {
            **NODE_TSCONFIG["compilerOptions"],
            "lib": ["ES2022", "DOM"],
            "types": [],
            "skipLibCheck": False,
            "skipDefaultLibCheck": True,
            "outDir": "out",
        },
        "include": ["page.ts"],
    }
    (page / "tsconfig.json").write_text(json.dumps(config, indent=2) + "\n")
    return page


def test_the_rest_entry_bundles_for_the_browser(
    browser_project: Path, rest_consumer: Consumer, grpc_consumer: Consumer, servers: Servers
) -> None:
    # its types need no Node types: the page compiles with the DOM's alone
    rest_consumer.tsc("-p", "page/tsconfig.json", "--noEmit")
    esbuild = (_bin("esbuild"), "--bundle", "--platform=browser", "--format=esm")
    _run(*esbuild, "page.ts", "--outfile=page.js", "--metafile=meta.json", cwd=browser_project)
    inputs = set(json.loads((browser_project / "meta.json").read_text())["inputs"])
    assert f"../node_modules/{NAME}/dist/rest.js" in inputs, inputs
    assert all(i == "page.ts" or i.startswith(f"../node_modules/{NAME}/dist/") for i in inputs)
    # the bundle works: run it where `fetch` is, against the REST door
    script = (
        "const { firstMoves } = await import('./page.js');"
        f"console.log(await firstMoves({servers.http_base!r}, 6));"
    )
    assert _run("node", "--input-type=module", "-e", script, cwd=browser_project).stdout == (
        "version 6, then BAD_STATE_TOKEN\n"
    )

    # the check can fail: the gRPC entry needs Node, and does not bundle for the browser
    (grpc_consumer.root / "grpc_page.js").write_text(
        f'import {{ DominoRulesGrpcClient }} from "{NAME}/grpc";\n'
        "export const client = new DominoRulesGrpcClient();\n"
    )
    refused = _run(*esbuild, "grpc_page.js", "--outfile=out.js", cwd=grpc_consumer.root, ok=False)
    assert refused.returncode != 0 and "built into node" in refused.stderr, refused.stderr


# ------------------------------------------------------------------ match records


def _record(consumer: Consumer, door: str, address: str) -> dict[str, dict[str, Any]]:
    """Compile and run the recording program in ``consumer`` through ``door``; its report
    by ruleset, and the take-back's under ``"take-back"``."""
    (consumer.root / "record.ts").write_text(RECORD_TS)
    setups = {
        ruleset: {"players": cases.short.players, "options": dict(cases.short.options)}
        for ruleset, cases in CASES.items()
    }
    (consumer.root / f"record_{door}.ts").write_text(
        RECORD_ENTRY[door]
        + 'import { recordEveryRuleset, takeBack } from "./record.js";\n'
        + f"const setups = {json.dumps(setups)};\n"
        + "await recordEveryRuleset(client, setups);\n"
        + "await takeBack(client, setups);\n"
        + ("client.close();\n" if door == "grpc" else "")
    )
    config = {
        "extends": "./tsconfig.json",
        "include": ["play.ts", "record.ts", f"record_{door}.ts"],
    }
    (consumer.root / "tsconfig.record.json").write_text(json.dumps(config) + "\n")
    consumer.tsc("-p", "tsconfig.record.json")
    out = consumer.node(f"out/record_{door}.js", address)
    report = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return {entry.get("ruleset", "take-back"): entry for entry in report}


def test_match_records_replay_valid_through_either_door(
    rest_consumer: Consumer, grpc_consumer: Consumer, servers: Servers
) -> None:
    by_rest = _record(rest_consumer, "rest", servers.http_base)
    by_grpc = _record(grpc_consumer, "grpc", servers.grpc_target)
    take_backs = [by_rest.pop("take-back"), by_grpc.pop("take-back")]
    assert set(by_rest) == {r.id for r in rules.all_rulesets()}, sorted(by_rest)
    for ruleset, entry in by_rest.items():
        seed = f"ts-record-{ruleset}"
        assert entry["moves"] == entry["version"] > 0, ruleset
        # while the seed is secret: the platform's record replays from its first state, a
        # seat's cannot be replayed at all, and a wrong seed is refused
        assert (entry["secret"], entry["unseeded"], entry["wrongSeed"]) == (
            "VALID",
            "BAD_RECORD",
            "refused",
        ), ruleset
        platform, seat0 = entry["platform"], entry["seat0"]
        # seat 0 never saw the tile of another seat's face-down discard: its record holds
        # none, and replays up to the first of them (the platform's holds every tile)
        hidden = _face_down_discards(seat0)
        assert all("tile" not in seat0["moves"][step - 1]["move"] for step in hidden), ruleset
        assert all("tile" in platform["moves"][step - 1]["move"] for step in hidden), ruleset
        if ruleset in ("tsair_deng", "dancing_dragons"):
            assert hidden, f"{ruleset}: no face-down discard of another seat to hide"
        mine: list[str | int | None]
        if hidden:
            first = hidden[0]
            mine = ["DIVERGED", "MOVE_HIDDEN", *(step for step in (1, 2) if step < first)]
        else:
            mine = ["VALID", None, 1, 2]
        assert entry["seed"] == seed and entry["mine"] == mine, ruleset
        players = CASES[ruleset].short.players
        assert entry["seeded"] == ["VALID", entry["moves"], players], ruleset
        assert platform["viewpoint"] == "MOVER" and "first_state" in platform
        assert seat0["viewpoint"] == "SEAT" and "first_state" not in seat0
        assert seat0["seat"] == 0 and seat0["seed"] == platform["seed"] == seed
        for record in (platform, seat0):  # the JSON form the service writes
            assert records.to_json(records.from_json(record)) == record, ruleset
    # a take-back, then other moves from the earlier token, replays VALID
    for take_back in take_backs:
        before = take_back["before"]
        assert take_back["verdicts"] == ["VALID", "VALID", "VALID"], take_back["verdicts"]
        assert take_back["undone"] == [[before + 1, 2, True]], take_back["undone"]
        assert take_back["other"] is True and take_back["tooMany"] == "refused"
        record = take_back["platform"]
        assert record["moves"][before]["undo"] == 2 and "move" not in record["moves"][before]
        assert len(record["moves"]) == take_back["steps"] > before + 1
        assert records.to_json(records.from_json(record)) == record
    # the same matches, recorded alike, through the other door (tokens aside)
    for entry in [*by_rest.values(), *by_grpc.values(), *take_backs]:
        del entry["platform"]["first_state"]
    assert by_rest == by_grpc
    assert take_backs[0] == take_backs[1]


def _face_down_discards(record: dict[str, Any]) -> list[int]:
    """The steps of a seat's record that are another seat's discard: laid face down."""
    seat = record["seat"]
    return [
        step
        for step, recorded in enumerate(record.get("moves", []), 1)
        if recorded.get("move", {}).get("kind") == "DISCARD"
        and recorded["move"].get("seat", 0) != seat
    ]
