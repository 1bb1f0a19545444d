"""The private state's binary layout: a match packed into a few hundred bytes.

A token's payload is a :class:`~domino_rules.rules.Match` packed by a layout compiled
once per ruleset from the dataclasses' type hints, so adding a ruleset needs nothing
here, and packing or unpacking a state is a straight run of generated code (no walk
over a generic value tree, no protobuf).

Layout of the payload::

    fingerprint   4 bytes: the ruleset and the exact shape of its state (see below)
    flags         1 byte: bit 0 = what follows is deflated
    game id       12 bytes (24 hex digits)
    version       unsigned varint (moves applied)
    match         the Match, packed

A dataclass is packed as a *presence mask* (unsigned varint, bit ``i`` for field ``i``)
followed by the present fields in declaration order. A field is absent when it holds
its type's empty value, which unpacking restores: ``None`` for an optional field, and
otherwise ``0``, ``False``, ``""``, ``()`` or an enum's first member. So a boolean
costs one bit and an event with three set fields costs four bytes. Values:

=================== ===========================================================
int                 zigzag varint
bool                the mask bit alone (present = true)
str                 varint ``(len << 1) | packed``; lowercase hex of even length
                    (server-chosen seeds) packs two digits a byte, else UTF-8
enum                one byte: the member's position (enums are append-only)
Tile                one byte, :attr:`Tile.code`
tuple[Tile, ...]    varint count, then one byte per tile
tuple[int, ...]     varint ``(count << 2) | mode``, then the items: mode 0 zigzag
                    varints, mode 1 unsigned varints, mode 2 sparse (varint count of
                    non-zero items, then ``index, zigzag value`` pairs) — the smallest
other tuples        varint count, then each item
X | None in tuples  one byte 0 (None) or 1, then X
=================== ===========================================================

The *fingerprint* is the first 4 bytes of SHA-256 over the ruleset id and a text
describing every type in its match, field names, field order and enum members
included. A token only unpacks under the layout that packed it: swap two fields of a
state, add one, or rename an enum member, and old tokens are refused as of another
schema instead of being read as a different game.

Unpacking trusts nothing: every length is checked against the bytes left (so the work
is bounded by the token's size), every tile code, enum position and UTF-8 string is
checked, and trailing bytes are refused. It then returns a match whose *values* still
have to be checked against the rules (``Ruleset.check_match``). A caller that does not
use the last move's events (the match's last field) can leave them unread
(``unpack(payload, events=False)``): ApplyMove makes its own.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import re
import types
import typing
import zlib
from collections.abc import Callable
from typing import Any

from .. import games
from ..rules import End, HandEnd, Match, Ruleset, Tile
from ..rules.building import frozen_builder
from ..rules.events import Event, EventKind
from ..rules.limits import MAX_EVENTS, MAX_HANDS
from ..rules.tiles import MAX_PIP

__all__ = ["PackError", "Packed", "fingerprint", "pack", "unpack"]

_FINGERPRINT = 4
_GAME_ID = 12
_DEFLATED = 1
#: Payloads longer than this are deflated when that makes them smaller.
_DEFLATE_OVER = 320
#: The most a deflated payload may grow to: as much as a token may hold (64 KiB). The
#: largest state play can reach (1,000 hands of history, see ``MAX_HANDS``) packs to
#: less than half of it.
_MAX_INFLATED = 64 * 1024
#: The most items any tuple of a state holds, unless its field has a bound of its own
#: (``_limits``): hands, tiles, seats and dice are all far fewer (a set has at most
#: 190 tiles, a table at most 9 seats). Counts are checked before items are read.
_MAX_ITEMS = 256


class PackError(ValueError):
    """The bytes are not a state packed by this service's layout."""


@dataclasses.dataclass(frozen=True, slots=True)
class Packed:
    """An unpacked payload: the ruleset, the match, and the envelope."""

    ruleset: Ruleset[Any, Any]
    match: Match[Any, Any]
    game_id: str
    version: int


# =========================================================================== type walk


def _optional(hint: Any) -> Any | None:
    """``X`` for ``X | None``, else ``None``."""
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) != 1 or len(typing.get_args(hint)) != 2:
            raise TypeError(f"only X | None unions can be packed, not {hint}")
        return args[0]
    return None


def _item(hint: Any) -> Any:
    args = typing.get_args(hint)
    if len(args) != 2 or args[1] is not Ellipsis:
        raise TypeError(f"only tuple[X, ...] can be packed, not {hint}")
    return args[0]


def _fields(cls: type, bound: dict[str, Any]) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(cls)
    return [(f.name, bound.get(f.name, hints[f.name])) for f in dataclasses.fields(cls)]


#: Members appended to the kernel's enums since the previous minor version, each held only
#: by the states of a ruleset that version does not have (``End.UP`` and ``End.DOWN``,
#: ``HandEnd.TARGET_REACHED``: ``all_fives``'). An appended member takes a new position
#: and every older one keeps its own, so the packed shape of every other ruleset is
#: unchanged: they are left out of the fingerprint's text, and the tokens of games in play
#: (and those the previous version writes and reads) keep their fingerprints. They pack and
#: unpack at their positions like any member.
_LATER_MEMBERS: dict[type, frozenset[str]] = {
    End: frozenset({"UP", "DOWN"}),
    HandEnd: frozenset({"TARGET_REACHED"}),
    EventKind: frozenset({"ENGINE", "MARKER_UP", "MARKER_DOWN"}),
}

#: Fields appended to the kernel's dataclasses since the previous minor version, each set
#: only by a ruleset that version does not have (``Event.train``: the train or arm of a
#: trains game's ``PLAY``). An appended field takes the next bit of the
#: presence mask and is absent (``None``) in every other ruleset's states, so their packed
#: bytes are unchanged: it is left out of the fingerprint's text, as :data:`_LATER_MEMBERS`.
_LATER_FIELDS: dict[type, frozenset[str]] = {
    Event: frozenset({"train"}),
}


def _describe(hint: Any, seen: set[type]) -> str:
    """A text that changes whenever the packed shape of ``hint`` changes."""
    inner = _optional(hint)
    if inner is not None:
        return _describe(inner, seen) + "?"
    if hint in (int, bool, str):
        return str(hint.__name__)
    if hint is Tile:
        return "tile"
    if typing.get_origin(hint) is tuple:
        return "(" + _describe(_item(hint), seen) + ")*"
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        later = _LATER_MEMBERS.get(hint, frozenset())
        members = [name for name in hint.__members__ if name not in later]
        return f"{hint.__name__}<{','.join(members)}>"
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        if hint in seen:
            return hint.__name__
        seen.add(hint)
        later = _LATER_FIELDS.get(hint, frozenset())
        fields = ",".join(
            f"{n}:{_describe(h, seen)}" for n, h in _fields(hint, {}) if n not in later
        )
        return f"{hint.__name__}{{{fields}}}"
    raise TypeError(f"cannot pack {hint!r}")


def _match_fields(ruleset: Ruleset[Any, Any]) -> dict[str, Any]:
    return {"options": ruleset.options_type, "hand_state": ruleset.hand_state_type}


@functools.cache
def _fingerprint_of(ruleset_id: str, options: type, hand_state: type) -> bytes:
    bound = {"options": options, "hand_state": hand_state}
    seen: set[type] = set()
    text = ",".join(f"{n}:{_describe(h, seen)}" for n, h in _fields(Match, bound))
    return hashlib.sha256(f"{ruleset_id}\n{text}".encode()).digest()[:_FINGERPRINT]


def fingerprint(ruleset: Ruleset[Any, Any]) -> bytes:
    """The 4 bytes that name a ruleset and the exact shape of its state."""
    return _fingerprint_of(ruleset.id, ruleset.options_type, ruleset.hand_state_type)


# =========================================================================== primitives


def _uvarint(out: bytearray, n: int) -> None:
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _svarint(out: bytearray, n: int) -> None:
    _uvarint(out, (n << 1) if n >= 0 else ((-n << 1) - 1))


def _read_uvarint(data: bytes, pos: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        if pos >= len(data):
            raise PackError("the state is truncated")
        b = data[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            return n, pos
        shift += 7
        if shift > 63:
            raise PackError("a number is too long")


def _read_svarint(data: bytes, pos: int) -> tuple[int, int]:
    n, pos = _read_uvarint(data, pos)
    return (n >> 1) if not n & 1 else -((n + 1) >> 1), pos


_HEX = re.compile(r"(?:[0-9a-f]{2})+")


def _str(out: bytearray, text: str) -> None:
    if len(text) % 2 == 0 and _HEX.fullmatch(text):
        raw = bytes.fromhex(text)
        _uvarint(out, (len(raw) << 1) | 1)
    else:
        raw = text.encode("utf-8")
        _uvarint(out, len(raw) << 1)
    out += raw


def _read_str(data: bytes, pos: int) -> tuple[str, int]:
    head, pos = _read_uvarint(data, pos)
    n = head >> 1
    if pos + n > len(data):
        raise PackError("the state is truncated")
    raw = data[pos : pos + n]
    try:
        return (raw.hex() if head & 1 else raw.decode("utf-8")), pos + n
    except UnicodeDecodeError:
        raise PackError("a text is not UTF-8") from None


def _ints(out: bytearray, items: tuple[int, ...]) -> None:
    n = len(items)
    nonzero = [(i, x) for i, x in enumerate(items) if x]
    if 2 * len(nonzero) + 1 < n:
        _uvarint(out, (n << 2) | 2)
        _uvarint(out, len(nonzero))
        for i, x in nonzero:
            _uvarint(out, i)
            _svarint(out, x)
    elif all(x >= 0 for x in items):
        _uvarint(out, (n << 2) | 1)
        for x in items:
            _uvarint(out, x)
    else:
        _uvarint(out, n << 2)
        for x in items:
            _svarint(out, x)


#: A zigzag varint of one byte, decoded, by the byte.
_ZIGZAG = tuple((b >> 1) ^ -(b & 1) for b in range(128))


def _read_ints(data: bytes, pos: int) -> tuple[tuple[int, ...], int]:
    """A ``tuple[int, ...]`` at ``pos`` (any mode, any count up to ``_MAX_ITEMS``), then the
    position after it; a truncated list raises :class:`PackError` or ``IndexError``
    (which :func:`unpack` refuses alike)."""
    if pos < len(data) and data[pos] < 0x80:  # a head of one byte, read without a call
        head = data[pos]
        pos += 1
    else:
        head, pos = _read_uvarint(data, pos)
    n, mode = head >> 2, head & 3
    if n > _MAX_ITEMS:
        raise PackError(f"a list of numbers holds {n} items; the most is {_MAX_ITEMS}")
    if mode == 2:
        if pos < len(data) and data[pos] < 0x80:
            k = data[pos]
            pos += 1
        else:
            k, pos = _read_uvarint(data, pos)
        end = pos + 2 * k
        if k > n or end > len(data):
            raise PackError("the state is truncated")
        items = [0] * n
        pairs = data[pos:end]
        if pairs.isascii():  # every index and value one byte: the usual case
            for j in range(0, 2 * k, 2):
                i = pairs[j]
                if i >= n:
                    raise PackError("a sparse index is out of range")
                items[i] = _ZIGZAG[pairs[j + 1]]
            return tuple(items), end
        at = pos  # indexes of one byte, values of one or two (One Arm Joe's points): a loop
        for _ in range(k):
            i, z = data[at], data[at + 1]
            if i >= 0x80:
                break
            if z < 0x80:
                at += 2
            elif data[at + 2] < 0x80:
                z = (z & 0x7F) | (data[at + 2] << 7)
                at += 3
            else:
                break
            if i >= n:
                raise PackError("a sparse index is out of range")
            items[i] = (z >> 1) ^ -(z & 1)
        else:
            return tuple(items), at
        items = [0] * n  # a number of more bytes: read them all again, the long way
        flat = _uvarints(data, pos, 2 * k)
        pos = flat.pop()
        for j in range(0, 2 * k, 2):
            i, z = flat[j], flat[j + 1]
            if i >= n:
                raise PackError("a sparse index is out of range")
            items[i] = (z >> 1) ^ -(z & 1)
        return tuple(items), pos
    end = pos + n
    if end > len(data) or mode == 3:
        raise PackError("the state is truncated")
    chunk = data[pos:end]
    if chunk.isascii():  # every item one byte: decoded without a call per item
        return (tuple(chunk) if mode == 1 else tuple(map(_ZIGZAG.__getitem__, chunk))), end
    out = _uvarints(data, pos, n)
    pos = out.pop()
    if mode == 0:
        out = [(x >> 1) ^ -(x & 1) for x in out]
    return tuple(out), pos


def _read_dense(data: bytes, pos: int) -> tuple[tuple[int, ...], int]:
    """A dense list of fewer than 32 numbers (its head one byte), as :func:`_read_ints`
    reads it: the lists the one-byte fast path of the generated code leaves, whose
    numbers take one or two bytes each (Tiu U's counts and settlements), in one loop
    without a call per number; a number of three bytes or more sends the list to
    :func:`_read_ints`. A truncated list raises ``IndexError`` (see :func:`unpack`)."""
    head = data[pos]
    n = head >> 2
    at = pos + 1
    items: list[int] = []
    append = items.append
    while len(items) < n:
        b = data[at]
        if b < 0x80:
            append(b)
            at += 1
        elif data[at + 1] < 0x80:
            append((b & 0x7F) | (data[at + 1] << 7))
            at += 2
        else:
            return _read_ints(data, pos)
    if head & 1:
        return tuple(items), at
    return tuple([(x >> 1) ^ -(x & 1) for x in items]), at


def _unrolled_dense(n: int) -> Callable[[bytes, int], tuple[tuple[int, ...], int]]:
    """:func:`_read_dense` of a list of exactly ``n`` numbers, written out number by
    number: no loop and no list, about twice as fast on the short lists a state is made
    of (a number per seat, and a history holds three such lists per hand)."""
    lines = [f"def read_dense_{n}(data, pos):", "    head = data[pos]", "    at = pos + 1"]
    for i in range(n):
        lines += [
            f"    v{i} = data[at]",
            f"    if v{i} < 0x80: at += 1",
            "    else:",
            "        c = data[at + 1]",
            "        if c >= 0x80: return _read_ints(data, pos)  # three bytes or more",
            f"        v{i} = (v{i} & 0x7F) | (c << 7); at += 2",
        ]
    values = "".join(f"v{i}, " for i in range(n))
    zigzag = "".join(f"(v{i} >> 1) ^ -(v{i} & 1), " for i in range(n))
    lines += [f"    if head & 1: return ({values}), at", f"    return ({zigzag}), at"]
    namespace: dict[str, Any] = {"_read_ints": _read_ints}
    exec(compile("\n".join(lines), f"<read_dense_{n}>", "exec"), namespace)
    read: Callable[[bytes, int], tuple[tuple[int, ...], int]] = namespace[f"read_dense_{n}"]
    return read


#: The reader of a dense list by its count (the head's one byte holds fewer than 32):
#: written out up to 12 numbers, more than any table's seats.
_DENSE = tuple(_unrolled_dense(n) if 1 <= n <= 12 else _read_dense for n in range(32))


def _uvarints(data: bytes, pos: int, n: int) -> list[int]:
    """``n`` unsigned varints from ``pos``, then the position after them (one loop, no
    call per number)."""
    out: list[int] = []
    append = out.append
    size = len(data)
    for _ in range(n):
        if pos >= size:
            raise PackError("the state is truncated")
        b = data[pos]
        pos += 1
        if b < 0x80:
            append(b)
            continue
        x, shift = b & 0x7F, 7
        while True:
            if pos >= size:
                raise PackError("the state is truncated")
            b = data[pos]
            pos += 1
            x |= (b & 0x7F) << shift
            if b < 0x80:
                break
            shift += 7
            if shift > 63:
                raise PackError("a number is too long")
        append(x)
    append(pos)
    return out


def _tiles(out: bytearray, tiles: tuple[Tile, ...]) -> None:
    _uvarint(out, len(tiles))
    out += bytes([t.code for t in tiles])


#: Every tile by its code: ``Tile.from_code`` without a call per tile.
_BY_CODE: tuple[Tile, ...] = tuple(
    Tile(high, low) for high in range(MAX_PIP + 1) for low in range(high + 1)
)


def _read_tiles(data: bytes, pos: int) -> tuple[tuple[Tile, ...], int]:
    n, pos = _read_uvarint(data, pos)
    end = pos + n
    if end > len(data):
        raise PackError("the state is truncated")
    try:
        return tuple([_BY_CODE[c] for c in data[pos:end]]), end
    except IndexError:
        raise PackError("a tile code is out of range") from None


def _read_tile(data: bytes, pos: int) -> tuple[Tile, int]:
    if pos >= len(data):
        raise PackError("the state is truncated")
    try:
        return _BY_CODE[data[pos]], pos + 1
    except IndexError:
        raise PackError("a tile code is out of range") from None


# =========================================================================== compiled layouts

_Packer = Callable[[bytearray, Any], None]
_Unpacker = Callable[..., tuple[Any, int]]


class _Compiler:
    """Generates a packer and an unpacker for one dataclass tree (one ruleset's match)."""

    def __init__(self) -> None:
        self.env: dict[str, Any] = {
            "_uvarint": _uvarint,
            "_svarint": _svarint,
            "_str": _str,
            "_ints": _ints,
            "_tiles": _tiles,
            "_ru": _read_uvarint,
            "_rs": _read_svarint,
            "_rstr": _read_str,
            "_rints": _read_ints,
            "DENSE": _DENSE,
            "_rtiles": _read_tiles,
            "_rtile": _read_tile,
            "PackError": PackError,
            "BY_CODE": _BY_CODE,
            "ZZ": _ZIGZAG.__getitem__,
            "MAX_ITEMS": _MAX_ITEMS,
        }
        self.done: dict[Any, str] = {}
        self.sources: list[str] = []
        self.counter = 0

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def const(self, value: Any, prefix: str) -> str:
        key = self.name(prefix)
        self.env[key] = value
        return key

    # ---- values: expressions that pack ``v`` and statements that read into ``x``

    def pack_value(self, hint: Any, v: str) -> list[str]:
        inner = _optional(hint)
        if inner is not None:
            return [
                f"if {v} is None: out.append(0)",
                "else:",
                "    out.append(1)",
                *("    " + line for line in self.pack_value(inner, v)),
            ]
        if hint is int:
            z = self.name("z")
            return [  # zigzag, one byte inline for small numbers
                f"{z} = ({v} << 1) if {v} >= 0 else ((-{v} << 1) - 1)",
                f"if {z} < 128: out.append({z})",
                f"else: _uvarint(out, {z})",
            ]
        if hint is bool:
            return [f"out.append(1 if {v} else 0)"]
        if hint is str:
            return [f"_str(out, {v})"]
        if hint is Tile:
            return [f"out.append({v}.code)"]
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            if len(hint) >= 128:
                raise TypeError(f"{hint.__name__} has too many members to pack in a byte")
            index = self.const({m: i for i, m in enumerate(hint)}, "IDX")
            return [f"out.append({index}[{v}])"]
        if typing.get_origin(hint) is tuple:
            item = _item(hint)
            if item is Tile:
                return [
                    f"if len({v}) < 128: out.append(len({v}))",
                    f"else: _uvarint(out, len({v}))",
                    f"out += bytes([t.code for t in {v}])",
                ]
            if item is int:
                return [f"_ints(out, {v})"]
            x = self.name("x")
            return [
                f"_uvarint(out, len({v}))",
                f"for {x} in {v}:",
                *("    " + line for line in self.pack_value(item, x)),
            ]
        return [f"{self.dataclass(hint)[0]}(out, {v})"]

    def unpack_value(
        self, hint: Any, x: str, limit: str = "MAX_ITEMS", what: str = ""
    ) -> list[str]:
        """Statements reading one value of ``hint`` at ``pos`` into ``x``. A tuple's count
        is checked against ``limit`` (an expression) before any item is read; ``what``
        names the field in the message (``"(history) "``)."""
        inner = _optional(hint)
        if inner is not None:
            return [
                "if pos >= len(data): raise PackError('the state is truncated')",
                "flag = data[pos]; pos += 1",
                f"if flag == 0: {x} = None",
                "elif flag == 1:",
                *("    " + line for line in self.unpack_value(inner, x, limit, what)),
                "else: raise PackError('a presence flag is not 0 or 1')",
            ]
        if hint is int:
            return [  # one byte inline for small numbers (an IndexError is a truncation)
                "b = data[pos]",
                f"if b < 128: {x} = (b >> 1) ^ -(b & 1); pos += 1",
                f"else: {x}, pos = _rs(data, pos)",
            ]
        if hint is bool:
            return [
                "if pos >= len(data): raise PackError('the state is truncated')",
                f"{x} = data[pos] == 1; pos += 1",
            ]
        if hint is str:
            return [f"{x}, pos = _rstr(data, pos)"]
        if hint is Tile:
            return [f"{x}, pos = _rtile(data, pos)"]
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            members = self.const(tuple(hint), "MEMBERS")
            return [  # enums have fewer than 128 members: one byte
                f"{x} = {members}[data[pos]]; pos += 1",
            ]
        if typing.get_origin(hint) is tuple:
            item = _item(hint)
            if item is Tile:
                return [
                    "n = data[pos]",
                    "if n < 128: pos += 1",
                    "else: n, pos = _ru(data, pos)",
                    "end = pos + n",
                    "if end > len(data): raise PackError('the state is truncated')",
                    f"if n > {limit}: raise PackError(f'a list {what}holds {{n}} tiles; "
                    f"the most is {{{limit}}}')",
                    f"{x} = tuple([BY_CODE[c] for c in data[pos:end]]); pos = end",
                ]
            if item is int:
                return [  # a short dense list of one-byte numbers inline, else _rints
                    "b = data[pos]",
                    "if b < 128 and not b & 2:",
                    "    end = pos + 1 + (b >> 2)",
                    "    chunk = data[pos + 1 : end]",
                    "    if end <= len(data) and chunk.isascii():",
                    f"        {x} = tuple(chunk) if b & 1 else tuple(map(ZZ, chunk)); pos = end",
                    f"    else: {x}, pos = DENSE[b >> 2](data, pos)",
                    f"else: {x}, pos = _rints(data, pos)",
                ]
            n, items, y = self.name("n"), self.name("items"), self.name("y")
            return [
                f"{n} = data[pos]",
                f"if {n} < 128: pos += 1",
                f"else: {n}, pos = _ru(data, pos)",
                f"if {n} > {limit}: raise PackError(f'a list {what}holds {{{n}}} items; "
                f"the most is {{{limit}}}')",
                f"if {n} > len(data) - pos: raise PackError('the state is truncated')",
                f"{items} = []",
                f"for _ in range({n}):",
                *("    " + line for line in self.unpack_value(item, y)),
                f"    {items}.append({y})",
                f"{x} = tuple({items})",
            ]
        return [f"{x}, pos = {self.dataclass(hint)[1]}(data, pos)"]

    # ---- dataclasses: one packer and one unpacker function each

    def dataclass(
        self,
        cls: Any,
        bound: dict[str, Any] | None = None,
        limits: dict[str, str] | None = None,
        unread: str | None = None,
    ) -> tuple[str, str]:
        """The packer and unpacker of ``cls`` (``bound``: the types of its generic fields;
        ``limits``: for a tuple field, an expression of the fields before it that bounds
        its count, instead of ``MAX_ITEMS``; ``unread``: the last field, a tuple, which
        the unpacker reads only when its third argument, ``whole``, is true: otherwise it
        is left empty and the bytes after the fields before it are taken to be its own,
        unread. For the outermost class only: nothing may follow it)."""
        key = (cls, tuple(sorted((bound or {}).items(), key=lambda kv: kv[0])))
        if key in self.done:
            return self.done[key], "un" + self.done[key]
        if not (dataclasses.is_dataclass(cls) and isinstance(cls, type)):
            raise TypeError(f"cannot pack {cls!r}")
        fn = self.name("pack_")
        self.done[key] = fn
        fields = _fields(cls, bound or {})
        pack = [f"def {fn}(out, s):", "    mask = 0"]
        body: list[str] = []
        for i, (name, hint) in enumerate(fields):
            v = f"s.{name}"
            if _optional(hint) is not None:
                test = f"{v} is not None"
                hint = _optional(hint)
            elif hint is bool:
                pack.append(f"    if {v}: mask |= {1 << i}")
                continue
            elif isinstance(hint, type) and issubclass(hint, enum.Enum):
                first = self.const(next(iter(hint)), "FIRST")
                test = f"{v} is not {first}"
            elif dataclasses.is_dataclass(hint):
                test = "True"
            else:
                test = f"{v}"
            pack.append(f"    if {test}: mask |= {1 << i}")
            body += [
                f"    if mask & {1 << i}:",
                *("        " + s for s in self.pack_value(hint, v)),
            ]
        pack += [
            "    if mask < 128: out.append(mask)",
            "    else: _uvarint(out, mask)",
            *body,
            "    return None",
        ]
        self.sources.append("\n".join(pack))

        # frozen dataclasses without slots are built by setting their dict at once
        plain = "__slots__" not in cls.__dict__ and not hasattr(cls, "__post_init__")
        cls_name = self.const(frozen_builder(cls) if plain else cls, "CLS")
        if unread is not None and (
            not fields
            or fields[-1][0] != unread
            or typing.get_origin(fields[-1][1]) is not tuple
            or fields[-1][1] == tuple[int, ...]
        ):
            raise TypeError(f"only the last field, a tuple, can be left unread, not {unread}")
        unpack = [
            f"def un{fn}(data, pos{', whole=True' if unread is not None else ''}):",
            "    mask = data[pos]",
            "    if mask < 128: pos += 1",
            "    else: mask, pos = _ru(data, pos)",
        ]
        unpack.append(
            f"    if mask >> {len(fields)}: raise PackError('unknown fields are present')"
        )
        args = []
        numbers_before: tuple[str, str] | None = None  # the field before: tuple[int, ...]
        for i, (name, hint) in enumerate(fields):
            x = f"f_{name}"
            args.append(x)
            if hint == tuple[int, ...]:
                read = self.unpack_value(hint, x, "", "")
                if numbers_before is not None:
                    # A list packed with the same bytes as the list just before it holds
                    # the same numbers: take the same tuple, without reading them again.
                    # (A hand result's points are often its counts: Tiu U, Tsair Deng.)
                    # Reading is a function of the bytes read, so this is exact.
                    # (The heads first: lists of other lengths differ at once.)
                    y, bit = numbers_before
                    read = [
                        f"if mask & {bit} and data[pos] == data[start_{y}]"
                        f" and data[pos : 2 * pos - start_{y}] == data[start_{y} : pos]:",
                        f"    {x} = f_{y}; pos += pos - start_{y}",
                        "else:",
                        *("    " + line for line in read),
                    ]
                unpack += [
                    f"    if mask & {1 << i}:",
                    f"        start_{name} = pos",
                    *("        " + s for s in read),
                    "    else:",
                    f"        {x} = ()",
                ]
                numbers_before = (name, str(1 << i))
                continue
            numbers_before = None
            inner = _optional(hint)
            if inner is not None:
                empty, hint = "None", inner
            elif hint is bool:
                unpack.append(f"    {x} = bool(mask & {1 << i})")
                continue
            elif hint is int:
                empty = "0"
            elif hint is str:
                empty = "''"
            elif isinstance(hint, type) and issubclass(hint, enum.Enum):
                empty = self.const(next(iter(hint)), "FIRST")
            elif typing.get_origin(hint) is tuple:
                empty = "()"
            else:
                empty = "None"  # a nested dataclass is always present
            limit = (limits or {}).get(name, "MAX_ITEMS")
            what = f"({name}) " if limits and name in limits else ""
            read = self.unpack_value(hint, x, limit, what)
            if name == unread:
                read = [
                    "if whole:",
                    *("    " + line for line in read),
                    f"else: {x} = (); pos = len(data)  # the rest is this field's, unread",
                ]
            unpack += [
                f"    if mask & {1 << i}:",
                *("        " + s for s in read),
                "    else:",
                f"        {x} = {empty}",
            ]
            if empty == "None" and _optional(fields[i][1]) is None:
                unpack.append(
                    f"    if {x} is None: raise PackError('a part of the state is missing')"
                )
        unpack.append(f"    return {cls_name}({', '.join(args)}), pos")
        self.sources.append("\n".join(unpack))
        return fn, "un" + fn

    def build(
        self,
        cls: type,
        bound: dict[str, Any],
        limits: dict[str, str] | None = None,
        unread: str | None = None,
    ) -> tuple[_Packer, _Unpacker]:
        pack, unpack = self.dataclass(cls, bound, limits, unread)
        code = "\n\n".join(self.sources)
        exec(compile(code, f"<packing of {cls.__name__}>", "exec"), self.env)
        return self.env[pack], self.env[unpack]


@functools.cache
def _layout_of(ruleset: Ruleset[Any, Any]) -> tuple[_Packer, _Unpacker]:
    """The packer and unpacker of a ruleset's match. The unpacker bounds the history by
    the hands a match of its options can have, no more than its hand number
    (:meth:`~domino_rules.rules.Ruleset.max_hands`), and the events by ``MAX_EVENTS``:
    both counts are checked before an item is read. ``unpacker(data, pos, False)``
    leaves the last move's events unread (see :func:`unpack`)."""
    compiler = _Compiler()

    def hands(players: int, options: Any, hand_number: int) -> int:
        # the options and players are the token's own, not checked yet: arithmetic only
        return max(0, min(hand_number, ruleset.max_hands(options, players), MAX_HANDS))

    compiler.env["HANDS"] = hands
    compiler.env["MAX_EVENTS"] = MAX_EVENTS
    bound = {"options": ruleset.options_type, "hand_state": ruleset.hand_state_type}
    limits = {
        "history": "HANDS(f_players, f_options, f_hand_number)",
        "last_events": "MAX_EVENTS",
    }
    return compiler.build(Match, bound, limits, unread="last_events")


@functools.cache
def _by_fingerprint() -> dict[bytes, Ruleset[Any, Any]]:
    return {fingerprint(r): r for r in games.all_rulesets()}


# =========================================================================== payloads


def pack(ruleset: Ruleset[Any, Any], match: Match[Any, Any], game_id: str, version: int) -> bytes:
    """The payload of a token: the envelope and the packed match."""
    body = bytearray()
    try:
        body += bytes.fromhex(game_id)
    except ValueError:
        raise PackError("a game id is 24 hex digits") from None
    if len(body) != _GAME_ID:
        raise PackError("a game id is 24 hex digits")
    _uvarint(body, version)
    _layout_of(ruleset)[0](body, match)
    flags = 0
    if len(body) > _DEFLATE_OVER:
        deflated = zlib.compress(body, 9)
        if len(deflated) < len(body):
            body, flags = bytearray(deflated), _DEFLATED
    return fingerprint(ruleset) + bytes((flags,)) + body


def unpack(payload: bytes, *, events: bool = True) -> Packed:
    """The envelope and match of a payload; :class:`PackError` if it is not one.

    Without ``events``, the match's last field, the last move's events, is not read:
    the match comes without them, and whatever bytes follow the fields before them are
    not looked at. For a caller that does not use them (a move makes its own): no work
    is done for them, so none is bounded or refused there either.
    """
    if len(payload) < _FINGERPRINT + 1 + _GAME_ID + 1:
        raise PackError("the state is truncated")
    ruleset = _by_fingerprint().get(payload[:_FINGERPRINT])
    if ruleset is None:
        raise PackError(
            "the state is of a ruleset or state layout this service does not know "
            "(made by another version of the service?)"
        )
    flags = payload[_FINGERPRINT]
    data = payload[_FINGERPRINT + 1 :]
    if flags & ~_DEFLATED:
        raise PackError("unknown state flags")
    if flags & _DEFLATED:
        inflater = zlib.decompressobj()
        try:
            data = inflater.decompress(data, _MAX_INFLATED)
        except zlib.error:
            raise PackError("the state does not inflate") from None
        if inflater.unconsumed_tail or not inflater.eof:
            raise PackError("the state does not inflate within its limits")
    if len(data) < _GAME_ID + 1:
        raise PackError("the state is truncated")
    game_id = data[:_GAME_ID].hex()
    version, pos = _read_uvarint(data, _GAME_ID)
    try:
        match, pos = _layout_of(ruleset)[1](data, pos, events)
    except (ValueError, TypeError, IndexError, RecursionError) as exc:
        if isinstance(exc, PackError):
            raise
        # a constructor refused a value (a tile's halves, ...): say only that
        raise PackError("the state does not unpack as a game of its ruleset") from None
    if pos != len(data):
        raise PackError("the state has trailing bytes")
    return Packed(ruleset, match, game_id, version)
