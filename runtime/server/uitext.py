"""The words of the table's pages, marked for translation like every engine message.

Each string is a gettext msgid marked with ``N_`` here, so ``fivehundred i18n extract`` puts it
in ``specs/locales/messages.pot`` and translators find it in their PO file beside the rule
books' messages. The pages ask ``/api/strings/LL`` for :func:`ui_strings` (id to translated
text, from the catalogues) and never hold English text of their own.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..engine.messages import N_, SUIT_WORDS, Translator

__all__ = ["LANGUAGES", "UI", "direction", "notation", "translations", "ui_strings"]

#: The languages of the books, and so of the pages.
LANGUAGES = ("en", "nl", "nb", "da", "ar", "pt")

#: Every string the pages show, by id. ``%(name)s`` placeholders are filled by the page.
UI: dict[str, str] = {
    "title": N_("Five Hundred"),
    "new-table": N_("Open a table"),
    "variant": N_("Variant"),
    "house-file": N_("or a house file (YAML)"),
    "seat-n": N_("Seat %(seat)s"),
    "person": N_("a person (invitation link)"),
    "bot-heuristic": N_("bot: heuristic"),
    "bot-search": N_("bot: search"),
    "bot-random": N_("bot: random"),
    "name": N_("Name"),
    "suggestions": N_("Suggestions"),
    "watchers": N_("Watchers allowed"),
    "clock": N_("Clock per move"),
    "no-clock": N_("none"),
    "seconds": N_("%(n)s s"),
    "autoplay": N_("Play forced moves automatically"),
    "open": N_("Open the table"),
    "links": N_("Invitation links: send each person their own; the watchers' link is for anyone"),
    "watch-link": N_("Watchers"),
    "sit": N_("Sit here"),
    "books": N_("Rule books"),
    "rule-book": N_("Rule book"),
    "players-n": N_("%(n)s players"),
    "you": N_("You"),
    "partner": N_("Partner"),
    "opponent": N_("Opponent"),
    "left": N_("on your left"),
    "right": N_("on your right"),
    "across": N_("across"),
    "nth-left": N_("%(n)s places to your left"),
    "bot": N_("bot"),
    "dealer": N_("dealer"),
    "to-move": N_("to move"),
    "auction": N_("Auction"),
    "contract": N_("Contract"),
    "by": N_("by %(who)s"),
    "no-contract": N_("no contract yet"),
    "joker-suit": N_("Joker's suit: %(suit)s"),
    "kitty-card": N_("from the kitty"),
    # Translators: the same three words where the variant calls the kitty the widow (American).
    "widow-card": N_("from the widow"),
    "trick": N_("Trick"),
    "last-trick": N_("Last trick"),
    "show-last-trick": N_("Show the last trick"),
    "won-by": N_("won by %(who)s"),
    "tricks-won": N_("Tricks won"),
    "score": N_("Score"),
    "target": N_("playing to %(target)s"),
    "side-n": N_("Side %(side)s"),
    "your-side": N_("your side"),
    "your-turn": N_("Your turn"),
    "waiting-for": N_("Waiting for %(who)s"),
    "pass": N_("Pass"),
    "take": N_("Take the kitty"),
    "sans": N_("Play without the kitty"),
    "take-widow": N_("Take the widow"),
    "sans-widow": N_("Play without the widow"),
    "discard-n": N_("Discard %(n)s more"),
    "nominate": N_("Name the joker's suit"),
    "choose-partner": N_("Choose a partner"),
    "call-card": N_("Call a card"),
    "lead-joker": N_("Lead the joker as"),
    "suggestion": N_("Suggestion: %(action)s (%(reason)s)"),
    "hand-over": N_("Hand %(n)s is over"),
    "made": N_("%(who)s made %(bid)s"),
    "went-down": N_("%(who)s went down in %(bid)s"),
    "all-passed": N_("Everybody passed"),
    "points": N_("Points"),
    "next-hand": N_("Next hand"),
    "waiting-others": N_("Waiting for the others"),
    "download-record": N_("Download the record"),
    # Translators: a link on a table that plays a house file; the command is given as it is.
    "download-rules": N_(
        "Download the house file (replay the records with: fivehundred replay --rules FILE RECORD)"
    ),
    "game-over": N_("The game is over"),
    "winner": N_("%(who)s wins"),
    "no-winner": N_("Nobody wins"),
    "watching": N_("You are watching"),
    "chat": N_("Chat"),
    "chat-hello": N_("Hello!"),
    "chat-well-played": N_("Well played!"),
    "chat-thanks": N_("Thanks!"),
    "chat-sorry": N_("Sorry!"),
    "chat-oops": N_("Oops!"),
    "chat-good-game": N_("Good game!"),
    "chat-bye": N_("Bye!"),
    "connection-lost": N_("Connection lost: reconnecting…"),
    "clock-left": N_("%(n)s s left"),
    "hand-n": N_("Hand %(n)s"),
    "suit-S": SUIT_WORDS["S"],
    "suit-C": SUIT_WORDS["C"],
    "suit-D": SUIT_WORDS["D"],
    "suit-H": SUIT_WORDS["H"],
    "no-trumps": N_("no trumps"),
    "language": N_("Language"),
    "cards-held": N_("%(n)s cards"),
    "bench": N_("The author's bench"),
    "bench-intro": N_(
        "Write or upload a house file: its problems show at their lines as you type, and its "
        "rule book, its differences from its base and a short balance study below. Nothing is "
        "saved on the server."
    ),
    "upload": N_("Upload a house file"),
    "book-language": N_("Language of the rule book"),
    "play-it": N_("Play it"),
    "checking": N_("Checking…"),
    "compiles": N_("%(name)s: no problems"),
    "differences": N_("Differences from the base"),
    "no-differences": N_("No rule differs from the base."),
    "study": N_("Balance study"),
    "games": N_("Games"),
    "study-run": N_("Play the games"),
    "study-cancel": N_("Stop"),
    "study-progress": N_("%(done)s of %(total)s games played"),
    "study-done": N_("%(games)s games of each variant, played by bots; * a significant difference"),
    "study-cancelled": N_("The study was stopped."),
    "this-file": N_("this file"),
}


@cache
def translations(lang: str) -> Translator | None:
    """The catalogue of ``lang`` (None for English)."""
    if lang == "en":
        return None
    from ...generator.i18n import load_translations

    return load_translations(lang)


def direction(lang: str) -> str:
    """``rtl`` or ``ltr``."""
    from ...generator.i18n import text_direction

    return text_direction(lang)


@cache
def ui_strings(lang: str) -> dict[str, Any]:
    """Every page string in ``lang`` (English where a translation is missing)."""
    tr = translations(lang)
    return {key: tr.gettext(text) if tr is not None else text for key, text in UI.items()}


@cache
def notation(lang: str) -> dict[str, Any]:
    """How the players of ``lang`` write cards and bids (the books' :class:`Notation`), for
    the pages: ``ranks`` (rank code -> letters, ``K -> H`` in Dutch) and ``nt`` (a no-trumps
    bid, ``%(level)s`` the number of tricks)."""
    from ...generator.i18n import load_translations
    from ..engine.notation import notation_of

    # the catalogue itself (gettext's, with pgettext): the notation's messages have a context
    used = notation_of(None if lang == "en" else load_translations(lang))
    return {"ranks": dict(used.ranks), "nt": used.no_trumps}
