#!/usr/bin/env python3
"""What a token costs a process: the CPU to refuse or accept one, forged or not, and the
memory a long token leaves behind.

**CPU** (in process, ``RulesService.decode`` with no cache of minted games): a corpus of
tokens, each kind unsealed and sealed (AES-256-GCM), decoded ``--rounds`` (30) times in
interleaved rounds: the legal mid-hand token of a plain ApplyMove (the reference), the
longest legal matches of every ruleset, their last state in progress and their final
state (Tiu U and Tsair Deng at 1,000 hands, Throw-up at 20 hands a player, One Arm Joe
at 9 players to a target no one reaches), and
forgeries: histories past the options' last hand and past ``MAX_HANDS``, repeated
events past ``MAX_EVENTS``, a hand of hundreds of tiles, a deflate bomb, a token just
over 64 KiB and random bytes of near 64 KiB. Per kind: the answer (ok or the refusal),
the token's size, the median and worst CPU per call (``time.process_time``) and the
worst as a multiple of the reference's median, and whether the worst is within 5 ms;
then the kinds over it, and the collections of the cyclic garbage collector during the
rounds (a full one walks the whole process and lands in one call's figure). The heap is
set up as a serving process sets its own (``lifecycle.settle_heap``: start-up's objects
frozen, young objects collected less often); ``--python-gc`` keeps Python's defaults. Target
(issue "Fleet-ready"): every token refused or accepted within 5 ms of CPU.

**Memory** (``--memory``): ``domino-rules serve`` with one gRPC process and one REST
worker, sealed tokens, and the attack of the issue: ``--calls`` (1,500) ApplyMoves, per
door, on one long Tiu U token (``--hands``, 250 hands of history), each answered with a
new token the process keeps in its cache of minted games; the resident memory (VmRSS)
of the gRPC process and of the REST worker before and after. Target: at most 40 MiB
of growth per process. Linux only (``/proc``); traffic only to 127.0.0.1.

Figures only; no thresholds.

Usage::

    python bench/refusal.py [--rounds 30] [--python-gc] [--json]
    python bench/refusal.py --memory [--calls 1500] [--hands 250]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import dataclasses
import gc
import hashlib
import json
import os
import random
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import interleaved, load_average, load_line, rss_mib, serving
from domino_rules import games, rules
from domino_rules.api import ApiError, RulesService
from domino_rules.bots.playout import play_out
from domino_rules.rules import Event, EventKind, HandResult, Match, Status
from domino_rules.rules.limits import MAX_EVENTS, MAX_HANDS
from domino_rules.serving.lifecycle import settle_heap
from domino_rules.state import packing
from domino_rules.state.codec import Game
from domino_rules.state.tokens import KeyRing, TokenCodec

GAME_ID = "ab" * 12
TARGET_MS = 5.0
#: Each game's longest match: its largest table, and options that let it last the most
#: hands the framework allows (``GamePackage.long_match``).
LONGEST = {
    game.id: (dict(game.long_match(MAX_HANDS)[0]), game.long_match(MAX_HANDS)[1])
    for game in games.all_games()
}
#: The game whose states are forged: Tiu U's (a match of up to 1,000 hands, settled hand
#: by hand, with the largest hidden pile, its woodpile).
FORGED = "tiu_u"


def longest_match(ruleset_id: str) -> tuple[Match[Any, Any], Match[Any, Any]]:
    """The last state in progress and the final state of a random match with the options
    that make it longest."""
    ruleset = rules.get(ruleset_id)
    options, players = LONGEST[ruleset_id]
    match = ruleset.new_match(ruleset.make_options(options), players, "refusal")
    last = [match]

    def keep(step: Any) -> None:
        if step.after.status is Status.IN_PROGRESS:
            last[0] = step.after

    final = play_out(ruleset, match, random.Random(ruleset_id), observe=keep, max_moves=10**6)
    return last[0], final


def set_field(value: Any, name: str, new: Any) -> Any:
    """A copy of a frozen dataclass with one field set to anything (no checks run)."""
    copy = dataclasses.replace(value)
    object.__setattr__(copy, name, new)
    return copy


def unsealed(payload: bytes) -> bytes:
    header = bytes((2, 0))
    return header + payload + hashlib.sha256(header + payload).digest()[:8]


def corpus(plain: RulesService, sealed: RulesService) -> dict[str, tuple[bytes, bytes | None]]:
    """Each kind: its unsealed token and its sealed one (None where sealing means nothing)."""
    kinds: dict[str, tuple[bytes, bytes | None]] = {}

    def both(name: str, ruleset_id: str, match: Match[Any, Any]) -> None:
        game = Game(rules.get(ruleset_id), match, GAME_ID, 10**6)
        kinds[name] = (plain.encode(game), sealed.encode(game))

    tiu = rules.get(FORGED)
    mid = tiu.new_match(tiu.make_options({}), 4, "mid")
    mid, _ = tiu.apply(mid, tiu.legal_moves(mid)[0])
    both("reference: legal mid-hand", FORGED, mid)
    for ruleset_id in sorted(LONGEST):
        in_progress, final = longest_match(ruleset_id)
        both(f"legal longest {ruleset_id}", ruleset_id, in_progress)
        both(f"legal finished {ruleset_id}", ruleset_id, final)
    start = tiu.new_match(tiu.make_options({"hands": MAX_HANDS}), 4, "forged")
    zero = HandResult((0,) * 4, (0,) * 4, (0,), next(iter(tiu.hand_ends)), (0,) * 4)
    for hands in (MAX_HANDS - 1, 20_000):
        history = set_field(start, "history", (zero,) * hands)
        both(f"forged history {hands}", FORGED, set_field(history, "hand_number", hands + 1))
    short = tiu.new_match(tiu.make_options({"hands": 2}), 4, "forged")
    fish = HandResult((1,) * 4, (1,) * 4, (0,), next(iter(tiu.hand_ends)), (0,) * 4)
    forged = set_field(set_field(short, "history", (fish,) * 900), "hand_number", 901)
    both("forged history past options", FORGED, forged)
    for count in (MAX_EVENTS, 10_000):
        events = (Event(EventKind.PASS, seat=0),) * count
        both(f"forged events {count}", FORGED, set_field(start, "last_events", events))
    tile = short.hand_state.hands[0][0]
    state = set_field(short.hand_state, "woodpile", (tile,) * 250)
    both("forged 250-tile woodpile", FORGED, set_field(short, "hand_state", state))
    bomb = packing.fingerprint(tiu) + b"\x01" + zlib.compress(bytes(32 * 1024 * 1024), 9)
    kinds["deflate bomb (32 MiB)"] = (unsealed(bomb), sealed.tokens.seal(bomb))
    big = packing.fingerprint(tiu) + b"\x00" + os.urandom(64 * 1024 - 30)
    kinds["random near 64 KiB"] = (unsealed(big)[: 64 * 1024], sealed.tokens.seal(big)[:65536])
    over = bytes((2, 0)) + os.urandom(64 * 1024)
    kinds["over 64 KiB"] = (over, None)
    return kinds


def answer(service: RulesService, token: bytes) -> str:
    try:
        service.decode(token)
    except ApiError as error:
        return error.message
    return "ok"


def measure(rounds: int, server_heap: bool = True) -> dict[str, Any]:
    keys = KeyRing.parse(KeyRing.generate("bench"))
    plain = RulesService(TokenCodec(), minted=0)
    sealed = RulesService(TokenCodec(keys), minted=0)
    kinds = corpus(plain, sealed)
    items: list[tuple[str, RulesService, bytes]] = []
    for name, (open_token, sealed_token) in kinds.items():
        items.append((f"{name} (unsealed)", plain, open_token))
        if sealed_token is not None:
            items.append((f"{name} (sealed)", sealed, sealed_token))
    times: dict[str, list[float]] = {name: [] for name, _, _ in items}
    pauses = GcPauses()
    if server_heap:
        settle_heap()  # as a serving process does once it is set up
    else:
        gc.collect()  # the corpus's own garbage, before the first round
    gc.callbacks.append(pauses)
    try:
        for name, service, token in interleaved(items, rounds):  # in a rotating order
            started = time.process_time()
            with contextlib.suppress(ApiError):
                service.decode(token)
            times[name].append(time.process_time() - started)
    finally:
        gc.callbacks.remove(pauses)
    reference = statistics.median(times["reference: legal mid-hand (unsealed)"])
    rows = []
    for name, service, token in items:
        worst = max(times[name])
        rows.append(
            {
                "kind": name,
                "bytes": len(token),
                "answer": answer(service, token)[:60],
                "median_ms": statistics.median(times[name]) * 1000,
                "worst_ms": worst * 1000,
                "worst_vs_reference": worst / reference,
                "met": worst * 1000 <= TARGET_MS,
            }
        )
    return {"reference_ms": reference * 1000, "rows": rows, "gc": pauses.summary()}


class GcPauses:
    """The collections of CPython's cyclic garbage collector during the rounds, by
    generation, with their CPU time: a full collection walks every object of the process
    and falls on whichever call allocates past the threshold, so it explains a worst
    figure far above its median."""

    def __init__(self) -> None:
        self.started = 0.0
        self.by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.process_time()
        else:
            self.by_generation[info["generation"]].append(time.process_time() - self.started)

    def summary(self) -> dict[str, Any]:
        return {
            str(generation): {
                "collections": len(pauses),
                "total_ms": sum(pauses) * 1000,
                "longest_ms": max(pauses, default=0.0) * 1000,
            }
            for generation, pauses in self.by_generation.items()
        }


# --------------------------------------------------------------------------- memory


def long_token(codec: TokenCodec, hands: int) -> tuple[bytes, Any]:
    ruleset = rules.get(FORGED)
    match = ruleset.new_match(ruleset.make_options({"hands": MAX_HANDS}), 4, "attack")
    chooser = random.Random("attack")
    while match.hand_number <= hands or match.status is not Status.IN_PROGRESS:
        match, _ = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
    service = RulesService(codec, minted=0)
    token = service.encode(Game(ruleset, match, GAME_ID, 5000))
    return token, ruleset.legal_moves(match)[0]


def memory(calls: int, hands: int) -> dict[str, Any]:
    import grpc
    import requests

    from bench.harness import children
    from domino_rules.state import codec as state_codec
    from domino_rules.v1 import domino_rules_pb2 as pb
    from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

    key = KeyRing.generate("attack")
    token, move = long_token(TokenCodec(KeyRing.parse(key)), hands)
    with serving(
        "--grpc-workers", "1", "--http-workers", "1", env={"DOMINO_RULES_SEAL_KEYS": key}
    ) as served:
        grpc_pid = served.door_processes("grpc")[0]
        worker = children(served.door_processes("rest")[0])[0]
        message = pb.ApplyMoveRequest(state=token, move=state_codec.move_to_pb(move))
        body = {
            "state": base64.b64encode(token).decode(),
            "move": json.loads(
                json.dumps(
                    {
                        "seat": move.seat,
                        "kind": move.kind.name,
                        **({"tile": {"high": move.tile.high, "low": move.tile.low}}
                           if move.tile else {}),
                        **({"target": {"high": move.target.high, "low": move.target.low}}
                           if move.target else {}),
                    }
                )
            ),
        }  # fmt: skip
        out: dict[str, Any] = {"token_bytes": len(token), "hands": hands, "calls": calls}
        with grpc.insecure_channel(f"127.0.0.1:{served.grpc_port}") as channel:
            stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
            stub.ApplyMove(message, timeout=30)  # warm
            before = rss_mib(grpc_pid)
            for _ in range(calls):
                stub.ApplyMove(message, timeout=30)
            out["grpc"] = (before, rss_mib(grpc_pid))
        url = f"http://127.0.0.1:{served.http_port}/v1/games:applyMove"
        with requests.Session() as session:
            call: Callable[[], Any] = lambda: session.post(url, json=body, timeout=30)  # noqa: E731
            call().raise_for_status()  # warm
            before = rss_mib(worker)
            for _ in range(calls):
                call().raise_for_status()
            out["rest_worker"] = (before, rss_mib(worker))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="calls per kind of token")
    parser.add_argument("--memory", action="store_true", help="the long-token attack on serve")
    parser.add_argument("--calls", type=int, default=1500, help="--memory: ApplyMoves per door")
    parser.add_argument("--hands", type=int, default=250, help="--memory: hands of history")
    parser.add_argument(
        "--python-gc", action="store_true", help="Python's collector defaults, not a server's"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    load_before = load_average()
    result = (
        memory(args.calls, args.hands)
        if args.memory
        else measure(args.rounds, server_heap=not args.python_gc)
    )  # fmt: skip
    load_after = load_average()
    if args.json:
        print(json.dumps({**result, "load": [load_before, load_after]}))
        return 0
    print(load_line(load_before, load_after))
    if args.memory:
        print(
            f"{result['calls']} ApplyMoves per door on one sealed Tiu U token of "
            f"{result['token_bytes']} B ({result['hands']} hands), each a new token"
        )
        for door in ("grpc", "rest_worker"):
            before, after = result[door]
            print(
                f"{door:12} RSS {before:6.1f} MiB before, {after:6.1f} MiB after: "
                f"+{after - before:.1f} MiB (target <= 40)"
            )
        return 0
    print(f"reference (legal mid-hand ApplyMove token, unsealed): {result['reference_ms']:.3f} ms")
    print(f"CPU per decode, {args.rounds} calls per kind; x ref = worst / the reference's median")
    print(
        f"{'kind':44} {'bytes':>6} {'median':>8} {'worst':>8} {'x ref':>7}  {'verdict':13} answer"
    )
    for row in result["rows"]:
        verdict = f"within {TARGET_MS:g} ms" if row["met"] else f"OVER {TARGET_MS:g} ms"
        print(
            f"{row['kind']:44} {row['bytes']:>6} {row['median_ms']:>7.3f}m {row['worst_ms']:>7.3f}m"
            f" {row['worst_vs_reference']:>7.1f}  {verdict:13} {row['answer']}"
        )
    for generation, pauses in result["gc"].items():
        print(
            f"garbage collector, generation {generation}: {pauses['collections']} collections, "
            f"{pauses['total_ms']:.1f} ms in all, the longest {pauses['longest_ms']:.2f} ms "
            "(counted in the calls they fell on)"
        )
    over = [row["kind"] for row in result["rows"] if not row["met"]]
    worst = max(result["rows"], key=lambda r: r["worst_ms"])
    print(f"worst: {worst['kind']}, {worst['worst_ms']:.3f} ms (target <= {TARGET_MS:g} ms)")
    if over:
        print(f"OVER {TARGET_MS:g} ms at worst: {len(over)} of {len(result['rows'])} kinds:")
        for kind in over:
            print(f"  {kind}")
    else:
        print(f"every kind within {TARGET_MS:g} ms of CPU at worst ({len(result['rows'])} kinds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
