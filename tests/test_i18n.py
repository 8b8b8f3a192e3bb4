"""Translations: template, catalogues and their checks; books and errors in every language."""

from __future__ import annotations

import gettext
import html as html_lib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from random import Random

import pytest
from babel.messages.catalog import Catalog, Message

from fivehundred.generator import i18n
from fivehundred.generator.build import compile_builtins
from fivehundred.generator.docs import render_html, render_markdown
from fivehundred.runtime.cli.main import main

#: Every language with a catalogue (a new one is tested as soon as its .po file exists).
LANGS = [lang for lang in i18n.languages() if lang != "en"]
TWO_FORMS = "nplurals=2; plural=(n != 1);"
ARABIC_FORMS = (
    "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
    "n%100>=11 ? 4 : 5);"
)
ARABIC_INDIC = re.compile("[\u0660-\u0669\u06f0-\u06f9]")


def keys(catalog: Catalog) -> set[tuple[str | None, str, str | None]]:
    out = set()
    for m in catalog:
        if m.id:
            plural = str(m.id[1]) if isinstance(m.id, (tuple, list)) else None
            out.add((*i18n.message_key(m), plural))
    return out


def header(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    block = text.split("\n\n", 1)[0]
    joined = "".join(re.findall(r'^"(.*)"$', block, re.M)).replace("\\n", "\n")
    return dict(line.split(": ", 1) for line in joined.splitlines() if ": " in line)


# -- the template ------------------------------------------------------------------------------


def test_template_is_up_to_date() -> None:
    fresh = keys(i18n.extract_catalog())
    committed = keys(i18n.read_catalog(i18n.POT_FILE))
    assert fresh - committed == set(), "new messages: run `fivehundred i18n extract`"
    assert committed - fresh == set(), "removed messages: run `fivehundred i18n extract`"


def test_template_sources_and_locations() -> None:
    catalog = i18n.extract_catalog()
    files = {f for m in catalog for f, _ in m.locations}
    assert "generator/templates/clauses.j2" in files
    assert "runtime/engine/hand.py" in files and "runtime/cli/main.py" in files
    assert "specs/variants/australian.yaml" in files
    # sentences live in clauses.j2 only: the two book formats share every message
    assert not {f for f in files if f.endswith(("rulebook.md.j2", "rulebook.html.j2"))}
    by_id = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog if m.id}
    name = by_id["Australian Five Hundred"]
    text = (i18n.ROOT / "specs/variants/australian.yaml").read_text(encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("name:"))
    assert ("specs/variants/australian.yaml", line) in name.locations
    assert by_id["a bid must be higher than %(high)s"].flags & {"python-format"}
    deck = next(k for k in by_id if k.startswith("The deck has %(count)s card."))
    assert isinstance(by_id[deck].id, tuple)  # a plural message
    sep = catalog.get(", ", "list separator")
    assert sep is not None and sep.auto_comments  # a Translators: comment


def test_extract_is_idempotent(tmp_path: Path) -> None:
    pot = tmp_path / "messages.pot"
    assert i18n.write_pot(path=pot)
    first = pot.read_bytes()
    assert not i18n.write_pot(path=pot)
    assert not i18n.write_pot(check=True, path=pot)
    assert pot.read_bytes() == first
    assert b"Generated-By" not in first


def test_committed_template_and_catalogues_are_current(tmp_path: Path) -> None:
    """messages.pot is what `fivehundred i18n extract` writes now, byte for byte (but the
    date), and every catalogue is what `fivehundred i18n update` makes of it: a translator
    never works from stale locations or a missing message."""
    assert not i18n.write_pot(check=True), "run `fivehundred i18n extract && … update`"
    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES_DIR, locales)
    done = i18n.update_catalogues(locales=locales, pot=locales / "messages.pot")
    assert done and {what for _, what in done} == {"unchanged"}, done


def test_code_locations_name_the_file_only(tmp_path: Path) -> None:
    """A code or template location carries no line number (it would move with every edit
    above it); a rule file's location keeps its line (a translator reads the sentence there)."""
    pot = tmp_path / "messages.pot"
    i18n.write_pot(path=pot)
    code: list[tuple[str, int | None]] = []
    rules: list[tuple[str, int | None]] = []
    for message in i18n.read_catalog(pot):
        if not message.id:
            continue
        assert len(message.locations) == len(set(message.locations)), message.id
        for where in message.locations:
            (rules if where[0].endswith(".yaml") else code).append(where)
    assert code and all(line is None for _, line in code)
    assert {f for f, _ in code} >= {"runtime/engine/hand.py", "generator/templates/clauses.j2"}
    assert rules and all(isinstance(line, int) and line > 0 for _, line in rules)


# -- the catalogues ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_headers(lang: str) -> None:
    fields = header(i18n.po_path(lang))
    assert fields["Language"] == lang
    expected = {"ar": ARABIC_FORMS, "nl": TWO_FORMS, "nb": TWO_FORMS, "da": TWO_FORMS}
    expected["pt"] = TWO_FORMS
    assert fields["Plural-Forms"] == expected.get(lang, i18n.default_plural_forms(lang))
    assert fields["Content-Type"] == "text/plain; charset=utf-8"
    assert fields["Content-Transfer-Encoding"] == "8bit"
    catalog = i18n.read_catalog(i18n.po_path(lang), lang)
    if lang in expected:
        assert catalog.num_plurals == (6 if lang == "ar" else 2)


def test_the_six_languages() -> None:
    assert i18n.languages()[:6] == ["en", "nl", "nb", "da", "ar", "pt"]
    assert [i18n.text_direction(lang) for lang in ("ar", "nb", "he", "sv")] == [
        "rtl",
        "ltr",
        "rtl",
        "ltr",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_msgfmt_check_is_clean(lang: str, tmp_path: Path) -> None:
    if shutil.which("msgfmt") is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but GNU gettext's msgfmt is missing")
        pytest.skip("GNU gettext (msgfmt) is not installed (apt-get install gettext)")
    done = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "out.mo"), str(i18n.po_path(lang))],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_are_intact(lang: str) -> None:
    assert i18n.catalogue_problems(lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_is_complete(lang: str) -> None:
    """Every message of the template is translated: not fuzzy, no empty form, none missing."""
    (cov,) = i18n.coverage([lang])
    template = i18n.read_catalog(i18n.POT_FILE)
    catalog = i18n.read_catalog(i18n.po_path(lang), lang)
    have = {i18n.message_key(m): m for m in catalog if m.id}
    todo = [
        str(key[1])[:70]
        for key in (i18n.message_key(m) for m in template if m.id)
        if key not in have or not i18n.is_translated(have[key], catalog.num_plurals)
    ]
    assert cov.translated == cov.total and not todo, (
        f"{lang}: {cov.total - cov.translated} of {cov.total} messages not translated "
        f"(run `fivehundred i18n update`, then translate): {todo[:10]}"
    )


# -- the checks themselves ---------------------------------------------------------------------


def _message(msgid: str | tuple[str, str], msgstr: str | tuple[str, ...], **kw: object) -> Message:
    return Message(msgid, msgstr, locations=[("generator/templates/clauses.j2", 1)], **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("msgid", "msgstr", "problem"),
    [
        ("It is worth %(count)s points.", "Het is %(count)s punten waard.", None),
        ("It is worth %(count)s points.", "Het is %(count) punten waard.", "broken"),
        ("It is worth %(count)s points.", "Het is %(cuont)s punten waard.", "unknown"),
        ("It is worth %(count)s points.", "Het is %(count)d punten waard.", "converted"),
        ("It is worth %(count)s points.", "Het is punten waard.", "missing"),
        ("Sources: %(sources)s.", "Bronnen: %(sources)s (100%).", "broken"),
        ("Play", "Spel 100%", "broken"),  # templates always %-format
        ("It is worth %(count)s points.", "يساوي %(count)s \u0665 نقاط", "digits"),
        (("%(num)s card", "%(num)s cards"), ("%(num)s kaart", "%(num)s kaarten"), None),
        (("%(num)s card", "%(num)s cards"), ("één kaart", "%(num)s kaarten"), None),
        (("%(num)s card", "%(num)s cards"), ("%(num)s kaart", "%(nmu)s kaarten"), "unknown"),
        (("%(num)s card", "%(num)s cards"), ("%(num)s kaart",), "plural forms"),
        (
            ("%(suit)s (%(count)s card)", "%(suit)s (%(count)s cards)"),
            ("(%(count)s kaart)", "%(suit)s (%(count)s kaarten)"),
            "missing",
        ),
    ],
)
def test_message_problems(msgid: object, msgstr: object, problem: str | None) -> None:
    problems = i18n.message_problems(_message(msgid, msgstr), 2)  # type: ignore[arg-type]
    if problem is None:
        assert problems == []
    else:
        assert problems and problem in problems[0], problems


def test_author_text_is_never_formatted() -> None:
    msg = Message("Worth 100% of it.", "Vale 100% disso.", locations=[("specs/x.yaml", 3)])
    assert i18n.message_problems(msg, 2) == []


def _locales(tmp_path: Path, langs: list[str]) -> tuple[Path, Path]:
    locales = tmp_path / "locales"
    pot = locales / "messages.pot"
    locales.mkdir()
    shutil.copy(i18n.POT_FILE, pot)
    i18n.update_catalogues(langs, locales=locales, pot=pot)
    return locales, pot


def test_update_creates_catalogues_with_headers(tmp_path: Path) -> None:
    locales, pot = _locales(tmp_path, ["ar", "nb", "sv"])
    assert i18n.languages(locales) == ["en", "nb", "ar", "sv"]
    assert header(i18n.po_path("ar", locales))["Plural-Forms"] == ARABIC_FORMS
    assert header(i18n.po_path("nb", locales))["Plural-Forms"] == TWO_FORMS
    assert header(i18n.po_path("sv", locales))["Language"] == "sv"
    # a second update changes nothing
    assert {what for _, what in i18n.update_catalogues(locales=locales, pot=pot)} == {"unchanged"}
    cov = {c.lang: c for c in i18n.coverage(locales=locales, pot=pot)}
    total = len(keys(i18n.read_catalog(pot)))
    assert cov["ar"].total == total and cov["ar"].translated == 0
    assert cov["ar"].untranslated == total


def test_coverage_counts_fuzzy_and_empty_forms_as_untranslated(tmp_path: Path) -> None:
    locales, pot = _locales(tmp_path, ["nb"])
    path = i18n.po_path("nb", locales)
    catalog = i18n.read_catalog(path, "nb")
    plural = next(m for m in catalog if isinstance(m.id, tuple))
    single = [m for m in catalog if m.id and isinstance(m.id, str)]
    single[0].string = "Spar"
    single[1].string = "Kløver"
    single[1].flags.add("fuzzy")
    plural.string = ("%(num)s kort", "")
    from babel.messages.pofile import write_po

    with path.open("wb") as handle:
        write_po(handle, catalog, width=79)
    (cov,) = i18n.coverage(["nb"], locales=locales, pot=pot)
    assert (cov.translated, cov.fuzzy) == (1, 1)
    assert cov.untranslated == cov.total - 2
    t = i18n.load_translations("nb", locales)
    assert t.gettext(str(single[0].id)) == "Spar"
    assert t.gettext(str(single[1].id)) == str(single[1].id)  # fuzzy: English
    one, many = plural.id
    assert t.ngettext(one, many, 5) == many  # an empty form: English, never empty


def test_cli_i18n(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["i18n", "status"]) == 0
    out = capsys.readouterr().out
    for lang in LANGS:
        assert re.search(rf"^{lang}\s+\d+\s+\d+\s+\d+\.\d%", out, re.M), out
    assert main(["i18n", "extract", "--check"]) in (0, 1)
    with pytest.raises(SystemExit):
        main(["i18n", "--help"])
    assert "extract" in capsys.readouterr().out


def test_unknown_language_is_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs", "australian", "--lang", "xx"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'xx'" in err and "nb" in err


# -- books and errors in every language --------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_books_in_every_language(lang: str) -> None:
    for variant, (_, rs) in compile_builtins().items():
        md = render_markdown(rs, lang)
        html = render_html(rs, lang)
        for clause in rs.clauses:
            assert f'<a id="{clause["id"]}"></a>' in md, (variant, clause["id"])
            assert f'<li id="{clause["id"]}"' in html, (variant, clause["id"])
        assert not ARABIC_INDIC.search(md + html)
        assert f'<html lang="{lang}" dir="{"rtl" if lang == "ar" else "ltr"}">' in html


def test_translated_book_uses_the_catalogue() -> None:
    rs = compile_builtins()["australian"][1]
    t = i18n.load_translations("nb")
    heading = t.gettext("Players and deck")
    if heading == "Players and deck":
        pytest.skip("nb does not translate this heading yet")
    assert f"## {heading}" in render_markdown(rs, "nb")
    assert f"<h2>{heading}</h2>" in render_html(rs, "nb")


def test_html_book_shares_messages_with_markdown() -> None:
    """A catalogue that marks every message: both formats show only marked text."""

    class Marking(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "«" + message + "»"

        def ngettext(self, one: str, many: str, n: int) -> str:
            return "«" + (one if n == 1 else many) + "»"

        def pgettext(self, context: str, message: str) -> str:
            return message if context == "list separator" else "«" + message + "»"

        def npgettext(self, context: str, one: str, many: str, n: int) -> str:
            return self.ngettext(one, many, n)

    rs = compile_builtins()["australian"][1]
    md = render_markdown(rs, "xx", Marking())
    html = render_html(rs, "xx", Marking())
    md_marked = set(re.findall(r"«([^«»]*)»", md))
    html_marked = set(re.findall(r"«([^«»]*)»", html))
    assert md_marked and html_marked
    assert "Players and deck" in md_marked and "Players and deck" in html_marked

    def plain(s: str) -> str:
        return html_lib.unescape(re.sub(r"<[^>]+>|[`\\]", "", s))

    # the same sentences in both formats (codes aside); the HTML page adds its table of contents
    assert {plain(s) for s in md_marked} == {plain(s) for s in html_marked} - {"Contents"}


def _illegal_record(tmp_path: Path) -> Path:
    from fivehundred.runtime.engine.hand import HandState
    from fivehundred.runtime.engine.records import record_of
    from fivehundred.runtime.loading import load_rules

    rules = load_rules("australian")
    state = HandState.new(rules, dealer=0, rng=Random(1))
    record = record_of(state, [])
    record["actions"] = ["7H", "6S"]  # seat 2 bids below seat 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_replay_error_in_every_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _illegal_record(tmp_path)
    lines = {}
    for lang in ["en", *LANGS]:
        assert main(["replay", str(path), "--lang", lang]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        # the bids in the language's notation (issue 21 §4), isolated in Arabic
        assert "[auction.higher]" in err and "6♠" in err and "7♥" in err, err
        assert "'6S'" not in err and "7H" not in err, err
        lines[lang] = err
    assert "action 1: seat 2 may not bid 6♠: a bid must be higher than 7♥" in lines["en"]
    assert "\u20666♠\u2069" in lines["ar"] and "\u2066" not in lines["nb"]
    t = i18n.load_translations("nb")
    reason = t.gettext("a bid must be higher than %(high)s") % {"high": "7♥"}
    assert reason in lines["nb"]


def test_replay_translates_through_the_catalogue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    locales, _ = _locales(tmp_path, ["nb"])
    po = i18n.po_path("nb", locales)
    catalog = i18n.read_catalog(po, "nb")
    catalog["a bid must be higher than %(high)s"].string = "et bud må være over %(high)s"
    from babel.messages.pofile import write_po

    with po.open("wb") as handle:
        write_po(handle, catalog)
    monkeypatch.setattr(i18n, "LOCALES_DIR", locales)
    assert main(["replay", str(_illegal_record(tmp_path)), "--lang", "nb"]) == 2
    err = capsys.readouterr().err
    assert "et bud må være over 7♥ [auction.higher]" in err


def test_update_round_trips_changed_messages(tmp_path: Path) -> None:
    """A changed msgid becomes fuzzy; the file stays valid and a second update changes nothing."""
    locales, pot = _locales(tmp_path, ["nl"])
    path = i18n.po_path("nl", locales)
    catalog = i18n.read_catalog(path, "nl")
    for message in catalog:
        if message.id and isinstance(message.id, str):
            message.string = "NL " + message.id.replace("%%", "%%")
    from babel.messages.pofile import write_po

    with path.open("wb") as handle:
        write_po(handle, catalog, width=79)
    template = i18n.read_catalog(pot)
    old = template["The first dealer is chosen at random."]
    template.delete(old.id)
    template.add(
        "The first dealer is chosen at random, by any fair means.",
        locations=[("generator/templates/clauses.j2", 1)],
    )
    with pot.open("wb") as handle:
        write_po(handle, template, width=79)
    assert i18n.update_catalogues(locales=locales, pot=pot) == [("nl", "updated")]
    first = path.read_bytes()
    assert i18n.update_catalogues(locales=locales, pot=pot) == [("nl", "unchanged")]
    assert path.read_bytes() == first
    merged = i18n.read_catalog(path, "nl")
    changed = merged["The first dealer is chosen at random, by any fair means."]
    assert changed.fuzzy and changed.string == "NL The first dealer is chosen at random."
    if shutil.which("msgfmt"):
        done = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)])
        assert done.returncode == 0


def test_choices_under_replace_are_extracted(tmp_path: Path) -> None:
    """A house file may write `choices: {replace: [...]}`: its texts are author text too."""
    path = tmp_path / "house.yaml"
    path.write_text(
        "extends: australian\nchoices:\n  replace:\n"
        "    - {clause: play.misere-ends, source: Our club, text: We play it out.}\n",
        encoding="utf-8",
    )
    catalog = Catalog()
    i18n._extract_rule_files(catalog, [path])
    text = catalog.get("We play it out.")
    assert text is not None and text.locations[0][1] == 4
    assert catalog.get("Our club") is not None


# -- the translator's workflow: half a language is never published silently --------------------


@pytest.fixture
def with_german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The project's catalogues plus a German one that translates a few messages only."""
    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES_DIR, locales)
    i18n.update_catalogues(["de"], locales=locales)
    path = i18n.po_path("de", locales)
    catalog = i18n.read_catalog(path, "de")
    catalog["Players and deck"].string = "Spieler und Karten"
    catalog["Dealing"].string = "Geben"
    path.write_bytes(i18n._po_bytes(catalog))
    monkeypatch.setattr(i18n, "LOCALES_DIR", locales)
    return locales


def test_partial_language_is_built_with_a_banner_and_linked_from_nowhere(
    with_german: Path,
) -> None:
    from fivehundred.generator.build import incomplete_books, plan_outputs

    files = plan_outputs()
    variants = sorted(compile_builtins())
    assert incomplete_books(files) == {"de": tuple(variants)}
    for variant in variants:
        md, html = files[f"docs/de/{variant}.md"], files[f"docs/de/{variant}.html"]
        assert "## Spieler und Karten" in md  # what is translated shows
        assert re.search(r"^> \*\*This translation is incomplete: \d+ messages", md, re.M)
        assert '<p class="incomplete" role="note">This translation is incomplete' in html
    linked = [rel for rel, text in files.items() if "de/" in text and not rel.startswith("docs/de")]
    linked += [rel for rel, text in files.items() if re.search(r"\.\./de/|\"de/|\(de/", text)]
    assert linked == [], linked
    # the complete languages still link each other, and no complete book has a banner
    nb = files["docs/nb/australian.md"]
    assert "(../ar/australian.md)" in nb and "incomplete" not in nb
    assert "[HTML](nb/australian.html)" in files["docs/index.md"]
    assert "Deutsch" not in files["docs/index.md"] + files["docs/index.html"]


def test_docs_says_what_falls_back_to_english(
    with_german: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["docs", "australian", "--lang", "de"]) == 0
    out, err = capsys.readouterr()
    first, *listed = err.splitlines()
    rs = compile_builtins()["australian"][1]
    from fivehundred.generator.docs import book_messages

    total = len(book_messages(rs))
    assert re.match(rf"de: {total - 2} of the {total} messages .* fall back to English", first)
    assert len(listed) == total - 2
    line = re.compile(r"  \S+/de/LC_MESSAGES/fivehundred\.po:\d+: untranslated: ['\"]")
    assert all(line.match(x) for x in listed), listed
    assert not any("'Players and deck'" in x or "'Dealing'" in x for x in listed)
    assert "'The contractor leads to the first trick.'" in err
    assert "This translation is incomplete" in out and "## Spieler und Karten" in out
    # a complete language says nothing
    assert main(["docs", "australian", "--lang", "nb"]) == 0
    assert capsys.readouterr().err == ""


def test_status_lists_what_a_book_needs(
    with_german: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["i18n", "status", "--lang", "de", "--book", "sans-kitty", "--check"]) == 1
    out = capsys.readouterr().out
    assert re.search(
        r"^de sans-kitty: 2 of the (\d+) messages of this rule book translated", out, re.M
    )
    assert "untranslated: 'Play'" in out and "untranslated: 'Dealing'" not in out
    assert "Sans kitty" in out or "sans kitty" in out  # the variant's own messages are listed
    # without --book: every untranslated message of the template, with its line
    assert main(["i18n", "status", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^de: \d+ message\(s\) not translated$", out, re.M)
    assert re.search(r"^  \S+fivehundred\.po:\d+: untranslated: 'a bid must be higher", out, re.M)
    # complete languages pass the check, with their books
    assert main(["i18n", "status", "--lang", "nb", "--book", "sans-kitty", "--check"]) == 0


def _break_placeholder(locales: Path, lang: str, msgid: str, broken: str) -> int:
    path = i18n.po_path(lang, locales)
    catalog = i18n.read_catalog(path, lang)
    message = catalog[msgid]
    message.string = broken
    path.write_bytes(i18n._po_bytes(catalog))
    return int(i18n.read_catalog(path, lang)[msgid].lineno)


@pytest.mark.parametrize(
    "broken",
    [
        "Spillet spilles til %(cont)s poeng.",  # unknown name
        "Spillet spilles til %(count) poeng.",  # no conversion
        "Spillet spilles til %(count)d%  poeng.",  # a lone percent sign
        "Spillet spilles til %(count)r poeng.",  # another conversion
    ],
)
def test_broken_placeholder_is_a_diagnostic_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], broken: str
) -> None:
    from fivehundred.generator import build as build_module

    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES_DIR, locales)
    msgid = "The game is played to %(count)s point."
    line = _break_placeholder(locales, "nb", msgid, broken)
    catalog = i18n.read_catalog(i18n.po_path("nb", locales), "nb")
    catalog[msgid].string = (broken, broken)
    i18n.po_path("nb", locales).write_bytes(i18n._po_bytes(catalog))
    line = int(i18n.read_catalog(i18n.po_path("nb", locales), "nb")[msgid].lineno)
    monkeypatch.setattr(i18n, "LOCALES_DIR", locales)
    out_root = tmp_path / "generated"
    monkeypatch.setattr(build_module, "GENERATED_DIR", out_root)
    where = re.compile(rf"^\S+/nb/LC_MESSAGES/fivehundred\.po:{line}: msgid 'The game is played")
    for argv in (
        ["i18n", "status", "--check"],
        ["i18n", "status"],
        ["docs", "australian", "--lang", "nb"],
        ["docs", "australian", "--lang", "nb", "--format", "html"],
        ["replay", str(_illegal_record(tmp_path)), "--lang", "nb"],
        ["build"],
        ["build", "--check"],
    ):
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        lines = err.splitlines()
        assert lines and all(where.match(x) for x in lines), (argv, err)
        assert "Traceback" not in err and "jinja" not in err.lower()
        assert len(lines) == 2  # both plural forms, one line each
        assert "<!DOCTYPE" not in out and "##" not in out
    assert not out_root.exists()  # nothing was built from it
    # another language still renders
    assert main(["docs", "australian", "--lang", "da"]) == 0


def test_a_fuzzy_message_with_a_stale_placeholder_blocks_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """msgmerge keeps the old translation of a changed message as a fuzzy suggestion: its
    placeholders may be stale; it is reported but used nowhere."""
    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES_DIR, locales)
    path = i18n.po_path("nb", locales)
    catalog = i18n.read_catalog(path, "nb")
    message = catalog["The game is played to %(count)s point."]
    message.string = ("Spillet spilles til %(target)s poeng.",) * 2
    message.flags.add("fuzzy")
    path.write_bytes(i18n._po_bytes(catalog))
    monkeypatch.setattr(i18n, "LOCALES_DIR", locales)
    assert main(["docs", "australian", "--lang", "nb"]) == 0
    out, err = capsys.readouterr()
    assert "The game is played to 500 points." in out  # English, with the banner
    assert "untranslated" not in err and "fuzzy: 'The game is played to" in err
    assert main(["i18n", "status", "--lang", "nb", "--check"]) == 1
    err = capsys.readouterr().err
    assert "unknown placeholder(s) ['target']" in err and "a fuzzy message" in err


def test_build_says_which_books_are_incomplete(
    with_german: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fivehundred.generator import build as build_module

    monkeypatch.setattr(build_module, "GENERATED_DIR", tmp_path / "generated")
    assert main(["build"]) == 0
    err = capsys.readouterr().err
    n = len(compile_builtins())
    assert re.match(rf"de: {n} rule book\(s\) translated in part, .*linked from nowhere", err)
    assert (tmp_path / "generated/docs/de/australian.html").is_file()


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_markdown_language_links_are_a_paragraph_of_their_own(lang: str) -> None:
    """The line of links, the summary and the intro are separate paragraphs."""
    rs = compile_builtins()["misere-230"][1]
    md = render_markdown(rs, lang, languages=[("xx", "../xx/misere-230")])
    blocks = md.split("\n\n")
    links = next(b for b in blocks if "(../xx/misere-230.md)" in b)
    assert "\n" not in links.strip(), links
    assert rs.summary is not None
    summary = next(b for b in blocks if b is not links and b.strip() and not b.startswith("#"))
    assert "(../xx/" not in summary


def test_rtl_markdown_isolates_codes_and_signed_numbers() -> None:
    """Issue 13 (bidi): in a right-to-left Markdown book every code, card, signed number and
    left-to-right run of the author's text sits between LRI (U+2066) and PDI (U+2069); isolates
    are balanced; a left-to-right book has none."""
    rulesets = compile_builtins()
    md = render_markdown(rulesets["misere-230"][1], "ar")
    for run in ("±230", "7 NT (220)", "±430", "9 NT (420)", "`misere-230`", "8♠"):
        assert f"\u2066{run}\u2069" in md, run
    assert "\u2066<sub>`auction.misere`</sub>\u2069" in md
    aus = render_markdown(rulesets["australian"][1], "ar")
    assert "\u2066\u2212500\u2069" in aus and re.search("\u2066[^\u2069]*10♥[^\u2069]*\u2069", aus)
    for book in (md, aus):
        depth = 0
        for ch in book:
            depth += {"\u2066": 1, "\u2069": -1}.get(ch, 0)
            assert 0 <= depth <= 1
        assert depth == 0
    assert not re.search("[\u2066-\u2069]", render_markdown(rulesets["misere-230"][1], "nb"))


def test_author_isolates_cannot_be_forged() -> None:
    """Author text cannot smuggle in an isolate or our stand-ins for them."""
    from fivehundred.generator.docs import isolate_runs

    assert isolate_runs("a\ue000b\ue001") == "\ue000a\ue001\ufffd\ue000b\ue001\ufffd"


# -- Arabic number agreement -------------------------------------------------------------------

_AR_COUNTED = "(?:ورق|لمّ|لم|نقط|لاعب|فريق|جول|مبار|عبار|شريك)"


def test_arabic_writes_one_and_two_as_words() -> None:
    """Issue 13: "2 ورقتان للقطة", "1 ورقة", "فريقين (2)", "لأول 2 من اللاعبين". Arabic writes
    one and two as words (a singular with واحد/واحدة, a dual): the plural forms for one and
    two never show the counted number (a message that uses the number twice, once as a
    level, keeps that one)."""
    catalog = i18n.read_catalog(i18n.po_path("ar"), "ar")
    bad = []
    for m in catalog:
        if not (m.id and isinstance(m.id, tuple)):
            continue
        counters = [c for c in ("count", "num") if f"%({c})s" in m.id[0]]
        for c in counters:
            if m.id[0].count(f"%({c})s") > 1:
                continue
            for form in (1, 2):
                if f"%({c})s" in m.string[form]:
                    bad.append((m.id[0][:60], form, m.string[form][:80]))
    assert bad == []


def test_arabic_books_have_no_digit_one_or_two_before_a_counted_noun() -> None:
    pattern = re.compile(rf"(?<![\d.,])[12]\u2069? {_AR_COUNTED}|\((?:\u2066)?[12](?:\u2069)?\)")
    for variant, (_, rs) in compile_builtins().items():
        md = render_markdown(rs, "ar")
        found = [md[max(0, m.start() - 30) : m.end() + 10] for m in pattern.finditer(md)]
        assert found == [], (variant, found)


# -- engine messages: the right verb per move, suits by name -----------------------------------


@pytest.mark.parametrize(
    ("kind", "verb"),
    [
        ("bid", "may not bid '6S'"),
        ("pass", "may not pass now"),
        ("card", "may not play '6S'"),
        ("joker-lead", "may not lead '6S'"),
        ("discard", "may not discard '6S'"),
        (None, "may not make the move '6S'"),
    ],
)
def test_an_illegal_move_has_the_verb_of_its_kind(kind: str | None, verb: str) -> None:
    """Issue 13: "seat 2 may not make '6C'" (a card is not made)."""
    from fivehundred.runtime.engine.errors import IllegalActionError

    exc = IllegalActionError(2, "6S", "play.follow-suit", "must follow suit (spades)", None, kind)
    assert str(exc) == f"seat 2 {verb}: must follow suit (spades) [play.follow-suit]"


def test_engine_messages_name_suits_in_the_reader_s_language() -> None:
    """Issue 13: "must follow suit (S)": the suit code becomes the suit's name, translated."""
    from fivehundred.runtime.engine.hand import HandState
    from fivehundred.runtime.loading import load_rules

    rules = load_rules("australian")
    nb = i18n.load_translations("nb")
    for seed in range(50):
        rng = Random(seed)
        state = HandState.new(rules, dealer=0, rng=rng)
        while state.legal_actions():
            hand = state.hands[state.to_move]
            cards = [c for c in range(rules.n_cards) if hand >> c & 1]
            for card in cards:
                if card in state.legal_actions():
                    continue
                why = state.explain_illegal(card)
                if why.template != "must follow suit (%(suit)s)":
                    continue
                english = why.text()
                assert re.fullmatch(r"must follow suit \((spades|clubs|diamonds|hearts)\)", english)
                word = nb.gettext(english.split("(")[1].rstrip(")"))
                assert word != english.split("(")[1].rstrip(")")  # translated
                assert why.text(nb) == nb.gettext("must follow suit (%(suit)s)") % {"suit": word}
                with pytest.raises(ValueError, match="may not play"):
                    state.apply(card)
                return
            state.apply(rng.choice(state.legal_actions()))
    pytest.fail("no deal gave a seat that must follow suit")


def test_record_errors_are_translated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 13: "action 0 '7X' is not a card..." and the other record errors were English only."""
    path = _illegal_record(tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    record["actions"] = ["7X"]
    path.write_text(json.dumps(record), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**record, "dealer": 9}), encoding="utf-8")
    lines = {}
    for lang in ["en", *LANGS]:
        t = i18n.load_translations(lang)
        assert main(["replay", str(path), "--lang", lang]) == 2
        err = capsys.readouterr().err
        want = t.gettext("%(action)s is not a card, a bid of %(variant)s or an action") % {
            "action": "'7X'",
            "variant": "australian",
        }
        prefix = t.gettext("action %(index)s: %(error)s") % {"index": 0, "error": want}
        assert err.strip().endswith(prefix), (lang, err)
        lines[lang] = err
        assert main(["replay", str(broken), "--lang", lang]) == 2
        err = capsys.readouterr().err
        want = t.gettext("'dealer' must be a seat from 0 to %(last)s, not %(dealer)s")
        assert err.strip().endswith(want % {"last": 3, "dealer": 9}), (lang, err)
        assert main(["replay", str(path), "--lang", lang, "--json"]) == 2
        error = json.loads(capsys.readouterr().out)["error"]
        assert error["index"] == 0 and error["message"].startswith("'7X'")
    assert "action 0: '7X' is not a card, a bid of australian or an action" in lines["en"]
    assert len(set(lines.values())) == len(lines)  # every language says it its own way


def test_update_restores_the_header_and_drops_wrapped_previous_text_marks(tmp_path: Path) -> None:
    """An old writer wrapped a catalogue's header comment line by line and turned ``#| msgid``
    previous-text marks into translator comments wrapped word by word (``# | they " "take``,
    ``# the``): an update writes the header as a new catalogue has it and drops those lines,
    keeping a glossary entry's ``avoid:`` comment."""
    locales, pot = _locales(tmp_path, ["nl"])
    path = i18n.po_path("nl", locales)
    text = path.read_text(encoding="utf-8")
    header = "# Do not edit messages.pot\n# files\n# with any PO\n#\n"
    text = header + text[text.index('msgid ""') :]
    text = text.replace(
        '\nmsgid "The first dealer is chosen at random."',
        '\n# the\n# | kitty, " "and each player scores\n# take."'
        '\nmsgid "The first dealer is chosen at random."',
    )
    assert '\nmsgctxt "glossary"\nmsgid "kitty"' in text
    text = text.replace(
        '\nmsgctxt "glossary"\nmsgid "kitty"',
        '\n# avoid: kitty*\n# | the " "kitty\nmsgctxt "glossary"\nmsgid "kitty"',
    )
    path.write_text(text, encoding="utf-8")
    i18n.update_catalogues(["nl"], locales=locales, pot=pot)
    after = path.read_text(encoding="utf-8")
    assert after.startswith("# Five Hundred: rule books and engine messages (Nederlands).\n")
    assert "# files\n" not in after and "# | " not in after and '# take."' not in after
    catalog = i18n.read_catalog(path, "nl")
    assert not catalog["The first dealer is chosen at random."].user_comments
    assert catalog.get("kitty", "glossary").user_comments == ["avoid: kitty*"]


# -- typography --------------------------------------------------------------------------------

#: The quotation marks each catalogue writes, opening then closing (issue 21 §3: "the locale's
#: quotes"): Dutch „…”, Norwegian «…», Danish »…«, Portuguese “…”, Arabic «…». A language not
#: listed is held to no straight double quote only.
LOCALE_QUOTES = {"nl": "„”", "nb": "«»", "da": "»«", "pt": "“”", "ar": "«»"}
#: Every double quotation mark, straight or typographic.
DOUBLE_QUOTES = set('"„”“«»‟')
#: What may hold a straight quote as code, not as a quotation: a code span, a format field.
_CODE = re.compile(r"`[^`]*`|%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[a-z]|\{[^{}]*\}")


@pytest.mark.parametrize("lang", LANGS)
def test_translations_use_the_locale_s_quotes(lang: str) -> None:
    """A translated message quotes with its language's marks, never a straight ``"``
    (code spans and format fields aside), each quotation opened and closed in the
    catalogue's one style."""
    catalog = i18n.read_catalog(i18n.po_path(lang), lang)
    allowed = set(LOCALE_QUOTES.get(lang, "".join(DOUBLE_QUOTES - {'"'})))
    wrong = []
    for m in catalog:
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        for form in forms:
            prose = _CODE.sub("", str(form or ""))
            marks = "".join(c for c in prose if c in DOUBLE_QUOTES)
            stray = {c for c in marks if c not in allowed}
            if stray:
                wrong.append(f"line {m.lineno}: {''.join(sorted(stray))} in {prose[:60]!r}")
            elif lang in LOCALE_QUOTES and marks != LOCALE_QUOTES[lang] * (len(marks) // 2):
                wrong.append(f"line {m.lineno}: quotes {marks} not opened and closed in turn")
    assert not wrong, f"{lang}: quotes not the catalogue's own {LOCALE_QUOTES.get(lang)}: {wrong}"


#: A quotation in a message: between straight or typographic double quotes.
_QUOTED = re.compile(r'"([^"]+)"|[„“«»]([^„“”«»]+)[”«»]')


def test_quoted_names_that_most_catalogues_translate_are_translated_in_all() -> None:
    """issue 21 §3: an option or rule name the English quotes (T's "anytime", "raise own bid:
    yes") is quoted in the reader's language: one that most catalogues translate, every
    catalogue translates (a name most keep as it is, "Misère" or "2v2v2", is a name)."""
    catalogs = {lang: i18n.read_catalog(i18n.po_path(lang), lang) for lang in LANGS}
    kept: dict[tuple[object, str], set[str]] = {}
    for lang, catalog in catalogs.items():
        for m in catalog:
            if not m.id or not isinstance(m.string, str) or not m.string:
                continue
            english = {a or b for a, b in _QUOTED.findall(str(m.id))}
            quoted = {a or b for a, b in _QUOTED.findall(m.string)}
            for name in english:
                kept.setdefault((i18n.message_key(m), name), set())
                if name in quoted:
                    kept[i18n.message_key(m), name].add(lang)
    english_kept = sorted(
        f"{','.join(sorted(langs))}: {name!r}"
        for (_, name), langs in kept.items()
        if langs and 2 * len(langs) < len(catalogs)
    )
    assert not english_kept, english_kept
