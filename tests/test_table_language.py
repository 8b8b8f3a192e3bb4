"""The table in the player's language (issue 20 §3): the suggestions' reasons.

The heuristic bot's reasons are messages (marked ``N_``, or a ``Why`` with parameters) that the
five catalogues translate: a suggestion at a Dutch table gives its reason in Dutch. Every reason
the bot gives in whole hands of several variants renders in every language, with no English
left where the catalogue has the message and no placeholder left unfilled.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest
from server_helpers import Running, token_of

from fivehundred.generator.glossary import entries
from fivehundred.generator.i18n import load_translations, po_path, read_catalog
from fivehundred.runtime.bots.heuristic import HeuristicBot
from fivehundred.runtime.bots.reasons import Why, reason_text
from fivehundred.runtime.engine.game import load_builtin
from fivehundred.runtime.engine.hand import HandState

LANGS = ("nl", "nb", "da", "ar", "pt")


def reasons(variant: str, hands: int) -> Iterator[str]:
    rules = load_builtin(variant)
    bot = HeuristicBot()
    rng = Random(7)
    for n in range(hands):
        state = HandState.new(rules, n % rules.players, rng)
        while not state.is_over:
            decision = bot.decide(state)
            yield decision.reason
            state.apply(decision.action)


@pytest.mark.parametrize("variant", ["australian", "american", "misere-230", "three-handed"])
def test_every_reason_renders_in_every_language(variant: str) -> None:
    seen = {r: None for r in reasons(variant, 6)}
    assert len(seen) > 8
    assert any(isinstance(r, Why) for r in seen)  # with parameters: chances, suits, levels
    for lang in LANGS:
        tr = load_translations(lang)
        for reason in seen:
            text = reason_text(reason, tr)
            assert "%(" not in text and text
            template = reason.template if isinstance(reason, Why) else reason
            assert tr.gettext(template) != template or template.startswith("%("), (lang, template)
    # English is the reason itself (a Why is its English text)
    assert all(reason_text(r) == str(r) for r in seen)


@pytest.fixture()
def running(tmp_path: Path) -> Iterator[Running]:
    r = Running(str(tmp_path / "tables.sqlite"))
    yield r
    r.stop()


def test_a_dutch_table_gives_the_suggestions_reason_in_dutch(running: Running) -> None:
    seats = [{}, {"bot": "heuristic"}, {"bot": "heuristic"}, {"bot": "heuristic"}]
    _, made = running.post(
        {"variant": "australian", "seats": seats, "options": {"suggestions": True}}
    )
    dutch = load_translations("nl")
    with running.ws(made["id"], token_of(made["seats"][0]), lang="nl") as ws:
        while True:
            state = json.loads(ws.recv(timeout=30))
            if state.get("type") == "state" and state.get("suggestion"):
                break
    table = running.table(made["id"])
    from fivehundred.runtime.server.table import suggest

    action, reason_en = suggest(table.hand)
    assert state["suggestion"]["action"] == action
    assert state["suggestion"]["reason"] == suggest(table.hand, dutch)[1]
    assert state["suggestion"]["reason"] != reason_en


@pytest.mark.parametrize("lang", LANGS)
def test_a_table_and_the_variant_list_name_the_variant_in_the_readers_language(
    running: Running, lang: str
) -> None:
    # issue 21: a variant's name is translated where a person reads it (the table's header and
    # the first page's list of variants, as in the books)
    _, made = running.post({"variant": "australian"})
    with running.ws(made["id"], token_of(made["seats"][0]), lang=lang) as ws:
        while True:
            state = json.loads(ws.recv(timeout=30))
            if state.get("type") == "state":
                break
    english = load_builtin("australian").name
    translated = load_translations(lang).gettext(english)
    assert translated != english
    assert state["name"] == translated
    _, body = running.get(f"/api/variants?lang={lang}")
    names = {v["id"]: v["name"] for v in json.loads(body)}
    assert names["australian"] == translated
    _, body = running.get("/api/variants")
    assert {v["id"]: v["name"] for v in json.loads(body)}["australian"] == english


def test_a_widow_variant_s_table_says_widow_where_its_book_does(running: Running) -> None:
    """The page names the kitty by the variant's word (the American book's widow: weduwe,
    viúva, الأرملة), with strings of its own for the widow's card mark and buttons."""
    words = {}
    for variant in ("american", "australian"):
        _, made = running.post({"variant": variant})
        with running.ws(made["id"], token_of(made["seats"][0]), lang="nl") as ws:
            while True:
                state = json.loads(ws.recv(timeout=30))
                if state.get("type") == "state":
                    break
        words[variant] = state["kitty_word"]
    assert words == {"american": "widow", "australian": "kitty"}
    for lang in LANGS:
        _, body = running.get(f"/api/strings/{lang}")
        strings = json.loads(body)["strings"]
        glossary = {e.english: e for e in entries(read_catalog(po_path(lang), lang))}
        for kitty, widow in (
            ("kitty-card", "widow-card"),
            ("take", "take-widow"),
            ("sans", "sans-widow"),
        ):
            assert glossary["kitty"].used_in(strings[kitty]), (lang, strings[kitty])
            assert glossary["widow"].used_in(strings[widow]), (lang, strings[widow])
