"""How to play (``GET /how-to-play``): every game of the catalogue in a player's words,
from one source per game that cannot drift from the rulebook of record unseen: the same
five parts for every game, each citing rule tags that exist in that game's section of
``docs/rules.md``, its numbers filled in from the code, and nothing of the developer's
notation (tags, reason codes, option ids) in the text a player reads."""

from __future__ import annotations

import itertools
import pathlib
import re
import urllib.request
from html.parser import HTMLParser

import pytest

from domino_rules import games
from domino_rules.games.package import GamePackage
from domino_rules.web import how_to_play
from domino_rules.web.how_to_play import PARTS, HowToPlayError

from .support.servers import Servers

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULEBOOK = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")

GAMES = games.all_games()
IDS = [game.id for game in GAMES]

#: What a player must never read: a rule tag ("[BLK-2]", "A5-8"), a reason code or any
#: word in capitals ("BAD_OPTIONS", "DRAW"), an option id ("target_score").
TAG = re.compile(r"\[?\b[A-Z][A-Z0-9]*-\d+\b\]?")
CAPITALS = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{2,}\b")
SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")


def _section_of_rulebook(game: GamePackage) -> str:
    """The text of ``game``'s ``## `` section of docs/rules.md."""
    found = re.search(
        rf"^## {re.escape(game.docs_section)}\n(.*?)(?=^## |\Z)", RULEBOOK, re.M | re.S
    )
    assert found is not None, f"{game.id}: no section {game.docs_section!r} in docs/rules.md"
    return found.group(1)


class _Text(HTMLParser):
    """The text a reader sees, per section id, and the page's headings in order."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, list[str]] = {}
        self.headings: list[int] = []
        self.current: str | None = None
        self.skip = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "section":
            self.current = named.get("id") or ""
            self.sections[self.current] = []
        if tag in ("style", "script"):
            self.skip = True
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        label = named.get("aria-label")
        if label and self.current is not None:
            self.sections[self.current].append(label)

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self.current = None
        if tag in ("style", "script"):
            self.skip = False

    def handle_data(self, data: str) -> None:
        if not self.skip and self.current is not None:
            self.sections[self.current].append(data)


def _parsed(page: str) -> _Text:
    parser = _Text()
    parser.feed(page)
    return parser


@pytest.fixture(scope="module")
def page() -> str:
    return how_to_play.how_to_play_html().decode("utf-8")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_game_has_its_five_parts_each_citing_its_own_rules(game: GamePackage) -> None:
    told = how_to_play.read(game)
    assert told is not None, f"{game.id}: no {how_to_play.SOURCE} in its package"
    assert tuple(part.title for part in told.parts) == PARTS
    in_rulebook = set(re.findall(r"`\[([A-Z0-9]+-\d+)\]`", _section_of_rulebook(game)))
    for part in told.parts:
        assert part.tags, f"{game.id}: {part.title!r} cites no rule"
        unknown = [tag for tag in part.tags if tag not in in_rulebook]
        assert not unknown, f"{game.id}: {part.title!r} cites {unknown}, not rules of its section"
        assert "{" not in part.text and "}" not in part.text, (game.id, part.title)
        assert len(part.text.split()) >= 15, f"{game.id}: {part.title!r} says too little"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_numbers_come_from_the_code(game: GamePackage) -> None:
    """Every placeholder of a source resolves, and what it becomes is what the code
    says: the size of the set, the deal and each integer option's default."""
    source = how_to_play.source_of(game)
    assert source is not None
    told = how_to_play.read(game)
    assert told is not None
    text = " ".join(part.text for part in told.parts)
    ruleset = game.ruleset
    options = ruleset.make_options({})
    if "{tiles}" in source:
        assert f"{len(ruleset.full_set(options))} tiles" in text
    for spec in ruleset.option_specs():
        if spec.type == "int" and f"{{{spec.name}}}" in source:
            assert str(spec.default) in text, (game.id, spec.name)
    for players in re.findall(r"\{dealt:(\d+)\}", source):
        match = ruleset.new_match(options, int(players), "a deal")
        assert str(len(match.hand_state.hands[0])) in text


def test_a_source_that_would_drift_is_refused() -> None:
    game = games.get("one_arm_joe")
    good = how_to_play.source_of(game)
    assert good is not None
    with pytest.raises(HowToPlayError, match="not"):
        how_to_play.read(game, good.replace("## The deal", "## Dealing"))
    with pytest.raises(HowToPlayError, match="cites no rule"):
        how_to_play.read(game, re.sub(r"<!-- rules: [^>]*-->", "", good))
    with pytest.raises(HowToPlayError, match="names nothing"):
        how_to_play.read(game, good.replace("{target_score}", "{target_points}", 1))


def test_a_game_from_outside_without_a_source_still_has_its_section() -> None:
    from tests.toy_game import GAME as TOY

    assert how_to_play.source_of(TOY) is None and how_to_play.read(TOY) is None
    section = how_to_play.section_html(TOY)
    assert section.startswith(f'<section id="{TOY.id}"')
    assert f'href="rules#{TOY.id}"' in section and f'href="play?ruleset={TOY.id}"' in section
    assert TOY.ruleset.name in section


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_player_reads_no_tag_reason_code_or_option_id(page: str, game: GamePackage) -> None:
    text = " ".join(_parsed(page).sections[game.id])
    assert game.ruleset.name in text
    assert not TAG.findall(text), TAG.findall(text)
    assert not CAPITALS.findall(text), CAPITALS.findall(text)
    assert not SNAKE.findall(text), SNAKE.findall(text)
    assert "{" not in text and "}" not in text and "<!--" not in text


def test_the_page_is_a_document_in_order(page: str) -> None:
    assert '<html lang="en">' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert page.count("<main>") == 1 and "<nav " in page and "<h1>" in page
    headings = _parsed(page).headings
    assert headings[0] == 1 and headings.count(1) == 1
    for before, after in itertools.pairwise(headings):
        assert after <= before + 1, f"a heading level skipped: {headings}"
    assert "<script" not in page


def test_served_over_http_with_a_section_per_ruleset(servers: Servers) -> None:
    with urllib.request.urlopen(f"{servers.http_base}/how-to-play", timeout=30) as response:
        assert response.status == 200
        assert response.headers.get_content_type() == "text/html"
        assert "default-src 'none'" in response.headers["Content-Security-Policy"]
        page = response.read().decode("utf-8")
    with urllib.request.urlopen(f"{servers.http_base}/v1/rulesets", timeout=30) as response:
        catalogue = response.read().decode("utf-8")
    served = re.findall(r'"id":\s*"([a-z0-9_]+)"', catalogue)
    sections = re.findall(r'<section id="([^"]+)"', page)
    assert sorted(sections) == sorted(set(served) & set(IDS)) == sorted(IDS)
    with urllib.request.urlopen(f"{servers.http_base}/rules", timeout=30) as response:
        rules = response.read().decode("utf-8")
    for ruleset in IDS:
        section = page.split(f'<section id="{ruleset}"', 1)[1].split("</section>", 1)[0]
        assert f'href="play?ruleset={ruleset}"' in section
        assert f'href="rules#{ruleset}"' in section
        assert f'id="{ruleset}"' in rules  # the rulebook's anchor it links to
        assert f'href="#{ruleset}"' in page  # listed at the top


def test_the_rulebook_of_record_links_to_how_to_play(servers: Servers) -> None:
    """A player who lands on the rulebook finds the page written for them."""
    with urllib.request.urlopen(f"{servers.http_base}/rules", timeout=30) as response:
        rules = response.read().decode("utf-8")
    top = rules.split('<p class="top">', 1)[1].split("</p>", 1)[0]
    assert '<a href="how-to-play">How to play</a>' in top
    with urllib.request.urlopen(f"{servers.http_base}/how-to-play", timeout=30) as response:
        assert response.status == 200  # the link, relative to /rules, finds the page
