"""The rule books, browsable (issue 20 §3): each language's index, and the links between books.

generated/docs/<lang>/index.html (and .md) lists the books of that language by number of
players, each with the first sentence of its summary as the catalogue translates it, and a
house variant's base and differences; every book links that index, and a house book its base's
book and its differences section. ``fivehundred serve`` serves the same pages under /books/,
where the same relative links work, with the language switch.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import Running

from fivehundred.generator.build import GENERATED_DIR
from fivehundred.generator.docs import first_sentence
from fivehundred.generator.i18n import load_translations
from fivehundred.generator.pipeline import builtin_path, compile_spec
from fivehundred.runtime.engine.game import load_builtin
from fivehundred.runtime.server.uitext import LANGUAGES

DOCS = GENERATED_DIR / "docs"


def test_first_sentence() -> None:
    assert first_sentence("One rule. Two rules.") == "One rule."
    assert first_sentence("Only  one\nrule") == "Only one rule"
    assert first_sentence("هل؟ نعم.") == "هل؟"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_an_index_by_players_with_a_line_each(lang: str) -> None:
    page = (DOCS / lang / "index.html").read_text(encoding="utf-8")
    players = [int(n) for n in re.findall(r'<section id="players-(\d+)">', page)]
    assert players == sorted(players) and len(players) >= 4  # 2, 3, 4, 5, 6 players
    listed = re.findall(r'<li id="([a-z0-9-]+)"><a class="book" href="\1\.html">', page)
    assert "australian" in listed and "all-pass-no-trumps" in listed
    for variant in listed:
        assert (DOCS / lang / f"{variant}.html").is_file()
    # the Australian game sits under 4 players
    four = page.split('<section id="players-4">')[1].split("</section>")[0]
    assert 'id="australian"' in four
    # its line: the first sentence of its summary, as the catalogue translates it
    path = builtin_path("australian")
    assert path is not None
    summary = " ".join(compile_spec(path, builtin=True).summary.split())
    line = first_sentence(load_translations(lang).gettext(summary))
    shown = html.unescape(re.sub(r"<[^>]+>", "", four))
    assert line.endswith(".") and line in shown
    if lang != "en":
        assert line not in summary  # translated
    # a house variant: its base's book and its differences
    house = page.split('<li id="all-pass-no-trumps">')[1].split("</li>")[0]
    assert 'href="australian.html"' in house
    assert 'href="all-pass-no-trumps.html#s-differences"' in house
    # the other languages' indexes
    for other in LANGUAGES:
        if other != lang:
            assert f'href="../{other}/index.html"' in page
    assert (DOCS / lang / "index.md").is_file()


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_every_book_links_the_index_and_a_house_book_its_base_and_differences(
    fmt: str,
) -> None:
    for lang in LANGUAGES:
        for path in sorted((DOCS / lang).glob(f"*.{fmt}")):
            if path.stem == "index":
                continue
            text = path.read_text(encoding="utf-8")
            link = 'href="index.html"' if fmt == "html" else "](index.md)"
            assert link in text, path
            base = load_builtin(path.stem).extends
            if base is None:
                continue
            to_base = f'href="{base}.html"' if fmt == "html" else f"]({base}.md)"
            assert to_base in text, path
            assert (DOCS / lang / f"{base}.{fmt}").is_file()
            to_diff = 'href="#s-differences"' if fmt == "html" else "](#s-differences)"
            assert to_diff in text and 'id="s-differences"' in text, path


@pytest.fixture()
def running(tmp_path: Path) -> Iterator[Running]:
    r = Running(str(tmp_path / "tables.sqlite"))
    yield r
    r.stop()


def test_the_server_serves_the_index_and_its_links_work(running: Running) -> None:
    status, body = running.get("/books/?lang=nl")  # redirected to the Dutch index
    assert status == 200
    page = body.decode()
    assert '<html lang="nl"' in page and "spelers" in page
    # the links, relative, work under /books/nl/ as in generated/docs/nl/
    house = page.split('<li id="all-pass-no-trumps">')[1].split("</li>")[0]
    for href in re.findall(r'href="([^"#]+)', house):
        status, _ = running.get(f"/books/nl/{href}")
        assert status == 200, href
    status, body = running.get("/books/nl/all-pass-no-trumps.html")
    book = body.decode()
    assert 'href="australian.html"' in book and 'id="s-differences"' in book
    assert 'href="../ar/all-pass-no-trumps.html"' in book  # the language switch, kept
    status, body = running.get("/books/ar/index.html")
    assert status == 200 and 'dir="rtl"' in body.decode()
    assert running.get("/books/xx/index.html")[0] == 404
