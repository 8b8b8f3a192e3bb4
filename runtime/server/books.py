"""The rule books' index page: every built-in variant, grouped by the number of players."""

from __future__ import annotations

from html import escape

from ..engine.game import load_builtin
from .uitext import LANGUAGES, direction, translations, ui_strings

__all__ = ["index_page"]


def index_page(lang: str) -> str:
    """The index in ``lang``: per player count, each variant's name (translated where the
    catalogue has it), a link to its book, and for a house variant a link to its base."""
    from ...generator.pipeline import builtin_ids

    ui = ui_strings(lang)
    tr = translations(lang)
    groups: dict[int, list[str]] = {}
    for variant in builtin_ids():
        rules = load_builtin(variant)
        name = tr.gettext(rules.name) if tr is not None else rules.name
        item = f'<a href="/books/{lang}/{variant}.html">{escape(name)}</a> <code>{variant}</code>'
        if rules.extends:
            base = rules.extends
            item += f' ← <a href="/books/{lang}/{base}.html"><code>{escape(base)}</code></a>'
        groups.setdefault(rules.players, []).append(f"<li>{item}</li>")
    body = []
    for players in sorted(groups):
        heading = ui["players-n"] % {"n": players}
        body.append(f"<h2>{escape(heading)}</h2><ul>{''.join(groups[players])}</ul>")
    switch = " · ".join(
        f'<a href="/books/?lang={code}" hreflang="{code}">{code}</a>' for code in LANGUAGES
    )
    return (
        f'<!doctype html><html lang="{lang}" dir="{direction(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(ui["books"])}</title><link rel="stylesheet" href="/static/table.css">'
        f'</head><body class="page"><nav>{switch} · <a href="/?lang={lang}">'
        f"{escape(ui['new-table'])}</a></nav><h1>{escape(ui['books'])}</h1>{''.join(body)}"
        "</body></html>"
    )
