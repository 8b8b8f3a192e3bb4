"""The rule book (generator/docs.py, templates/rulebook.md.j2) and `show` (generator/show.py)."""

from __future__ import annotations

import copy
import gettext
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from fivehundred.generator.clauses import CLAUSE_IDS
from fivehundred.generator.docs import RuleBookError, md_text, render_markdown
from fivehundred.generator.model import Ruleset, build_ruleset
from fivehundred.generator.options import with_defaults
from fivehundred.generator.show import show_text
from fivehundred.runtime.engine.tableformat import Clause

SPEC = Path(__file__).resolve().parents[1] / "specs" / "variants" / "australian.yaml"


def spec(**changes: Any) -> dict[str, Any]:
    """The australian spec dict with changes; keys are dotted paths (``auction.raise_own_bid``)."""
    data = copy.deepcopy(yaml.safe_load(SPEC.read_text(encoding="utf-8")))
    for path, value in changes.items():
        node = data
        *parents, last = path.split(".")
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value
    return data


def book(**changes: Any) -> str:
    return render_markdown(build_ruleset(with_defaults(spec(**changes))))


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return build_ruleset(with_defaults(spec()))


@pytest.fixture(scope="module")
def md(rs: Ruleset) -> str:
    return render_markdown(rs)


def table_after(text: str, header_start: str) -> list[list[str]]:
    """The body rows of the first Markdown table whose header line starts with ``header_start``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    header = lines[start]
    assert re.fullmatch(r"\|(:?-+:?\|)+", lines[start + 1]), lines[start + 1]
    width = len(split_row(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = split_row(line)
        assert len(cells) == width, line
        rows.append(cells)
    return rows


def split_row(line: str) -> list[str]:
    assert line.startswith("|") and line.endswith("|"), line
    return [c.strip() for c in re.split(r"(?<!\\)\|", line[1:-1])]


def clause_line(text: str, clause_id: str) -> str:
    # the item: anchor, the rule's title in bold, the clause id as a badge, then the text
    start = f'- <a id="{clause_id}"></a>**'
    badge = f"** <sub>`{clause_id}`</sub> — "
    for line in text.splitlines():
        if line.startswith(start) and badge in line:
            return line.split(badge, 1)[1]
    raise AssertionError(f"no item for {clause_id}")


def without_ids(text: str) -> str:
    """``text`` with every clause id (anchors, bold ids, links) removed."""
    for cid in sorted(CLAUSE_IDS, key=len, reverse=True):
        text = text.replace(cid, "")
    return text


# -- structure -------------------------------------------------------------------------------


def test_every_clause_is_an_anchored_item(rs: Ruleset, md: str) -> None:
    for clause in rs.clauses:
        assert md.count(f'<a id="{clause["id"]}"></a>') == 1, clause["id"]
        assert clause_line(md, clause["id"]).strip()


def test_sections_in_order(md: str) -> None:
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    assert headings == [
        "## Players and deck",
        "## Dealing",
        "## Bidding",
        "## The kitty",
        "## Card order",
        "## Play",
        "## Scoring",
        "## End of the game",
        "## Choices made by this rule book",
        "## How this variant plays",
    ]
    assert md.startswith("# Australian Five Hundred\n\nFour players in two partnerships")
    assert "Variant id: `australian`." in md
    for source in ("G is the rules page", "T is the help page", "P is the rules page"):
        assert source in md


def test_output_is_clean_and_deterministic(rs: Ruleset, md: str) -> None:
    assert md == render_markdown(rs)
    assert md.endswith("\n") and not md.endswith("\n\n")
    assert not any(line != line.rstrip() for line in md.splitlines())
    assert "\n\n\n" not in md


def test_ladder_table(rs: Ruleset, md: str) -> None:
    rows = table_after(md, "| Rank | Bid |")
    assert len(rows) == len(rs.ladder) == 28
    for i, (row, bid) in enumerate(zip(rows, rs.ladder, strict=True), 1):
        assert row[0] == str(i)
        # a bid of tricks as players write it (6♠, 7NT), a special bid by its code
        written = bid["code"].replace("S", "♠").replace("C", "♣").replace("D", "♦")
        written = written.replace("H", "♥") if bid["kind"] == "suit" else f"`{bid['code']}`"
        assert row[1] == written
        assert row[3] == str(bid["value"])
    meanings = {row[1]: row[2] for row in rows}
    assert meanings["7♥"] == "seven hearts"
    assert meanings["10NT"] == "ten no trumps"
    assert meanings["`MIS`"] == "misère"
    assert meanings["`OMIS`"] == "open misère"
    assert meanings["`BMIS`"] == "blind misère"


AVONDALE = {
    "6": ["40", "60", "80", "100", "120"],
    "7": ["140", "160", "180", "200", "220"],
    "8": ["240", "260", "280", "300", "320"],
    "9": ["340", "360", "380", "400", "420"],
    "10": ["440", "460", "480", "500", "520"],
}


def test_score_table_is_avondale(md: str) -> None:
    header = next(line for line in md.splitlines() if line.startswith("| Tricks |"))
    assert split_row(header) == [
        "Tricks", "♠ Spades", "♣ Clubs", "♦ Diamonds", "♥ Hearts", "No trumps",
    ]  # fmt: skip
    rows = table_after(md, "| Tricks |")
    assert {row[0]: row[1:] for row in rows} == AVONDALE
    assert [row[0] for row in rows] == ["6", "7", "8", "9", "10"]
    misere = table_after(md, "| Bid | Meaning | Value |")
    assert misere == [
        ["`MIS`", "misère", "250"],
        ["`OMIS`", "open misère", "500"],
        ["`BMIS`", "blind misère", "500"],
    ]


def test_card_order_table(rs: Ruleset, md: str) -> None:
    rows = {row[0]: row for row in table_after(md, "| Strain | Trumps |")}
    assert list(rows) == ["♠ Spades", "♣ Clubs", "♦ Diamonds", "♥ Hearts", "No trumps"]
    hearts = rows["♥ Hearts"]
    assert hearts[1] == "JK J♥ J♦ A♥ K♥ Q♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥"
    assert hearts[4] == "A♦ K♦ Q♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦"  # no jack: it is the left bower
    assert hearts[5] == "—"
    assert rows["♣ Clubs"][1].startswith("JK J♣ J♠ A♣")
    nt = rows["No trumps"]
    assert nt[1] == "JK"
    assert nt[4] == "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦"
    # the table is the model's order, symbol for letter
    for table, row in zip(rs.strains, rows.values(), strict=True):
        for s in range(4):
            if s != table["trump"]:
                assert row[2 + s].replace("♠", "S").replace("♣", "C").replace("♦", "D").replace(
                    "♥", "H"
                ) == " ".join(table["order"][s])


def test_clause_texts_use_params(md: str) -> None:
    misere = clause_line(md, "auction.misere")
    # the bid by its name, its neighbours as players write them (issue 21)
    assert "Misère ranks above 7NT and below 8♠" in misere
    assert "only after someone has bid 7" in misere
    assert "worth 250 points" in misere
    assert "ranks above 10♦ and below blind misère" in clause_line(md, "auction.open-misere")
    assert "at any time" in clause_line(md, "auction.open-misere")
    assert "first call" in clause_line(md, "auction.blind-misere")
    assert (
        "3 cards to each player, 1 card to the kitty, 4 cards to each player, 1 card to the "
        "kitty, 3 cards to each player, 1 card to the kitty." in clause_line(md, "deal.packets")
    )
    assert "{0, 2}, {1, 3}" in clause_line(md, "seats.teams")
    assert "43 cards" in clause_line(md, "deck.cards")
    assert "  - ♥ Hearts (11 cards): A K Q J 10 9 8 7 6 5 4" in md
    assert "scores 250 points" in clause_line(md, "score.slam")
    assert "10 points for each trick" in clause_line(md, "score.opponents")
    assert "\u2212500 or below" in clause_line(md, "end.lose")


def test_choices_link_their_clauses(rs: Ruleset, md: str) -> None:
    section = md.split("## Choices made by this rule book", 1)[1]
    for choice in rs.choices:
        clause, source = choice["clause"], choice["source"]
        assert f"](#{clause}) <sub>`{clause}`</sub> (source: {source}): " in section


# -- terms -----------------------------------------------------------------------------------


def test_terms_switch_words() -> None:
    data = spec()
    data["terms"] = {"kitty": "widow", "misere": "nullo", "joker": "bird"}
    data["summary"] = "A partnership game."
    data["choices"] = []
    text = render_markdown(build_ruleset(with_defaults(data)))
    prose = without_ids(text).lower()
    assert "widow" in prose and "nullo" in prose and "bird" in prose
    assert "kitty" not in prose
    assert "misère" not in prose and "misere" not in prose
    assert "## The widow" in text
    rows = {row[1]: row[2] for row in table_after(text, "| Rank | Bid |")}
    assert (rows["`MIS`"], rows["`OMIS`"], rows["`BMIS`"]) == ("nullo", "open nullo", "blind nullo")
    assert "In a nullo contract" in clause_line(text, "joker.no-trumps.misere-void")
    assert "the bird" in clause_line(text, "joker.no-trumps.misere-void")


def test_unknown_term_word_is_an_error() -> None:
    data = spec()
    data["terms"] = {"kitty": "pot"}
    with pytest.raises(RuleBookError, match="kitty"):
        render_markdown(build_ruleset(with_defaults(data)))


# -- hostile author text ---------------------------------------------------------------------

HOSTILE = "<script>alert(1)</script> | `code` {{ 7*7 }} {% if x %}x{% endif %} [a](b) _i_ & #"


def test_author_text_is_escaped() -> None:
    data = spec()
    data["name"] = "# " + HOSTILE
    data["summary"] = "- first line\n\n| a | b |\n|---|---|\n" + HOSTILE
    data["choices"][0]["text"] = HOSTILE + "\n| x |"
    data["choices"].append({"clause": "no.such<b>clause", "source": "<i>", "text": "ok"})
    text = render_markdown(build_ruleset(with_defaults(data)))
    assert "<script>" not in text and "<b>" not in text and "<i>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    rules_part = text.split("## How this variant plays")[0]  # the section after it has figures
    assert "{{ 7\\*7 }}" in text and "49" not in rules_part
    assert "{% if x %}x{% endif %}" in text
    assert "\\`code\\`" in text and "\\[a\\](b)" in text and "\\_i\\_" in text
    assert "&amp;" in text
    title = text.splitlines()[0]
    assert title.startswith("# \\# &lt;script&gt;")
    summary = text.splitlines()[2]
    assert summary.startswith("\\- first line \\| a \\| b \\| \\|---\\|---\\| &lt;script&gt;")
    # every unescaped pipe is table structure: tables keep their shape
    assert len(table_after(text, "| Rank | Bid |")) == 28
    assert len(table_after(text, "| Tricks |")) == 5
    for line in text.splitlines():
        if not line.startswith("|"):
            assert not re.search(r"(?<!\\)\|", line), line
    # a choice naming an unknown clause is not linked
    assert "- <sub>no.such&lt;b&gt;clause</sub> (source: &lt;i&gt;): ok" in text


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("a\nb\r\n c", "a b c"),
        ("#tag", "\\#tag"),
        ("1. one", "1\\. one"),
        ("+ x", "\\+ x"),
        ("a|b", "a\\|b"),
        ("x < y > z & w", "x &lt; y &gt; z &amp; w"),
        ("back\\slash", "back\\\\slash"),
        ("  spaced   out  ", "spaced out"),
    ],
)
def test_md_text(raw: str, escaped: str) -> None:
    assert md_text(raw) == escaped


# -- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clause_id", "changes", "default_text", "changed_text"),
    [
        ("deal.first-dealer", {"deal.first_dealer": "draw"}, "at random", "the joker lowest"),
        (
            "auction.raise-own-bid",
            {"auction.raise_own_bid": True},
            "may not raise",
            "may still raise",
        ),
        (
            "end.must-bid-to-win",
            {"end.must_bid_to_win": False},
            "wins only by reaching 500 points",
            "however it scored them",
        ),
        (
            "joker.no-trumps.lead",
            {"play.joker.no_trumps.lead": "name-any-suit"},
            "not yet been led",
            "names a suit; the others",
        ),
        (
            "joker.no-trumps.misere-void",
            {"play.joker.no_trumps.void_must_play": "always"},
            "In a misère contract",
            "A player who cannot follow suit must play the joker",
        ),
        (
            "play.misere-partner",
            {"play.misere_partner": "both-hands"},
            "lays their cards face down",
            "plays their partner's hand as well as their own",
        ),
        (
            "score.opponents",
            {"scoring.opponent_tricks": "own"},
            "The contractor's opponents score 10 points",
            "do not pool their tricks",
        ),
    ],
)
def test_option_branches(
    md: str, clause_id: str, changes: dict[str, Any], default_text: str, changed_text: str
) -> None:
    assert default_text in clause_line(md, clause_id)
    assert changed_text not in clause_line(md, clause_id)
    changed = clause_line(book(**changes), clause_id)
    assert changed_text in changed
    assert default_text not in changed


def test_open_misere_from_start(md: str) -> None:
    data = spec()
    data["auction"]["ladder"]["special"][1]["open"] = "from-start"
    text = render_markdown(build_ruleset(with_defaults(data)))
    assert "after the first trick" in clause_line(md, "play.open-misere")
    assert "before the opening lead" in clause_line(text, "play.open-misere")


def test_misere_any_time_and_no_freeze_clauses(md: str) -> None:
    data = spec()
    data["auction"]["ladder"]["special"][0]["available"] = "any-time"
    data["scoring"]["opponents_freeze_at"] = 490
    text = render_markdown(build_ruleset(with_defaults(data)))
    assert "only after someone has bid" not in clause_line(text, "auction.misere")
    assert "at any time" in clause_line(text, "auction.misere")
    assert "above 490 points" in clause_line(text, "score.freeze")
    assert '<a id="score.freeze">' not in md


def test_clauses_that_come_and_go() -> None:
    text = book(**{"play.joker.no_trumps.lead": "name-any-suit"})
    assert "joker.no-trumps.last-trick" not in text
    text = book(**{"play.joker.no_trumps.lead_only_last_trick": True})
    last_only = clause_line(text, "joker.no-trumps.lead-last-only")
    assert "may be led only to the last trick" in last_only


def test_three_handed_single_round() -> None:
    data = spec(
        players=3,
        teams="none",
        **{
            "deck.suits": {s: [7, 8, 9, 10, "J", "Q", "K", "A"] for s in "SCDH"},
            "deal.first_dealer": "draw",
            "deal.packets": [
                {"to": "players", "cards": 3},
                {"to": "kitty", "cards": 3},
                {"to": "players", "cards": 4},
                {"to": "players", "cards": 3},
            ],
            "auction.procedure": "single-round",
            "scoring.opponent_tricks": "own",
        },
    )
    data["terms"] = {"kitty": "widow"}
    text = render_markdown(build_ruleset(with_defaults(data)))
    assert "each of the 3 players is a side of their own" in clause_line(text, "seats.teams")
    assert "plays alone against all the other players" in clause_line(text, "play.misere-partner")
    assert "once only" in clause_line(text, "auction.single-round")
    assert "When every player has called" in clause_line(text, "auction.end")
    assert "3 cards to the widow" in clause_line(text, "deal.packets")
    assert '<a id="auction.raise-own-bid">' not in text
    assert '<a id="auction.pass-final">' not in text
    # a choice about a missing clause: its id as a badge, not linked
    assert "- <sub>`auction.raise-own-bid`</sub> (source: T)" in text
    assert "  - ♠ Spades (8 cards): A K Q J 10 9 8 7" in text


def test_two_jokers() -> None:
    data = spec(**{"deck.jokers": ["JK", "BJ"], "deal.kitty": 4})
    data["deal"]["packets"][-1]["cards"] = 2
    rs = build_ruleset(with_defaults(data))
    text = render_markdown(rs)
    assert "a red joker (JK) and a black joker (BJ)" in clause_line(text, "deck.joker")
    assert "black joker wins" in clause_line(text, "joker.no-trumps.wins")
    rows = {row[0]: row for row in table_after(text, "| Strain | Trumps |")}
    assert rows["♥ Hearts"][1].startswith("BJ JK J♥ J♦ A♥")
    assert rows["No trumps"][1] == "BJ JK"


# -- strictness ------------------------------------------------------------------------------


def test_unknown_clause_id_is_an_error(rs: Ruleset) -> None:
    new: Any = {"id": "play.brand-new-rule", "params": {}}
    bad = Ruleset({**rs.tables, "clauses": [*rs.clauses, new]})
    with pytest.raises(RuleBookError, match=r"play\.brand-new-rule"):
        render_markdown(bad)


def test_unknown_option_value_is_an_error(rs: Ruleset) -> None:
    clauses: list[Clause] = [
        {"id": c["id"], "params": {"how": "by-auction"}} if c["id"] == "deal.first-dealer" else c
        for c in rs.clauses
    ]
    with pytest.raises(RuleBookError, match="by-auction"):
        render_markdown(Ruleset({**rs.tables, "clauses": clauses}))


# -- translation hooks -----------------------------------------------------------------------


def _shout(message: str) -> str:
    """Upper-case a message, placeholders kept: marks every text that went through gettext."""
    return "".join(
        part if part.startswith("%(") else part.upper()
        for part in re.split(r"(%\([a-z_]+\)s)", message)
    )


class Shouting(gettext.NullTranslations):
    """A catalogue that translates English into upper-case English."""

    def gettext(self, message: str) -> str:
        return _shout(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _shout(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return _shout(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return _shout(msgid1 if n == 1 else msgid2)


def test_all_prose_goes_through_gettext(rs: Ruleset) -> None:
    text = render_markdown(rs, "xx", Shouting())
    assert "THE DECK HAS 43 CARDS" in text
    assert "## PLAYERS AND DECK" in text
    assert "| 11 | `MIS` | MISÈRE | 250 |" in text
    # Remove author text (name, summary, choice texts) and ids: no lower-case word is left.
    lines = text.splitlines()
    body = "\n".join(lines[3:]).split("## CHOICES MADE BY THIS RULE BOOK")[0]
    body = re.sub(r'<a id="[^"]*"></a>|</?sub>', "", body)
    body = re.sub(r"\]\([^)]*\)", "]", body)  # link targets (index.md, the base's book)
    body = without_ids(body).replace("`australian`", "")
    assert re.findall(r"\b[a-zè]{2,}\b", body) == []


# -- show ------------------------------------------------------------------------------------


def test_show_text(rs: Ruleset) -> None:
    text = show_text(rs)
    assert text.endswith("\n") and not any(line != line.rstrip() for line in text.splitlines())
    assert text.startswith("Australian Five Hundred (australian)\n")
    codes = [b["code"] for b in rs.ladder]
    positions = [
        re.search(rf"^\s+{i}\s+{re.escape(c)}\s", text, re.M) for i, c in enumerate(codes, 1)
    ]
    assert all(positions)
    starts = [m.start() for m in positions if m]
    assert starts == sorted(starts)
    assert re.search(r"^\s+11\s+MIS\s+250\s", text, re.M)
    assert "trumps: JK JH JD AH KH QH 10H" in text
    assert re.search(r"^\s+10\s+440\s+460\s+480\s+500\s+520$", text, re.M)
    assert "4 players" in text or "players: 4" in text
    assert "43 cards" in text and "kitty 3" in text
    # The action ids: 43 cards, 4 joker leads, pass, 28 bids, 4 nominations, take/sans,
    # 4 partners, 43 calls, 43 one-card discards = 172.
    assert "Action ids (172 distinct, 0..171):" in text
    assert re.search(r"^\s+129\.\.171\s+discard\s+discard this card", text, re.M)


# -- the HTML book ---------------------------------------------------------------------------


def test_html_book_escapes_author_and_translator_text() -> None:
    from fivehundred.generator.docs import render_html

    data = spec()
    data["name"] = HOSTILE
    data["choices"][0]["text"] = HOSTILE

    class Sneaky(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "<b>&</b> " + message if message == "Players and deck" else message

    text = render_html(build_ruleset(with_defaults(data)), "xx", Sneaky())
    assert "<script>" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<h2>&lt;b&gt;&amp;&lt;/b&gt; Players and deck</h2>" in text
    assert "{{ 7*7 }}" in text and "49" not in text.split("<main>")[1].split("Players")[0]


def test_html_book_isolates_codes_and_colours_cards(rs: Ruleset) -> None:
    from fivehundred.generator.docs import render_html

    text = render_html(rs)
    assert text.startswith('<!DOCTYPE html>\n<html lang="en" dir="ltr">')
    assert '<bdi dir="ltr" class="card red">10♥</bdi>' in text
    assert '<bdi dir="ltr" class="card">A♠</bdi>' in text
    assert '<td><bdi dir="ltr" class="bid red">7♥</bdi></td><td>seven hearts</td>' in text
    for clause in rs.clauses:
        cid = clause["id"]
        assert f'<li id="{cid}"><strong class="title">' in text
        assert f'</strong> <a class="cid" dir="ltr" href="#{cid}">' in text
    assert "@media print" in text and "@page" in text  # one self-contained, printable file
    assert "<link" not in text and "<script" not in text


@pytest.mark.parametrize(("fmt", "anchor"), [("md", "_MD_ANCHOR"), ("html", "_HTML_ITEM")])
def test_a_book_that_loses_a_clause_is_refused(
    rs: Ruleset, monkeypatch: pytest.MonkeyPatch, fmt: str, anchor: str
) -> None:
    """Every clause of the variant must stand in its book under its own anchor: a book in which
    the renderer finds none of them (here: an anchor pattern that matches nothing) is a
    RuleBookError naming the clauses lost, in either format, never a book written without them."""
    from fivehundred.generator import docs

    monkeypatch.setattr(docs, anchor, re.compile(r"(?!x)x"))
    render = docs.render_markdown if fmt == "md" else docs.render_html
    with pytest.raises(RuleBookError, match="lost clauses") as caught:
        render(rs)
    assert all(c["id"] in str(caught.value) for c in rs.clauses)
