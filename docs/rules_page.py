"""Render the rulebook (``docs/rules.md``) as the page the service serves at ``/rules``:
``python docs/rules_page.py``.

Writes ``service/domino_rules/web/rulebook/rules.html`` (or ``--out FILE``): one self-contained
page (no script, its style inline, nothing loaded from elsewhere) that fits a phone. Every
heading has the anchor GitHub gives it (``#one-arm-joe-one-armed-pete``), and each game's
section also has its ruleset id (``/rules#one_arm_joe``), from the catalogue's
``docs_section``, so that a client links to a game's rules knowing only its id. Links to
the repository's other files become plain text (the page is served without them); links
within the page and to the web stay links. A test renders it again and fails when the
committed page is stale.
"""

from __future__ import annotations

import argparse
import html
import pathlib
import re
import sys
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "docs" / "rules.md"
OUTPUT = ROOT / "service" / "domino_rules" / "web" / "rulebook" / "rules.html"

STYLE = """
  :root { --fg: #1d2330; --muted: #5b6577; --line: #d9dee7; --bg: #f6f7f9; --accent: #1f5fbf; }
  * { box-sizing: border-box; }
  body { margin: 0 auto; max-width: 880px; padding: 16px 20px 48px;
         font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); }
  code, pre { font: 14px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  code { overflow-wrap: anywhere; }
  pre { background: var(--bg); padding: 8px; overflow: auto; border-radius: 4px; }
  a { color: var(--accent); }
  h1, h2, h3, h4 { line-height: 1.25; overflow-wrap: anywhere; }
  h2 { border-top: 1px solid var(--line); padding-top: 16px; margin-top: 32px; }
  table { border-collapse: collapse; display: block; overflow-x: auto; max-width: 100%; }
  th, td { text-align: left; vertical-align: top; border: 1px solid var(--line); padding: 4px 8px; }
  th { background: var(--bg); }
  .top { font-size: 14px; color: var(--muted); }
  @media (max-width: 600px) { body { padding: 12px; font-size: 15px; } }
"""


def slug(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to
    hyphens."""
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def sections() -> dict[str, str]:
    """Each shipped game's section heading -> its ruleset id."""
    sys.path.insert(0, str(ROOT / "service"))
    from domino_rules import games

    return {game.docs_section: game.id for game in games.all_games()}


def render(markdown: str, ids: dict[str, str]) -> str:
    parser = MarkdownIt("commonmark").enable("table")
    tokens = parser.parse(markdown)
    seen: dict[str, int] = {}
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            text = tokens[index + 1].content
            anchor = slug(text)
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            token.attrSet("id", anchor if count == 0 else f"{anchor}-{count}")
            if token.tag == "h2" and text in ids:
                token.meta["ruleset"] = ids[text]
        elif token.type == "inline" and token.children:
            token.children = _local_links(token.children)
    renderer: Any = parser.renderer
    body = renderer.render(tokens, parser.options, {})
    for heading, ruleset in ids.items():
        anchor = slug(heading)
        body = body.replace(
            f'<h2 id="{anchor}">', f'<span id="{ruleset}"></span><h2 id="{anchor}">', 1
        )
    title = html.escape(tokens[1].content if len(tokens) > 1 else "Rules")
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title} — domino-rules</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        '<p class="top"><a href="play">Playground</a> · <a href="how-to-play">How to play</a> · '
        '<a href="docs">API</a></p>\n'
        f"{body}</body>\n</html>\n"
    )


def _local_links(children: list[Token]) -> list[Token]:
    """Links to the repository's files become their text (the page is served alone)."""
    out: list[Token] = []
    dropping = False
    for child in children:
        if child.type == "link_open":
            href = str(child.attrGet("href") or "")
            if not href.startswith(("#", "http://", "https://")):
                dropping = True
                continue
        if child.type == "link_close" and dropping:
            dropping = False
            continue
        out.append(child)
    return out


def generate(out: pathlib.Path = OUTPUT) -> pathlib.Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(SOURCE.read_text(encoding="utf-8"), sections()), encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=OUTPUT)
    path = generate(parser.parse_args(argv).out)
    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
