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
from typing import Any

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


def _illegal_at(table: Any, seat: int, text: str) -> Any:
    """The engine's refusal of ``text`` by ``seat`` at ``table``."""
    from fivehundred.runtime.engine.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as caught:
        table.act(seat, text)
    return caught.value


def _table_in_play() -> Any:
    """A four-person australian table whose hand the heuristic bot has played to its first
    card, the seat to move holding a face card it may not play (not held, or not following)."""
    from fivehundred.runtime.server.table import Options, Seat, Table

    rules = load_builtin("australian")
    table = Table(id="t", rules=rules, seats=(Seat(),) * 4, options=Options(), seed=11, source={})
    bot = HeuristicBot()
    while not (table.hand.phase_name == "play" and table.hand.trick):
        table.apply_chosen(bot.decide(table.hand).action)
    return table


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_an_illegal_moves_sentence_names_you_and_the_move_in_the_tables_notation(
    lang: str,
) -> None:
    """Issue 21 §4: the table's sentence for an illegal move writes its card and bids as the
    rest of the table does (Dutch ``B♥``, not ``'JH'``; a reason's bid ``7♥``, not ``7H``),
    isolated in Arabic, and names the seat from the reader's chair (``jij``, not ``plaats 0``)
    as ``fivehundred play`` does."""
    from fivehundred.runtime.engine.notation import LRI, PDI, notation_of
    from fivehundred.runtime.server.uitext import translations

    tr = translations(lang)
    notation = notation_of(tr)  # type: ignore[arg-type]
    you = tr.pgettext("seat", "you") if tr is not None else "you"  # type: ignore[attr-defined]
    table = _table_in_play()
    seat = table.to_move
    legal = {table.rules.action_str(a) for a in table.hand.legal_actions()}
    card = next(c for c in ("JH", "QS", "KC", "JD", "QH", "KD") if c not in legal)
    exc = _illegal_at(table, seat, card)
    text = table.illegal_text(exc, tr, seat)
    assert notation.isolate(notation.card(card)) in text, text
    assert repr(card) not in text and you in text and str(seat) not in text.split(":")[0]
    if lang != "en":
        assert notation.card(card) != card or lang == "ar"
    if lang == "ar":
        assert f"{LRI}{notation.card(card)}{PDI}" in text
    # a bid too low: the reason names the bid to beat in the notation too
    bidding = _table_at_auction()
    first = bidding.to_move
    bidding.act(first, "7H")
    exc = _illegal_at(bidding, bidding.to_move, "6S")
    text = bidding.illegal_text(exc, tr, bidding.to_move)
    assert notation.isolate(notation.bid("7H")) in text and "7H" not in text, text
    assert notation.isolate(notation.bid("6S")) in text and "6S" not in text, text
    assert you in text


def _table_at_auction() -> Any:
    """A four-person australian table at its first bid."""
    from fivehundred.runtime.server.table import Options, Seat, Table

    rules = load_builtin("australian")
    return Table(id="a", rules=rules, seats=(Seat(),) * 4, options=Options(), seed=3, source={})


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_a_tables_state_names_its_special_bids_in_the_readers_language(lang: str) -> None:
    """Issue 21 §4: the state a seat is sent names the variant's special bids in the table's
    language (the names the books give them), while its ladder and legal moves keep the codes
    the page sends back."""
    from fivehundred.runtime.engine.notation import special_names
    from fivehundred.runtime.server.uitext import translations

    tr = translations(lang)
    table = _table_at_auction()
    seat = table.to_move
    msg = table.message(seat, tr)
    assert msg["specials"] == special_names(table.rules, tr)
    assert set(msg["specials"]) == {"MIS", "OMIS", "BMIS"}
    if lang == "nl":
        assert msg["specials"]["MIS"] == "misère" and msg["specials"]["BMIS"] == "blinde misère"
    if lang != "en":
        assert msg["specials"]["OMIS"] != "open misère" or lang == "nl"
    assert "MIS" in msg["ladder"] and all(" " not in a for a in msg["legal"])


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_a_card_not_held_names_you_once_as_the_sentences_subject(lang: str) -> None:
    """A card not held is refused at the table naming the person once, as the sentence's
    subject does ("you may not play Q♠: you do not hold Q♠"), never "seat 0 (you)" in the
    reason; the engine's own English ``str()`` keeps the seat's number."""
    from fivehundred.runtime.engine.messages import render
    from fivehundred.runtime.engine.notation import notation_of
    from fivehundred.runtime.engine.seatnames import OWN_SEAT_REASONS, SEAT_WHO
    from fivehundred.runtime.server.uitext import translations

    tr = translations(lang)
    notation = notation_of(tr)  # type: ignore[arg-type]
    table = _table_in_play()
    seat = table.to_move
    held = {
        table.rules.deck[c] for c in range(table.rules.n_cards) if table.hand.hands[seat] >> c & 1
    }
    card = next(c for c in ("QS", "KC", "JD", "QH", "KD", "AS", "AH") if c not in held)
    exc = _illegal_at(table, seat, card)
    assert f"seat {seat} does not hold {card}" in str(exc)  # records and tests rely on it
    text = table.illegal_text(exc, tr, seat)
    yours = OWN_SEAT_REASONS["seat %(seat)s does not hold %(card)s"][0]
    if tr is not None:
        assert tr.gettext(yours) != yours, lang  # translated
    shown = notation.isolate(notation.card(card))
    assert text.endswith(": " + render(yours, {"card": shown}, tr)), text
    you = tr.pgettext("seat", "you") if tr is not None else "you"  # type: ignore[attr-defined]
    assert render(SEAT_WHO, {"seat": seat, "who": you}, tr) not in text
