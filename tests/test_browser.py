"""Every HTML rule book in a real browser: Debian's chromium, driven by Playwright for Python.

The books are rendered afresh (``plan_outputs()``, the same text ``fivehundred build`` writes to
generated/docs/) into a temporary folder and opened as ``file://`` pages. Assertions are on the
laid-out DOM:

- the page has every clause of its variant as an element with the clause id;
- right-to-left pages are ``dir=rtl`` and lay every card, bid and clause code out left to right:
  each code element computes ``direction: ltr`` and ``unicode-bidi: isolate``, and the screen
  position of its first character is left of its last one (``10♥`` never shows as ``♥10``);
- hearts and diamonds are red, spades and clubs are not; no Arabic-Indic digits anywhere;
- no text falls back to a missing glyph (a "tofu" box). Chromium reports, through the DevTools
  protocol (``CSS.getPlatformFontsForNode``), which installed fonts it actually used for the
  text of each element; every character of that text must be in the character set of one of
  those fonts, as fontconfig reports it (``fc-list :charset=<hex>``). A character no font
  covers is drawn with some font's .notdef glyph, so it fails this check;
- tables fit: at a 390 px phone width and at the A4 print width (print media, 210 mm less the
  page margins of the style sheet), nothing is wider than the page.

Skipped, with the reason, only when /usr/bin/chromium (or Playwright) is missing and the
environment variable CI is not set; under CI a missing browser fails the tests.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from fivehundred.generator.build import compile_builtins, plan_outputs
from fivehundred.generator.i18n import languages, load_translations, text_direction
from fivehundred.runtime.engine.notation import notation_of

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE_WIDTH = 390
#: A4 (210 mm) less the left and right page margins of rulebook.css (14 mm each), in CSS px.
A4_PRINT_WIDTH = round((210 - 2 * 14) / 25.4 * 96)
RED = "rgb(193, 18, 31)"
ARABIC_INDIC_DIGITS = re.compile("[\u0660-\u0669\u06f0-\u06f9]")


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
    if shutil.which("fc-list") is None:
        _unavailable("fontconfig's fc-list is missing")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """generated/docs/ as the build writes it, in a temporary folder."""
    root = tmp_path_factory.mktemp("docs")
    for rel, text in plan_outputs().items():
        if rel.startswith("docs/"):
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return root / "docs"


RULESETS = {variant: rs for variant, (_, rs) in compile_builtins().items()}
VARIANTS = sorted(RULESETS)
LANGS = languages()
PAGES = [(lang, variant) for lang in LANGS for variant in VARIANTS]


def _open(browser: Any, path: Path, width: int = 1000, media: str = "screen") -> Any:
    page = browser.new_page(viewport={"width": width, "height": 900})
    _goto(page, path, width, media)
    return page


def _goto(page: Any, path: Path, width: int = 1000, media: str = "screen") -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(media=media)
    errors: list[str] = []

    def record(exc: Any) -> None:
        errors.append(str(exc))

    page.on("pageerror", record)
    try:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
    finally:
        page.remove_listener("pageerror", record)
    assert not errors, errors


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    """One tab, reused for every book (opening a tab costs more than loading a page)."""
    tab = browser.new_page()
    yield tab
    tab.close()


# -- structure and direction -----------------------------------------------------------------


@pytest.mark.parametrize(("lang", "variant"), PAGES)
def test_book_in_the_browser(page: Any, books: Path, lang: str, variant: str) -> None:
    """Structure, direction, codes, colours, digits, fonts, and tables at phone and A4 widths."""
    rs = RULESETS[variant]
    where = f"{lang}/{variant}"
    _goto(page, books / lang / f"{variant}.html")
    info = page.evaluate(
        """() => ({
            lang: document.documentElement.lang,
            dir: getComputedStyle(document.body).direction,
            ids: [...document.querySelectorAll('li[id]')].map(e => e.id),
            text: document.body.innerText,
        })"""
    )
    assert info["lang"] == lang.replace("_", "-")
    assert info["dir"] == text_direction(lang)
    for clause in rs.clauses:
        assert clause["id"] in info["ids"], clause["id"]
    assert not ARABIC_INDIC_DIGITS.search(info["text"]), "Latin digits only"
    assert re.search(r"[0-9]", info["text"])
    codes = page.evaluate(
        """() => [...document.querySelectorAll('.card, .code, .cid, code')].map(e => {
            const cs = getComputedStyle(e);
            const node = [...e.childNodes].find(n => n.nodeType === 3);
            const text = node ? node.data : '';
            let first = null, last = null;
            if (text.length >= 2) {
                const r = document.createRange();
                r.setStart(node, 0); r.setEnd(node, 1);
                first = r.getBoundingClientRect().left;
                const chars = [...text];
                const end = text.length;
                r.setStart(node, end - chars[chars.length - 1].length); r.setEnd(node, end);
                last = r.getBoundingClientRect().left;
            }
            return {text, dir: cs.direction, bidi: cs.unicodeBidi, color: cs.color,
                    cls: e.className, first, last};
        })"""
    )
    assert codes, "the page shows codes"
    for code in codes:
        at = f"{where}: {code['text']!r}"
        assert code["dir"] == "ltr", at
        assert code["bidi"] == "isolate", at
        if code["first"] is not None:
            assert code["first"] < code["last"], f"{at} is not laid out left to right"
        if "card" in code["cls"].split():
            red = any(s in code["text"] for s in "♥♦")
            assert (code["color"] == RED) == red, f"{at} colour {code['color']}"
    cards = {c["text"] for c in codes if "card" in c["cls"].split()}
    # the cards in the reader's rank notation (issue 21: nl H V B, nb K D Kn, ...)
    notation = notation_of(load_translations(lang))
    assert {notation.card(c) for c in ("10H", "JD", "AS", "KC")} <= cards
    problems = _font_problems(page, where)
    assert not problems, "\n".join(problems[:20])
    for width, media in ((PHONE_WIDTH, "screen"), (A4_PRINT_WIDTH, "print")):
        page.set_viewport_size({"width": width, "height": 900})
        page.emulate_media(media=media)
        _assert_fits(page, f"{where} at {width}px ({media})")


def test_arabic_ten_of_hearts_reads_ten_then_heart(browser: Any, books: Path) -> None:
    page = _open(browser, books / "ar" / "australian.html", width=PHONE_WIDTH)
    try:
        boxes = page.evaluate(
            """() => {
                const e = [...document.querySelectorAll('.card')]
                    .find(e => e.textContent === '10♥');
                const node = e.firstChild, r = document.createRange(), out = [];
                for (let i = 0; i < 3; i++) {
                    r.setStart(node, i); r.setEnd(node, i + 1);
                    out.push(r.getBoundingClientRect().left);
                }
                return {out, dir: getComputedStyle(document.body).direction};
            }"""
        )
        assert boxes["dir"] == "rtl"
        one, zero, heart = boxes["out"]
        assert one < zero < heart
    finally:
        page.close()


# -- fonts -----------------------------------------------------------------------------------


@cache
def _families_with(char: str) -> frozenset[str]:
    """The font families installed (fontconfig) whose character set holds ``char``."""
    out = subprocess.run(
        ["fc-list", "--format", "%{family}\n", f":charset={ord(char):x}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return frozenset(name.strip() for line in out.splitlines() for name in line.split(","))


_OWN_TEXT = """() => {
    const out = [];
    const walk = (e, skip) => {
        skip = skip || ['HEAD', 'STYLE', 'SCRIPT', 'TITLE'].includes(e.tagName);
        const text = [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('');
        if (!skip && text.trim()) {
            const cs = getComputedStyle(e);
            const lang = e.closest('[lang]') ? e.closest('[lang]').lang : '';
            out.push({text, key: [cs.fontFamily, cs.fontWeight, cs.fontStyle, lang].join('|')});
        }
        for (const c of e.children) walk(c, skip);
    };
    walk(document.documentElement, false);
    return out;
}"""


#: (font description, character) pairs already seen drawn with a font that has the character.
_VERIFIED: dict[str, set[str]] = {}


def _font_problems(page: Any, where: str) -> list[str]:
    """Characters drawn with a font that lacks them, as ``where: …`` lines.

    Chromium picks the same font for a character wherever the font description (family list,
    weight, style, language) is the same, so each character is checked once per description,
    across all pages: an element's fonts are asked for only when its text has a character not
    yet checked under its description.
    """
    styles = page.evaluate(_OWN_TEXT)
    todo_by_element = [
        {c for c in s["text"] if not c.isspace() and c.isprintable()}
        - _VERIFIED.get(s["key"], set())
        for s in styles
    ]
    if not any(todo_by_element):
        return []
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]
    nodes: list[tuple[int, str]] = []

    def walk(node: dict[str, Any], skip: bool) -> None:
        skip = skip or node.get("nodeName") in ("HEAD", "STYLE", "SCRIPT", "TITLE")
        children = node.get("children", [])
        text = "".join(c.get("nodeValue", "") for c in children if c.get("nodeType") == 3)
        if not skip and node.get("nodeType") == 1 and text.strip():
            nodes.append((node["nodeId"], text))
        for child in children:
            if child.get("nodeType") == 1:
                walk(child, skip)

    walk(root, False)
    # (the protocol leaves out whitespace-only text nodes)
    assert [text.split() for _, text in nodes] == [s["text"].split() for s in styles]
    problems = []
    for (node_id, text), style in zip(nodes, styles, strict=True):
        done = _VERIFIED.setdefault(style["key"], set())
        todo = {c for c in text if not c.isspace() and c.isprintable()} - done
        if not todo:
            continue
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node_id})["fonts"]
        families = {f["familyName"] for f in fonts}
        if not families:
            continue  # not rendered (display: none)
        for char in sorted(todo):
            if _families_with(char) & families:
                done.add(char)
            else:
                problems.append(
                    f"{where}: {char!r} (U+{ord(char):04X}) in {text.strip()[:40]!r} is drawn "
                    f"with {sorted(families)}, none of which has it"
                )
    cdp.detach()
    return problems


def test_index_page(browser: Any, books: Path) -> None:
    page = _open(browser, books / "index.html", width=PHONE_WIDTH)
    try:
        hrefs = page.evaluate("() => [...document.querySelectorAll('a')].map(a => a.href)")
        assert len(hrefs) == 2 * len(LANGS) * len(VARIANTS)
        for href in hrefs:
            assert Path(href.removeprefix("file://")).is_file(), href
        assert not _font_problems(page, "index")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE_WIDTH
    finally:
        page.close()


# -- layout ----------------------------------------------------------------------------------

_FIT = """() => {
    const root = document.documentElement, main = document.querySelector('main');
    const limit = main.getBoundingClientRect().right + 0.5;
    const start = main.getBoundingClientRect().left - 0.5;
    const tables = [...document.querySelectorAll('table')].map(t => {
        const r = t.getBoundingClientRect();
        return {caption: t.caption ? t.caption.textContent : t.className,
                fits: r.right <= limit && r.left >= start && t.scrollWidth <= t.clientWidth + 1};
    });
    return {page: root.scrollWidth <= root.clientWidth, tables};
}"""


def _assert_fits(page: Any, where: str) -> None:
    fit = page.evaluate(_FIT)
    assert fit["tables"], f"{where}: the book has tables"
    assert fit["page"], f"{where}: the page is wider than the viewport"
    for table in fit["tables"]:
        assert table["fits"], f"{where}: table {table['caption']!r} overflows"


def test_prints_to_a4_pdf(browser: Any, books: Path) -> None:
    page = _open(browser, books / "en" / "australian.html", media="print")
    try:
        pdf = page.pdf(format="A4", print_background=True)
    finally:
        page.close()
    assert pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 2


# -- bidi: author text and signed numbers in a right-to-left book -----------------------------

_CHAR_BOXES = """(needle) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.data.indexOf(needle);
        if (at < 0) continue;
        const r = document.createRange(), boxes = [];
        for (let i = at; i < at + needle.length; i++) {
            if (needle[i - at] === ' ') continue;
            r.setStart(node, i); r.setEnd(node, i + 1);
            const b = r.getBoundingClientRect();
            boxes.push({ch: needle[i - at], left: b.left, top: b.top});
        }
        out.push(boxes);
    }
    return out;
}"""


@pytest.mark.parametrize(
    ("variant", "needles"),
    [
        ("misere-230", ["±230", "7 NT (220)", "9 NT (420)", "±430"]),
        ("australian", ["\u2212500"]),  # a real minus sign (issue 21)
        ("double-nullo", ["10 NT"]),
        ("six-handed-2v2v2-65", ["2v2v2"]),
    ],
)
def test_arabic_author_text_keeps_codes_and_signed_numbers_intact(
    browser: Any, books: Path, variant: str, needles: list[str]
) -> None:
    """Issue 13: in the Arabic misère-230 book "«±230»" showed as "«230±»" and "7 NT (220)"
    split apart. Each of these, in the author's text, reads left to right, character by
    character, on one line, at a phone's width and a desktop's."""
    for width in (PHONE_WIDTH, 1000):
        page = _open(browser, books / "ar" / f"{variant}.html", width=width)
        try:
            assert page.evaluate("() => getComputedStyle(document.body).direction") == "rtl"
            for needle in needles:
                found = page.evaluate(_CHAR_BOXES, needle)
                assert found, f"{needle!r} is not in ar/{variant}.html"
                for boxes in found:
                    lefts = [b["left"] for b in boxes]
                    assert lefts == sorted(lefts) and len(set(lefts)) == len(lefts), (
                        f"{needle!r} is not laid out left to right at {width}px: {boxes}"
                    )
                    assert len({round(b["top"]) for b in boxes}) == 1, f"{needle!r} wraps"
        finally:
            page.close()
