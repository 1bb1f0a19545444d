"""How to play, in a player's words: ``GET /how-to-play``, one section per game of the
catalogue, with the anchor of its ruleset id (``/how-to-play#tiu_u``).

Each game keeps its own source beside its rules, ``how_to_play.md`` in its package, with
the same five parts (:data:`PARTS`): the aim, the deal, a turn, scoring and the end. Under
each part's heading (``## The aim``) a hidden comment names the rule tags of
``docs/rules.md`` that the part puts into plain words (``<!-- rules: OAJ-9 OAJ-10 -->``);
the tests hold every tag to that game's section of the rulebook of record, so a rule
that changes shows which parts to read again. The numbers that come from the rules are
not typed but filled in from the code when the page is built (:func:`placeholders`):
``{target_score}`` is that option's default, ``{tiles}`` the number of tiles in the set,
``{dealt:3}`` the tiles each of three players is dealt. A game installed from outside
without a source still gets its section, which points to the rulebook.

The text is a small part of Markdown: paragraphs, lists (``- ``), ``**strong**``, and a
tile written ``[6-4]``, drawn as a small tile. A paragraph that starts ``Example:`` is set
apart as a worked example; one that starts ``Picture:`` draws tiles in a row as they lie
on the table (``[5-5]x`` crosswise), then, after ``|``, says in words what it shows.

The page is built from the package's data when first asked for (nothing to keep in
sync); it is self-contained, with no script and its style inline.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from .. import games
from ..games.package import GamePackage

__all__ = [
    "PARTS",
    "SOURCE",
    "HowToPlay",
    "HowToPlayError",
    "Part",
    "how_to_play_html",
    "placeholders",
    "read",
    "section_html",
    "source_of",
]

#: The file of a game's package that holds its how to play.
SOURCE = "how_to_play.md"
#: The five parts of every game's how to play, in order.
PARTS = ("The aim", "The deal", "A turn", "Scoring", "The end")

_CITES = re.compile(r"<!--\s*rules:\s*([^>]*?)\s*-->")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_PLACEHOLDER = re.compile(r"\{([a-z_]+)(?::([^{}]*))?\}")
_TILE = re.compile(r"\[(\d{1,2})-(\d{1,2})\]")
_STRONG = re.compile(r"\*\*(.+?)\*\*")


class HowToPlayError(ValueError):
    """A game's how to play lacks a part, cites no rule, or names a number the code
    does not know."""


@dataclass(frozen=True, slots=True)
class Part:
    """One of the five parts: its title, the rule tags it cites, its text (placeholders
    filled in, Markdown not yet rendered)."""

    title: str
    tags: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class HowToPlay:
    """A game's how to play, read from its source."""

    ruleset: str
    parts: tuple[Part, ...]


def source_of(game: GamePackage) -> str | None:
    """The text of ``game``'s ``how_to_play.md``, from the package that holds its ruleset,
    or ``None`` when it has none."""
    module = sys.modules.get(type(game.ruleset).__module__)
    package = getattr(module, "__package__", None)
    if not package:
        return None
    try:
        path = resources.files(package) / SOURCE
    except ModuleNotFoundError:  # pragma: no cover - a ruleset from no package
        return None
    if not path.is_file():
        return None
    return path.read_text(encoding="utf-8")


def placeholders(game: GamePackage) -> dict[str, Any]:
    """What the braces of a source may name, from the code: ``{name}``, ``{tiles}`` (the
    set's tiles with the default options), ``{min_players}``, ``{max_players}``, and each
    integer option's default by its name. ``{dealt:N}`` and ``{stock:N}`` (the tiles each
    of N players is dealt, and the tiles left to draw), optionally with options after
    the count (``{dealt:4:partnership=true}``), are worked out by :func:`_filled`."""
    ruleset = game.ruleset
    options = ruleset.make_options({})
    low, high = ruleset.player_range(options)
    values: dict[str, Any] = {
        "name": ruleset.name,
        "tiles": len(ruleset.full_set(options)),
        "min_players": low,
        "max_players": high,
    }
    for spec in ruleset.option_specs():
        if spec.type == "int":
            values[spec.name] = spec.default
    return values


def _deal(game: GamePackage, argument: str) -> tuple[int, int]:
    """(tiles in the largest hand, tiles left to draw) after the first deal, for
    ``argument``: ``N`` or ``N:option=value,...``."""
    count, _, rest = argument.partition(":")
    values: dict[str, Any] = {}
    for pair in filter(None, rest.split(",")):
        name, _, value = pair.partition("=")
        values[name.strip()] = {"true": True, "false": False}.get(value.strip(), value.strip())
    ruleset = game.ruleset
    options = ruleset.make_options(values)
    match = ruleset.new_match(options, int(count), "how to play")
    state = match.hand_state
    return max(len(hand) for hand in state.hands), ruleset.stock(state)


def _filled(text: str, game: GamePackage, values: Mapping[str, Any]) -> str:
    def one(found: re.Match[str]) -> str:
        key, argument = found.group(1), found.group(2)
        try:
            if argument is not None and key in ("dealt", "stock"):
                dealt, stock = _deal(game, argument)
                return str(dealt if key == "dealt" else stock)
            if argument is None and key in values:
                return str(values[key])
        except (ValueError, TypeError) as error:
            raise HowToPlayError(
                f"{game.id}: {found.group(0)} cannot be worked out: {error}"
            ) from error
        raise HowToPlayError(f"{game.id}: {found.group(0)} names nothing the code knows")

    return _PLACEHOLDER.sub(one, text)


def read(game: GamePackage, source: str | None = None) -> HowToPlay | None:
    """``game``'s how to play (from ``source``, by default its package's file), its
    placeholders filled; ``None`` when it has none. Raises :class:`HowToPlayError` for a
    part missing, out of order or citing no rule, or a placeholder the code cannot fill."""
    text = source_of(game) if source is None else source
    if text is None:
        return None
    values = placeholders(game)
    chunks = re.split(r"^## +(.+?) *$", text, flags=re.M)
    titles = tuple(chunks[1::2])
    if titles != PARTS:
        raise HowToPlayError(f"{game.id}: its parts are {list(titles)}, not {list(PARTS)}")
    parts = []
    for title, body in zip(titles, chunks[2::2], strict=True):
        tags = tuple(tag for cite in _CITES.findall(body) for tag in cite.replace(",", " ").split())
        if not tags:
            raise HowToPlayError(f"{game.id}: {title!r} cites no rule (<!-- rules: ... -->)")
        plain = _COMMENT.sub("", body).strip()
        if not plain:
            raise HowToPlayError(f"{game.id}: {title!r} says nothing")
        parts.append(Part(title, tags, _filled(plain, game, values)))
    return HowToPlay(game.id, tuple(parts))


def _inline(text: str) -> str:
    out = html.escape(" ".join(text.split()), quote=False)
    out = _STRONG.sub(r"<strong>\1</strong>", out)
    return _TILE.sub(
        r'<span class="tile" role="img" aria-label="the \1-\2">'
        r'<span aria-hidden="true">\1</span><span aria-hidden="true">\2</span></span>',
        out,
    )


def _picture(text: str) -> str:
    """Tiles in a row as they lie on the table (``[5-5]x`` lies crosswise), and after
    ``|`` what the picture shows, in words."""
    row, _, caption = text.partition("|")
    tiles = []
    said = []
    for found in re.finditer(r"\[(\d{1,2})-(\d{1,2})\](x?)", row):
        high, low, across = found.groups()
        kind = "tile across" if across else "tile"
        tiles.append(f'<span class="{kind}"><span>{high}</span><span>{low}</span></span>')
        said.append(f"{high}-{low}" + (" crosswise" if across else ""))
    label = html.escape("Tiles in a line: " + ", ".join(said), quote=True)
    return (
        f'<figure class="picture"><div class="row" role="img" aria-label="{label}">'
        f"{''.join(tiles)}</div><figcaption>{_inline(caption)}</figcaption></figure>"
    )


def _blocks(text: str) -> str:
    out = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.strip().splitlines()
        if lines[0].startswith("- "):
            items: list[str] = []
            for line in lines:
                if line.startswith("- "):
                    items.append(line[2:])
                else:
                    items[-1] += " " + line.strip()
            out.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + "</ul>")
        elif block.startswith("Picture:"):
            out.append(_picture(block[len("Picture:") :]))
        elif block.startswith("Example:"):
            rest = _inline(block[len("Example:") :])
            out.append(f'<p class="example"><strong>Example:</strong> {rest}</p>')
        else:
            out.append(f"<p>{_inline(block)}</p>")
    return "\n".join(out)


_STYLE = """
  :root { --fg: #1d2330; --muted: #4f596b; --line: #d9dee7; --bg: #f6f7f9; --accent: #1f5fbf; }
  * { box-sizing: border-box; }
  html { scroll-padding-top: 8px; }
  body { margin: 0 auto; max-width: 760px; padding: 16px 20px 48px;
         font: 17px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); }
  a { color: var(--accent); }
  h1, h2, h3 { line-height: 1.25; overflow-wrap: anywhere; }
  h3 { margin: 20px 0 4px; font-size: 18px; }
  p, li { overflow-wrap: anywhere; }
  nav ul { display: flex; flex-wrap: wrap; gap: 6px 16px; padding: 0; list-style: none; }
  section { border-top: 1px solid var(--line); margin-top: 32px; padding-top: 8px; }
  .top, .back { font-size: 15px; color: var(--muted); }
  .links { display: flex; flex-wrap: wrap; gap: 8px 20px; }
  .example { background: var(--bg); border-left: 4px solid var(--accent); padding: 8px 12px; }
  .tile { display: inline-flex; vertical-align: middle; border: 1.5px solid var(--fg);
          border-radius: 4px; background: #fff; font-weight: 600; font-size: 14px;
          line-height: 1.3; margin: 0 1px; }
  .tile > span { min-width: 1.3em; text-align: center; padding: 0 2px; }
  .tile > span + span { border-left: 1.5px solid var(--fg); }
  .picture { margin: 12px 0; }
  .picture .row { display: flex; flex-wrap: wrap; align-items: center; gap: 2px; }
  .picture .tile { font-size: 18px; margin: 0; }
  .picture .tile > span { min-width: 1.6em; padding: 2px 4px; }
  .tile.across { flex-direction: column; }
  .tile.across > span + span { border-left: 0; border-top: 1.5px solid var(--fg); }
  figcaption { font-size: 15px; color: var(--muted); margin-top: 4px; }
  @media (max-width: 600px) { body { padding: 12px; font-size: 16px; } }
"""


def section_html(game: GamePackage) -> str:
    """``game``'s section of the page: its five parts, or, for a game without a source,
    its description and a link to the rulebook."""
    ruleset = game.ruleset
    gid = html.escape(game.id)
    name = html.escape(ruleset.name)
    parts = read(game)
    out = [
        f'<section id="{gid}" aria-labelledby="{gid}-title">',
        f'<h2 id="{gid}-title">{name}</h2>',
        f'<p class="links"><a href="play?ruleset={gid}">Play {name}</a>'
        f'<a href="rules#{gid}">The full rules of {name}</a></p>',
    ]
    if parts is None:
        out.append(
            f"<p>{html.escape(ruleset.description)}</p>"
            f'<p>The full rules are in <a href="rules#{gid}">the rulebook</a>.</p>'
        )
    else:
        for part in parts.parts:
            out.append(f"<h3>{html.escape(part.title)}</h3>")
            out.append(_blocks(part.text))
    out.append('<p class="back"><a href="#games">Back to the list of games</a></p>')
    out.append("</section>")
    return "\n".join(out)


@cache
def how_to_play_html() -> bytes:
    """The page: every game of the catalogue, in the catalogue's order."""
    all_games = games.all_games()
    listed = "".join(
        f'<li><a href="#{html.escape(game.id)}">{html.escape(game.ruleset.name)}</a></li>'
        for game in all_games
    )
    sections = "\n".join(section_html(game) for game in all_games)
    page = (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>How to play — domino-rules</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        "<header>\n"
        '<p class="top"><a href="play">Playground</a> · <a href="rules">The rulebook</a></p>\n'
        "<h1>How to play</h1>\n"
        "<p>Each game in a few words: what you are trying to do, how the tiles are dealt, "
        "what you do on your turn, how points are scored and when it ends. The full "
        "rules, for settling a question, are in the rulebook.</p>\n"
        f'<nav id="games" aria-label="Games"><ul>{listed}</ul></nav>\n'
        "</header>\n<main>\n"
        f"{sections}\n</main>\n</body>\n</html>\n"
    )
    return page.encode("utf-8")
