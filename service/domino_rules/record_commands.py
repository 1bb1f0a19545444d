"""The record commands of ``domino-rules``: ``replay``, ``record`` and ``convert``.

``domino-rules replay FILE`` replays a record (JSON or text form) through the service in
this process and prints the match as people read it: each hand's deal (every hand, once
the record holds the seed), every move with its events, each hand's end and the match
points. It exits 0 when the record is VALID, 1 at the first divergence (the step, the
reason and why), and 2 when the file is not a record that can be replayed: one line
naming the file and what it is (missing, empty, binary, JSON of another shape, cut
short, of another format, over the limits, or the line it cannot read), printed before
anything else.

Every command answers bad input with one line on standard error and exit status 2
(never a traceback); status 1 means only that a record diverged.

``domino-rules record RULESET --players N --out FILE`` plays a match with a bot in every
seat (``--level``, default ``STRONG``; ``--seed`` makes it the same match every time)
and writes its record: the moves with their events and match points, as each mover saw
them, and the seed. ``--format text`` (or a ``.txt`` file) writes the text form.

``domino-rules convert FILE --to text|json`` prints a record in the other form.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import typing
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

from google.protobuf import json_format

from .records import form, notation
from .v1 import domino_rules_pb2 as pb

if TYPE_CHECKING:
    from .api.service import RulesService

__all__ = ["add_commands", "run"]

_LEVELS = ("RANDOM", "GREEDY", "STRONG")
#: The most moves ``record`` plays: the longest match a record may hold.
_MOST_MOVES = form.MAX_MOVES


def add_commands(commands: Any) -> None:
    """Add ``replay``, ``record`` and ``convert`` to the command line's subcommands."""
    replay = commands.add_parser("replay", help="replay a match record and print the match")
    replay.add_argument("file", help="the record: its JSON or text form ('-': standard input)")
    replay.add_argument("--seat", type=_int32, help="show the match as this seat saw it")
    replay.add_argument("--from", dest="from_step", type=_int32, default=0, help="first step shown")
    replay.add_argument("--to", dest="to_step", type=_int32, help="last step shown")

    record = commands.add_parser("record", help="play a bot-only match and write its record")
    record.add_argument("ruleset", help="the ruleset id (as ListRulesets lists them)")
    record.add_argument("--players", type=_int32, required=True)
    record.add_argument("--seed", help="the match's seed (default: a new one)")
    record.add_argument("--level", default="STRONG", type=str.upper, choices=_LEVELS)
    record.add_argument("--options", default="{}", help="the ruleset's options as JSON")
    record.add_argument("--out", required=True, help="the file to write ('-': standard output)")
    record.add_argument("--format", choices=("json", "text"), help="default: by the file's name")

    convert = commands.add_parser("convert", help="print a match record in the other form")
    convert.add_argument("file", help="the record: its JSON or text form ('-': standard input)")
    convert.add_argument("--to", choices=("json", "text"), required=True)


def _int32(text: str) -> int:
    """A whole number the contract can carry (a 32-bit integer)."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
    if not -(2**31) <= value < 2**31:
        raise argparse.ArgumentTypeError(f"{text[:40]} is out of range")
    return value


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the record command ``args`` names (printing to ``out`` and ``err``, by default
    standard output and error); its exit status."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    from .api.errors import ApiError
    from .api.service import RulesService

    service = RulesService()
    try:
        if args.command == "replay":
            return _replay(service, args, out, err)
        if args.command == "record":
            return _record(service, args, out, err)
        record = _read(args.file)
        if args.to == "text":
            out.write(form.to_text(record))
        else:
            out.write(json.dumps(form.to_json(record), indent=2, ensure_ascii=False) + "\n")
        return 0
    except BrokenPipeError:  # the reader stopped reading (| head): nothing more to say
        return 0
    except _BadFile as exc:
        err.write(f"domino-rules {args.command}: {_line(str(exc))}\n")
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        err.write(f"domino-rules {args.command}: {where}{exc.strerror or exc}\n")
        return 2
    except ApiError as exc:
        err.write(f"domino-rules {args.command}: {exc.reason}: {_line(exc.message)}\n")
        return 2


def _line(text: str) -> str:
    """A message as one line."""
    return " ".join(text.split("\n"))


class _BadFile(Exception):
    """A file that is not a record that can be replayed: the message names it and says
    what it is."""


def _read(path: str) -> pb.MatchRecord:
    """The record in ``path`` (``-``: standard input), checked for replaying before
    anything is printed: :class:`_BadFile` names the file and what it is otherwise."""
    name = "standard input" if path == "-" else path
    if path == "-":
        data = sys.stdin.buffer.read(form.MAX_RECORD_BYTES + 1)
    else:
        if os.path.isdir(path):
            raise _BadFile(f"{name}: a directory, not a record")
        with open(path, "rb") as file:
            data = file.read(form.MAX_RECORD_BYTES + 1)
    try:
        record = form.parse(data)
        if record == pb.MatchRecord(format=record.format):
            raise form.RecordError("an empty record: it names no ruleset and holds no move")
        form.check(record)
    except form.RecordError as exc:
        raise _BadFile(f"{name}: {exc}") from None
    return record


# ------------------------------------------------------------------ replay


def _replay(service: RulesService, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    record = _read(args.file)
    request = pb.ReplayRequest(record=record, from_step=args.from_step)
    if args.seat is not None:
        request.seat = args.seat
    if args.to_step is not None:
        request.to_step = args.to_step
    info = {r.id: r for r in service.ListRulesets(pb.ListRulesetsRequest()).rulesets}
    name = info[record.ruleset].name if record.ruleset in info else record.ruleset
    out.write(f"{name}, {record.players} players, game {record.game_id or '(no id)'}\n")
    if record.HasField("options"):
        options = json_format.MessageToDict(record.options, preserving_proto_field_name=True)
        out.write(f"options {json.dumps(options.get(record.ruleset, options))}\n")
    if record.HasField("seed"):
        out.write(f"seed {json.dumps(record.seed)}\n")
    else:
        out.write("seed not revealed: replayed from the first state\n")
    answer = pb.ReplayResponse()
    hands: list[list[str]] = []
    for answer in _pages(service, request):
        for step in answer.steps:
            _print_step(step, hands, out)
    if answer.verdict == pb.ReplayResponse.VALID:
        points = " ".join(str(p) for p in (answer.steps[-1].match_points if answer.steps else ()))
        status = pb.Status.Name(answer.status)
        out.write(f"VALID: {answer.moves} moves replayed, {status}; match points {points}\n")
        return 0
    divergence = answer.divergence
    reason = pb.Divergence.Reason.Name(divergence.reason)
    where = "the record's header" if divergence.step == 0 else f"move {divergence.step}"
    line = f"DIVERGED at step {divergence.step} ({where}): {reason}: {divergence.message}\n"
    out.write(line)
    err.write(line)
    return 1


def _pages(service: RulesService, request: pb.ReplayRequest) -> Iterator[pb.ReplayResponse]:
    """Every answer of a replay cut in pages (``next_step``)."""
    while True:
        answer = service.Replay(request)
        yield answer
        if not answer.HasField("next_step"):
            return
        request.from_step = answer.next_step


def _print_step(step: pb.ReplayStep, hands: list[list[str]], out: TextIO) -> None:
    """One step of the log; ``hands`` are the hands before it (when the seed is known),
    so that a hidden draw shows the tiles drawn."""
    events = "; ".join(notation.event_text(e) for e in step.events)
    now = [[notation.tile_text(t) for t in hand.tiles] for hand in step.hands]
    if step.step > 0:
        move = notation.move_text(step.move, seat=True)
        drawn = ""
        drew = {e.seat for e in step.events if e.kind == pb.Event.DRAW and e.hidden}
        if now and len(hands) == len(now):
            for seat in sorted(drew):
                gained = list(now[seat])
                for tile in hands[seat]:
                    if tile in gained:
                        gained.remove(tile)
                drawn += f" (seat {seat} drew {' '.join(gained) or 'nothing kept'})"
        out.write(f"{step.step:>5}. {move:<24} {events}{drawn}\n")
    else:
        out.write(f"deal: {events}\n")
    hands[:] = now
    dealt = step.step == 0 or any(e.kind == pb.Event.DEAL for e in step.events)
    if dealt and step.hands:
        out.write(f"hand {step.view.hand_number} dealt:\n")
        for seat, hand in enumerate(step.hands):
            tiles = " ".join(notation.tile_text(t) for t in hand.tiles)
            out.write(f"  seat {seat}: {tiles}\n")
    for event in step.events:
        if event.kind == pb.Event.HAND_OVER:
            winners = ", ".join(f"seat {s}" for s in event.seats) or "nobody"
            scores = " ".join(str(s) for s in event.scores)
            out.write(f"hand {step.view.hand_number} over: won by {winners}; points {scores}\n")
        elif event.kind == pb.Event.MATCH_OVER:
            winners = ", ".join(f"seat {s}" for s in event.seats) or "nobody"
            scores = " ".join(str(s) for s in event.scores)
            out.write(f"match over: won by {winners}; match points {scores}\n")


# ------------------------------------------------------------------ record


def _record(service: RulesService, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .api.errors import ApiError

    try:
        values = json.loads(args.options)
        if not isinstance(values, dict):
            raise ValueError("the options are a JSON object")
        options = json_format.ParseDict({args.ruleset: values} if values else {}, pb.Options())
    except (ValueError, TypeError, RecursionError, json_format.ParseError) as exc:
        raise ApiError.invalid("BAD_OPTIONS", f"--options: {exc}") from None
    new_game = pb.NewGameRequest(ruleset=args.ruleset, players=args.players, options=options)
    if args.seed is not None:
        new_game.seed = args.seed
    new = service.NewGame(new_game)
    record = pb.MatchRecord(
        format=form.FORMAT,
        ruleset=args.ruleset,
        players=args.players,
        options=options,
        game_id=new.game_id,
        seed_commitment=new.seed_commitment,
        viewpoint=pb.MatchRecord.MOVER,
    )
    record.deal.extend(new.events)
    level = typing.cast(pb.BotLevel, pb.BotLevel.Value(args.level))
    state = new.state
    for _ in range(_MOST_MOVES):
        suggestion = service.SuggestMove(pb.SuggestMoveRequest(state=state, level=level))
        answer = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=suggestion.move))
        state = answer.state
        score = service.GetScore(pb.GetScoreRequest(state=state))
        recorded = record.moves.add(move=suggestion.move)
        recorded.events.extend(answer.events)
        recorded.match_points.extend(seat.match_points for seat in score.seats)
        if answer.status == pb.MATCH_OVER:
            record.seed = score.seed
            break
    else:
        err.write(f"domino-rules record: the match is not over after {_MOST_MOVES} moves\n")
        return 2
    text_form = (args.format or ("text" if args.out.endswith(".txt") else "json")) == "text"
    written = (
        form.to_text(record)
        if text_form
        else json.dumps(form.to_json(record), indent=2, ensure_ascii=False) + "\n"
    )
    if args.out == "-":
        out.write(written)
    else:
        with open(args.out, "w", encoding="utf-8") as file:
            file.write(written)
        err.write(f"{args.out}: {len(record.moves)} moves, {len(written.encode())} bytes\n")
    return 0
