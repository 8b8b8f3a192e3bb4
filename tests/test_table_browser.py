"""The table of ``fivehundred serve`` in a real browser: Debian's chromium, driven by Playwright.

A server runs in a thread of the test process on the loopback; each player has a browser
context of their own (their own invitation link, as on four machines). Four people play a whole
hand by clicking; a watcher's page never shows a card no watcher may see; the clock lets a
seat's bot move; the Arabic table is laid out right to left with its codes left to right;
nothing is wider than a phone's or a desktop's screen.

Under CI (``CI`` set) a missing chromium fails, as in tests/test_browser.py.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Running, knowable, token_of

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {reason}: .ci/run installs it (apt-get install chromium)")
    pytest.skip(f"{reason} (apt-get install chromium; set CI=1 to make this a failure)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        _unavailable(f"Debian's chromium is not installed at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed (pip install -e '.[test]')")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture()
def running(tmp_path: Path) -> Iterator[Running]:
    r = Running(str(tmp_path / "tables.sqlite"), clock_scale=0.02)
    yield r
    r.stop()


def open_seat(
    browser: Any, running: Running, link: str, lang: str = "en", width: int = 1200
) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{running.base}{link}&lang={lang}")
    page.wait_for_selector("#top b")
    return page


def click_a_legal_move(page: Any) -> bool:
    """Click the suggested move if the page shows one, else the first legal card or button."""
    for selector in (
        ".suggested",
        "#hand .card.legal",
        "#actions button:not([disabled])",
    ):
        target = page.locator(selector)
        if target.count():
            try:
                target.first.click(timeout=500)
                return True
            except Exception:  # redrawn under the pointer: the next round sees the new page
                return False
    return False


def test_four_players_play_a_whole_hand_by_clicking(browser: Any, running: Running) -> None:
    _, made = running.post({"variant": "australian", "options": {"suggestions": True}})
    table = running.table(made["id"])
    pages = [open_seat(browser, running, link) for link in made["seats"]]
    for _ in range(600):
        if table.between_hands:
            break
        seat = table.to_move
        if seat is not None:
            click_a_legal_move(pages[seat])
        pages[0].wait_for_timeout(30)
    assert table.between_hands, "the hand did not end"
    scores = [str(x) for x in table.summary["scores"]] if table.summary else []
    assert scores and scores != ["0", "0"]  # a hand scores: a side took tricks or a contract
    for page in pages:
        page.wait_for_selector("#summary:not([hidden])")
        assert page.locator("#summary a.record").count() == 1
        # the running score beside the table already counts the hand that is over
        assert page.locator(".scores .side b").all_inner_texts() == scores
        assert not page.errors, page.errors
    # Every move of the hand came from a click: no seat has a bot and no clock ran.
    assert len(table.records) == 1 and table.records[0]["actions"]
    for page in pages:
        page.context.close()


def test_a_watcher_sees_no_hidden_card(browser: Any, running: Running) -> None:
    _, made = running.post(
        {
            "variant": "australian",
            "seats": [{"bot": "heuristic"}] * 4,
            "options": {"bot_delay": 0.05},
        }
    )
    running.app.state.server.bot_delay = 0.05
    table = running.table(made["id"])
    page = open_seat(browser, running, made["watch"])
    seen_cards = 0
    previous = table.hand
    for _ in range(60):
        page.wait_for_timeout(60)
        before = knowable(table.hand, -1)
        shown = page.eval_on_selector_all(
            "#felt .card[data-code], #side .card[data-code]", "els => els.map(e => e.dataset.code)"
        )
        # The page may show the hand just before (a message in flight) or just after the read.
        allowed = before | knowable(table.hand, -1) | knowable(previous, -1)
        previous = table.hand
        hidden = {c.split(":")[0] for c in shown} - allowed
        assert not hidden, hidden
        assert page.locator("#hand .card").count() == 0
        seen_cards += len(shown)
    assert seen_cards > 0
    assert not page.errors, page.errors


def test_the_clock_moves_a_seats_bot(browser: Any, running: Running) -> None:
    _, made = running.post({"variant": "australian", "options": {"clock": 15}})
    table = running.table(made["id"])
    page = open_seat(browser, running, made["seats"][0])
    page.wait_for_function("document.querySelectorAll('#auction li').length >= 4", timeout=20000)
    assert len(table.actions) >= 4  # nobody clicked: each seat's clock ran out, its bot called
    assert not page.errors, page.errors


def test_the_arabic_table_is_right_to_left(browser: Any, running: Running) -> None:
    _, made = running.post({"variant": "australian", "options": {"suggestions": True}})
    page = open_seat(browser, running, made["seats"][0], lang="ar")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    page.wait_for_selector("#hand .card")
    codes = page.eval_on_selector_all(
        ".code", "els => els.map(e => [getComputedStyle(e).direction, e.textContent])"
    )
    assert codes and all(direction == "ltr" for direction, _ in codes)
    header = page.inner_text("#top")
    assert "الجولة" in header  # "Hand 1" in Arabic, from the catalogue
    # the first card with a suit symbol has its rank left of it (a joker, first when dealt, has
    # no suit symbol: the deal is random)
    box = page.evaluate(
        """() => { const c = [...document.querySelectorAll('#hand .card')]
            .find(e => e.querySelector('.suit'));
        const r = document.createRange(); r.selectNodeContents(c.firstChild);
        const s = c.querySelector('.suit').getBoundingClientRect();
        return [r.getBoundingClientRect().left, s.left]; }"""
    )
    assert box[0] < box[1]
    page.context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_table_fits_phone_and_desktop_widths(
    browser: Any, running: Running, width: int
) -> None:
    _, made = running.post({"variant": "six-handed", "options": {"suggestions": True}})
    page = open_seat(browser, running, made["seats"][0], width=width)
    page.wait_for_selector("#hand .card")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{overflow}px wider than a {width}px screen"
    for selector in ("#hand", "#actions", "#others", "#side"):
        right = page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().right")
        assert right <= width + 0.5, selector
    page.context.close()


def test_a_watchers_link_and_a_seat_link_show_different_hands(
    browser: Any, running: Running
) -> None:
    _, made = running.post({"variant": "australian"})
    me = open_seat(browser, running, made["seats"][0])
    me.wait_for_selector("#hand .card")
    codes = me.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.code)")
    table = running.table(made["id"])
    assert sorted(codes) == sorted(
        table.rules.deck[c] for c in range(table.rules.n_cards) if table.hand.hands[0] >> c & 1
    )
    assert token_of(made["seats"][0]) != token_of(made["watch"])
    me.context.close()


#: Seat 0 a person, the others bots: the auction comes round to seat 0 at once.
BOTS_BUT_SEAT_0 = [{}, {"bot": "heuristic"}, {"bot": "heuristic"}, {"bot": "heuristic"}]


def test_the_dutch_table_writes_cards_and_bids_in_dutch_notation(
    browser: Any, running: Running
) -> None:
    # The books' notation (runtime/engine/notation.py, from the nl catalogue): the jack of
    # hearts is B♥ (boer), the king H (heer), the queen V (vrouw), no trumps "SA".
    _, made = running.post({"variant": "australian", "seats": BOTS_BUT_SEAT_0})
    page = open_seat(browser, running, made["seats"][0], lang="nl")
    page.wait_for_selector("#hand .card")
    assert page.evaluate("codeEl('JH').textContent") == "B\u2665"
    assert page.evaluate("codeEl('KS').textContent") == "H\u2660"
    assert page.evaluate("codeText('QD')") == "\u2066V\u2666\u2069"
    hand = page.eval_on_selector_all(
        "#hand .card", "els => els.map(e => [e.dataset.code, e.textContent])"
    )
    page.wait_for_selector("#actions .bid .code")  # seat 0's turn to bid: the ladder
    letters = {"J": "B", "Q": "V", "K": "H", "A": "A"}
    for code, shown in hand:
        # a joker (JK, BJ) is no jack: its code only looks like rank J and a suit
        if code not in ("JK", "BJ") and code[:-1] in letters:
            assert shown.startswith(letters[code[:-1]]), (code, shown)
    ladder = page.eval_on_selector_all(
        "#actions .bid .code", "els => els.map(e => [e.dataset.code, e.textContent])"
    )
    assert ("7NT", "7 SA") in [tuple(x) for x in ladder]
    assert not page.errors
    page.context.close()


def test_the_dutch_table_names_special_bids_and_sends_their_codes(
    browser: Any, running: Running
) -> None:
    """Issue 21 §4: a special bid is a code only a machine reads. At a Dutch table of a
    variant with misère the bid buttons, the auction and the contract show its Dutch name (the
    name the Dutch book gives it), while the move a button sends stays the code."""
    from fivehundred.generator.i18n import load_translations
    from fivehundred.runtime.engine.game import load_builtin
    from fivehundred.runtime.engine.notation import special_names

    names = special_names(load_builtin("australian"), load_translations("nl"))
    assert names["BMIS"] != "blind misère"  # Dutch: blinde misère
    _, made = running.post({"variant": "australian", "seats": BOTS_BUT_SEAT_0})
    page = open_seat(browser, running, made["seats"][0], lang="nl")
    page.wait_for_selector("#actions .bid .code")  # seat 0's turn to bid: the ladder
    for code, name in names.items():
        button = page.locator(f'#actions button[data-action="{code}"]')
        assert button.inner_text() == name, (code, button.inner_text())
        assert code not in button.inner_text()
    # the auction, the contract and the summary draw their bids with codeEl and codeText
    assert page.evaluate("codeEl('OMIS', '', true).textContent") == names["OMIS"]
    assert page.evaluate("codeText('BMIS', true)") == f"\u2068{names['BMIS']}\u2069"
    page.evaluate(
        """() => { state.auction = [{seat: 1, call: 'MIS', inkle: false}];
        state.contract = {bid: 'MIS', seat: 1, side: 1, sans: false}; drawSide(); }"""
    )
    assert names["MIS"] in page.inner_text("#auction")
    assert names["MIS"] in page.inner_text("#contract")
    assert "MIS" not in page.inner_text("#auction") + page.inner_text("#contract")
    assert not page.errors
    page.context.close()
    # in Arabic the name is isolated in its own direction, as codes are in theirs
    arabic = special_names(load_builtin("australian"), load_translations("ar"))
    page = open_seat(browser, running, made["seats"][0], lang="ar")
    page.wait_for_selector('#actions button[data-action="MIS"]')
    shown = page.locator('#actions button[data-action="MIS"] .code')
    assert shown.inner_text() == arabic["MIS"] and shown.get_attribute("dir") == "auto"
    page.context.close()


def test_the_arabic_table_shows_a_bid_unreversed(browser: Any, running: Running) -> None:
    _, made = running.post({"variant": "australian", "seats": BOTS_BUT_SEAT_0})
    page = open_seat(browser, running, made["seats"][0], lang="ar")
    page.wait_for_selector("#actions .bid .code")
    # the bid 6♠ in a right-to-left page: its level lies left of its suit symbol, as in the books
    box = page.evaluate(
        """() => { const c = document.querySelector('#actions .bid .code[data-code="6S"]');
        const r = document.createRange(); r.selectNodeContents(c.firstChild);
        const s = c.querySelector('.suit').getBoundingClientRect();
        return [r.getBoundingClientRect().left, s.left, getComputedStyle(c).direction]; }"""
    )
    assert box[0] < box[1] and box[2] == "ltr"
    # a bid inside a sentence is isolated (U+2066 .. U+2069)
    assert page.evaluate("codeText('6S', true)") == "\u20666\u2660\u2069"
    page.context.close()


def test_a_house_tables_illegal_move_opens_its_clause_in_the_tables_rule_book(
    browser: Any, running: Running
) -> None:
    """Issue 20 §2: a table playing a house file links to the file's rule book in the page's
    language, and the clause an illegal move cites opens there (once, a house table had no
    book and the clause opened nothing)."""
    house = "id: club-book\nextends: australian\nname: Club book\nscoring: {overtricks: 10}\n"
    _, made = running.post({"house": house, "seats": BOTS_BUT_SEAT_0})
    page = open_seat(browser, running, made["seats"][0], lang="nl")
    page.wait_for_selector("#actions .bid .code")  # seat 0's turn to bid
    assert "/book/nl.html?token=" in page.get_attribute("#top a.book", "href")
    # a bid the rules forbid here (the ladder's bids the page dims), sent as a click would be
    illegal = page.evaluate("state.ladder.find((b) => b !== 'pass' && !isLegal(b))")
    assert illegal, "every bid is legal at seat 0's first turn on this deal"
    page.evaluate(f"act({illegal!r})")
    link = page.locator("#error a.clause")
    link.wait_for(timeout=10000)
    clause = link.inner_text()
    with page.context.expect_page() as opened:
        link.click()
    book = opened.value
    book.wait_for_load_state()
    assert book.url.endswith("#" + clause) and f"/api/tables/{made['id']}/book/nl.html" in book.url
    assert book.evaluate("document.documentElement.lang") == "nl"
    assert book.evaluate(f"document.getElementById({clause!r}) !== null")
    assert book.locator("h1").inner_text() == "Club book"
    assert not page.errors
    page.context.close()


BENCH_GOOD = """id: bench-house
extends: australian
name: Bench house
summary: The Australian game in which a hand all pass is played at no trumps.
auction:
  all_pass: no-trumps
"""


def test_the_bench_shows_an_error_at_its_line_then_the_book(browser: Any, running: Running) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{running.base}/bench?lang=en")
    page.wait_for_selector("#status.ok", timeout=30000)  # the starter file compiles
    page.fill("#text", "")
    page.type("#text", BENCH_GOOD.replace("no-trumps", "sideways"), delay=5)
    page.wait_for_selector("#diagnostics a.at", timeout=30000)
    link = page.locator("#diagnostics a.at").first
    assert link.get_attribute("data-line") == "6"
    assert "sideways" in page.inner_text("#diagnostics")
    assert page.get_attribute("#gutter span.bad", "data-line") == "6"  # marked at its line
    assert page.is_disabled("#play")
    link.click()  # jumps to the line: the caret is on line 6
    caret = page.evaluate("document.getElementById('text').selectionStart")
    assert BENCH_GOOD[:caret].count("\n") == 5
    # fixed: the diagnostics go, the book and the differences come
    page.fill("#text", BENCH_GOOD)
    page.wait_for_selector("#status.ok", timeout=30000)
    assert page.locator("#diagnostics li").count() == 0
    assert "auction.all-pass" in page.inner_text("#diff")
    book = page.frame_locator("#book")
    assert "Bench house" in book.locator("h1").inner_text(timeout=10000)
    # a link within the book scrolls the preview, and opens no page of /books/
    frame = page.frames[1]  # the preview
    assert frame.evaluate("scrollY") == 0
    pages = len(context.pages)
    target = frame.evaluate(
        """() => [...document.querySelectorAll('a[href^="#"]')].map((a) => a.getAttribute('href'))
        .filter((h) => document.getElementById(h.slice(1))).pop()"""
    )
    frame.locator(f'a[href="{target}"]').first.click()
    frame.wait_for_function("scrollY > 0", timeout=5000)
    assert frame.url == "about:srcdoc" + target  # not the bench page's own address
    assert "Bench house" in book.locator("h1").inner_text()  # still the preview
    assert len(context.pages) == pages  # no tab opened at /books/LL/
    # a link to another book (the base's) opens the server's book in a new tab
    base = frame.locator("a.base")
    assert base.get_attribute("href") == f"{running.base}/books/en/australian.html"
    assert base.get_attribute("target") == "_blank"
    # the book in Dutch, on demand
    page.select_option("#book-lang", "nl")
    page.wait_for_function(
        "document.getElementById('book').srcdoc.includes('<html lang=\"nl\"')", timeout=30000
    )
    # "play it": a table with this file opens, its variant the file's
    with context.expect_page() as opened:
        page.click("#play")
    table = opened.value
    table.wait_for_selector("#top b", timeout=30000)
    (made,) = [t for t in running.app.state.server.tables.values() if "house" in t.source]
    assert made.rules.variant == "bench-house"
    assert not errors
    context.close()
