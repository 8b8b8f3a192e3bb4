"""The same notation everywhere a person reads and types (issue 21 §4).

Input accepts both: the codes (``JH``), a code with its suit symbol (``J♥``) always, and a
language's own notation (Dutch ``B♥``, ``7 SA``) when that language is in use; a game record is
read by the action grammar alone (INTERCHANGE.md, "Codes"). What a person reads names cards and
bids in the language's notation: engine messages, ``play``, plain ``replay``, ``hint``.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from random import Random

import pytest

from fivehundred.generator.i18n import load_translations
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.cli.play import play_match
from fivehundred.runtime.engine.errors import FiveHundredError, IllegalActionError
from fivehundred.runtime.engine.hand import PLAY, HandState, deal
from fivehundred.runtime.engine.notation import ENGLISH, LRI, PDI, notation_of
from fivehundred.runtime.engine.records import replay
from fivehundred.runtime.loading import load_rules
from fivehundred.runtime.terminal import printable

ROOT = Path(__file__).resolve().parent.parent
DUTCH = notation_of(load_translations("nl"))


@pytest.fixture(scope="module")
def rules():  # type: ignore[no-untyped-def]
    return load_rules("australian")


def _in_play(rules, holding: str | None = None, missing: str | None = None) -> HandState:  # type: ignore[no-untyped-def]
    """A hand of ``rules`` in the play, the seat to move holding ``holding`` as a legal card
    (or not holding ``missing``): random legal calls and plays from fixed seeds."""
    for seed in range(400):
        rng = Random(seed)
        state = HandState(rules, 0, *deal(rules, 0, rng))
        while not state.is_over:
            if state.phase == PLAY:
                legal = {rules.action_str(a) for a in state.legal_actions()}
                held = {
                    rules.deck[c]
                    for c in range(rules.n_cards)
                    if state.hands[state.to_move] >> c & 1
                }
                if (holding and holding in legal) or (missing and missing not in held):
                    return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such position in 400 deals")


def test_a_dutch_player_typing_b_hearts_plays_the_jack_of_hearts(rules):
    """Dutch B (boer) is the jack: ``B♥`` is JH, in the play as in ``play --lang nl``."""
    state = _in_play(rules, holding="JH")
    assert state.copy().apply_str("B♥", DUTCH) == rules.card("JH")
    assert rules.parse_action("B♥", bidding=False, notation=DUTCH) == rules.card("JH")
    assert rules.parse_action("V♥", bidding=False, notation=DUTCH) == rules.card("QH")
    assert rules.parse_action("H♠", bidding=False, notation=DUTCH) == rules.card("KS")
    assert rules.parse_action("7 SA", notation=DUTCH) == rules.bid_action("7NT")
    assert rules.parse_action("7 sa", notation=DUTCH) == rules.bid_action("7NT")
    assert rules.parse_actions("discard B♥ 10♦", notation=DUTCH) == rules.parse_actions(
        "discard JH 10D"
    )
    # English letters stay codes: B♥ is no English card
    with pytest.raises(FiveHundredError):
        rules.parse_action("B♥", bidding=False)


def test_english_accepts_the_code_and_the_suit_symbol(rules):
    """``J♥`` and ``JH`` are the same card; a bid may carry its symbol; the joker's lead and
    the nomination name a suit by symbol too."""
    jack = rules.card("JH")
    assert (
        rules.parse_action("J♥", bidding=False) == rules.parse_action("JH", bidding=False) == jack
    )
    assert rules.parse_action("j♥", bidding=False) == jack
    assert rules.parse_action("10♦", bidding=False) == rules.card("10D")
    assert rules.parse_action("7♠") == rules.parse_action("7S") == rules.bid_action("7S")
    assert rules.parse_action("7♠", bidding=False) == rules.card("7S")
    assert rules.parse_action("7NT") == rules.parse_action("7 NT") == rules.bid_action("7NT")
    assert rules.parse_action("JK:♥", bidding=False) == rules.parse_action("JK:H", bidding=False)
    state = _in_play(rules, holding="JH")
    assert state.copy().apply_str("J♥") == state.copy().apply_str("JH") == jack


def test_a_record_keeps_the_codes(rules):
    """INTERCHANGE.md: a record's actions are the codes; ``J♥`` or ``B♥`` in a record is
    refused at its index, the same record in codes replays."""
    line = (ROOT / "generated" / "conformance" / "australian.jsonl").read_text().splitlines()[1]
    record = json.loads(line)["record"]
    replay(record)  # the codes replay
    index = next(i for i, a in enumerate(record["actions"]) if a == "JH")
    for written in ("J♥", "B♥"):
        bad = {**record, "actions": [*record["actions"][:index], written]}
        with pytest.raises(FiveHundredError) as caught:
            replay(bad)
        assert getattr(caught.value, "index", None) == index
        assert not isinstance(caught.value, IllegalActionError)  # not an action at all
    from fivehundred.runtime.adapters.api import Game

    with pytest.raises(FiveHundredError):
        Game(rules).from_record({**record, "actions": [*record["actions"][:index], "J♥"]})


def test_the_dutch_engine_message_names_the_card_in_dutch(rules):
    """An illegal move in Dutch names the card as the Dutch books write it, ``B♥``; the same
    error in English (the books' notation) is ``J♥``; ``str()`` keeps the code."""
    state = _in_play(rules, missing="JH")
    seat = state.to_move
    with pytest.raises(IllegalActionError) as caught:
        state.apply_str("B♥", DUTCH)
    exc = caught.value
    dutch = exc.text_for(load_translations("nl"), DUTCH)
    assert dutch.startswith(f"plaats {seat} mag B♥ niet spelen: ")
    assert "heeft B♥ niet" in dutch and "JH" not in dutch and dutch.endswith("[play.follow-suit]")
    english = exc.text_for(None, ENGLISH)
    assert f"seat {seat} may not play J♥: seat {seat} does not hold J♥" in english
    assert "'JH'" in str(exc)  # the exception's own text: codes, as the API gives it


def test_a_bid_in_an_arabic_message_is_isolated_left_to_right(rules):
    """issue 21 §4: in a right-to-left language every card and bid of a message stands in
    LRI ... PDI (U+2066, U+2069), as in the books, so ``7 NT`` is not shown reversed; the
    terminal keeps such an isolate and still escapes a lone one."""
    arabic = load_translations("ar")
    notation = notation_of(arabic)
    assert notation.rtl and not DUTCH.rtl and not ENGLISH.rtl
    state = HandState(rules, 0, *deal(rules, 0, Random(1)))
    state.apply_str("7NT")
    with pytest.raises(IllegalActionError) as caught:
        state.apply_str("6S")
    text = caught.value.text_for(arabic, notation)
    seven = notation.bid("7NT")
    assert f"{LRI}{seven}{PDI}" in text and f"{LRI}6♠{PDI}" in text
    assert text.count(LRI) == text.count(PDI) == 2
    assert printable(text) == text
    assert printable(f"a{LRI}b") == "a\\u2066b"


def _hand_line(text: str, label: str) -> list[str]:
    return re.findall(rf"^{label} (.*)$", text, re.M)[0].split()


def test_play_in_dutch_shows_the_hand_in_dutch_notation(rules, monkeypatch, capsys):
    """``play --lang nl``: the lines in Dutch, the cards as Dutch players write them (A H V B,
    never K Q J), and a Dutch move typed in the notation is played."""
    out = io.StringIO()
    answers = ["help", "quit"]
    play_match(
        rules, lambda prompt: answers.pop(0), out, seed=8, translations=load_translations("nl")
    )
    text = out.getvalue()
    cards = _hand_line(text, "je kaarten:")
    assert len(cards) == rules.hand_size
    for card in cards:
        assert re.fullmatch(r"(A|H|V|B|10|[2-9])[♠♣♦♥]|JK", card), card
    assert "7 SA" in text  # the help's example bid
    # the English game shows the same deal in the books' English notation
    english = io.StringIO()
    answers = ["quit"]
    play_match(rules, lambda prompt: answers.pop(0), english, seed=8)
    dutch_back = [DUTCH.read(c) for c in cards]
    assert [ENGLISH.read(c) for c in _hand_line(english.getvalue(), "your hand:")] == dutch_back
    # the command line: --lang nl, a Dutch move typed
    monkeypatch.setattr(sys, "stdin", io.StringIO("B♥\nquit\n"))
    assert main(["play", "australian", "--seed", "8", "--lang", "nl"]) == 0
    shown = capsys.readouterr().out
    assert "je kaarten:" in shown and "mag B♥ niet spelen" in shown  # in the auction: a card


def test_plain_replay_in_dutch_names_cards_and_bids_in_dutch(capsys, tmp_path):
    """``replay --lang nl``: the calls, contract and tricks in Dutch notation; ``--json`` keeps
    the codes."""
    line = (ROOT / "generated" / "conformance" / "australian.jsonl").read_text().splitlines()[1]
    record = json.loads(line)["record"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--lang", "nl"]) == 0
    out = capsys.readouterr().out
    assert "contract: 6♠ door plaats 1" in out and ":B♥" in out and "JH" not in out
    assert main(["replay", str(path), "--lang", "nl", "--json"]) == 0
    assert '"JH"' in capsys.readouterr().out


def test_hint_reads_symbols_and_the_language(capsys):
    """``hint``: the hand given with suit symbols, or in Dutch with ``--lang nl``; the action
    printed in that notation, ``--json`` in codes."""
    hand = "JK J♥ 10♥ 9♥ 8♥ 7♥ A♠ K♠ Q♠ 4♦"
    assert main(["hint", "australian", "--seat", "1", "--hand", hand]) == 0
    english = capsys.readouterr().out
    dutch_hand = " ".join(DUTCH.card(ENGLISH.read(c)) if c != "JK" else c for c in hand.split())
    assert main(["hint", "australian", "--seat", "1", "--hand", dutch_hand, "--lang", "nl"]) == 0
    dutch = capsys.readouterr().out
    assert english.startswith("hint: ") and dutch.startswith("tip: ")
    assert main(["hint", "australian", "--seat", "1", "--hand", hand, "--json"]) == 0
    code = json.loads(capsys.readouterr().out)["action"]
    assert english.split()[1] == ENGLISH.action(code, "bid")
    assert dutch.split()[1] == DUTCH.action(code, "bid").split()[0]


@pytest.mark.parametrize("bot", ["heuristic", "search"])
def test_hint_gives_the_reason_in_the_language(capsys, bot):
    """``hint --lang nl``: the bot's reason in Dutch, its bids in the Dutch notation (the
    search bot's "94% kans om 6♥ te maken"), the same reason ``--json`` gives in English."""
    from fivehundred.runtime.adapters.api import Game
    from fivehundred.runtime.bots.reasons import reason_text

    hand = "5♥ J♥ 10♥ 9♥ 8♥ 7♥ A♠ K♠ Q♠ 4♦"
    args = ["hint", "australian", "--seat", "1", "--hand", hand, "--bot", bot]
    assert main([*args, "--lang", "nl"]) == 0
    dutch = capsys.readouterr().out
    assert main([*args, "--json"]) == 0
    english = json.loads(capsys.readouterr().out)["reason"]
    state = Game(load_rules("australian")).position(1, [ENGLISH.read(c) for c in hand.split()])
    _, reason = state.hint(bot)
    assert english == str(reason)
    said = reason_text(reason, load_translations("nl"))
    assert said != english and dutch.rstrip("\n").endswith(f"({said})"), (dutch, said)
    if bot == "search":  # its chance of the bid, the bid in the notation
        assert "6♥" in said and "6H" not in said


@pytest.mark.parametrize(
    ("lang", "tricks", "chance"),
    [("en", "6.5", "45%"), ("nl", "6,5", "45%"), ("nb", "6,5", "45\u00a0%"),
     ("da", "6,5", "45\u00a0%"), ("pt", "6,5", "45%"), ("ar", "6.5", "45%")],
)  # fmt: skip
def test_a_reason_writes_its_decimals_and_percentages_as_the_language_does(lang, tricks, chance):
    """A bot's reason in the reader's language writes "about 6,5 tricks" in Dutch, Norwegian,
    Danish and Portuguese and a percentage with the language's sign ("45\u00a0%" in Norwegian
    and Danish: CLDR's patterns, as the rule books' figures are written); the English value is
    what ``f"{x:.1f}"`` and ``f"{p:.0%}"`` wrote before."""
    from fivehundred.runtime.bots.reasons import Why, decimal_param, percent_param, reason_text
    from fivehundred.runtime.engine.messages import N_

    reason = Why(
        N_("about %(tricks)s tricks at %(strain)s %(mates)s: %(chance)s to make %(level)s"),
        tricks=decimal_param(6.5),
        strain=N_("no trumps"),
        mates=N_("with an average partner"),
        chance=percent_param(0.449),
        level=7,
    )
    assert str(reason).startswith(f"about {6.5:.1f} tricks") and f"{0.449:.0%}" in reason
    said = reason_text(reason, None if lang == "en" else load_translations(lang))
    assert tricks in said and chance in said, said
    if lang in ("nl", "nb", "da", "pt"):
        assert "6.5" not in said


def test_the_heuristic_bid_reason_in_dutch_has_a_decimal_comma(capsys):
    """``hint --lang nl`` on a hand the heuristic opens from its count: the count in the reason
    is written with a comma."""
    hand = "A♥ K♥ 10♥ 9♥ 8♥ 7♥ A♠ K♠ 5♣ 4♦"
    assert main(["hint", "australian", "--seat", "1", "--hand", hand, "--json"]) == 0
    english = json.loads(capsys.readouterr().out)["reason"]
    assert main(["hint", "australian", "--seat", "1", "--hand", hand, "--lang", "nl"]) == 0
    dutch = capsys.readouterr().out
    count = re.search(r"about (\d+)\.(\d) tricks", english)
    assert count is not None, english
    assert f"{count[1]},{count[2]}" in dutch and f"{count[1]}.{count[2]}" not in dutch, dutch


# -- special bids by name (issue 21 §1/§4) ------------------------------------------------------


def test_a_special_bid_is_named_where_a_person_reads_it(rules):
    """issue 21 §1: a person reads a special bid by its name in the language, the books' name
    (misère, open misère; Dutch "blinde misère"), never the code MIS; the codes stay in
    ``str()`` of an error, in records and in the grammar; a name typed is read as the code."""
    from fivehundred.runtime.engine.notation import special_names

    for lang in ("en", "nl", "nb", "da", "ar", "pt"):
        translations = load_translations(lang)
        names = special_names(rules, translations)
        assert set(names) == {"MIS", "OMIS", "BMIS"}
        assert translations.gettext("open misère") == names["OMIS"]
        notation = notation_of(translations, rules)
        for code, name in names.items():
            assert notation.bid(code) == name and notation.action(code, "bid") == name
            assert notation.read(name) == code and notation.words(name.upper()) == code
            assert rules.parse_actions(name, notation=notation) == (rules.bid_action(code),)
        assert notation_of(translations).bid("MIS") == "MIS"  # without the rules: no name
    state = HandState(rules, 0, *deal(rules, 0, Random(1)))
    with pytest.raises(IllegalActionError) as caught:
        state.apply_str("MIS")
    exc = caught.value
    dutch = exc.text_for(load_translations("nl"), notation_of(load_translations("nl"), rules))
    assert "mag misère niet bieden: misère mag pas" in dutch and "MIS" not in dutch
    # the engine's message carries the bid's name: a notation without the rules names it too
    # (the browser table's sentence), in each language
    for lang in ("nl", "pt", "ar"):
        translations = load_translations(lang)
        shown = exc.text_for(translations, notation_of(translations))
        assert shown.count(special_names(rules, translations)["MIS"]) == 2, shown
        assert "MIS" not in shown.replace("[auction.misere]", "")
    assert "'MIS'" in str(exc)  # the exception's own text: codes, as the API gives it
    assert exc.action == "MIS" and json.dumps(exc.action) == '"MIS"'
    assert exc.text_for(None, None).count("MIS") == 2  # no notation: the codes


def _recording(prompts: list[str], answers: list[str]):  # type: ignore[no-untyped-def]
    """An ``ask`` for play_match that keeps each prompt and gives the next answer."""

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return answers.pop(0)

    return ask


def test_play_names_special_bids_and_takes_the_name_or_the_code(rules):
    """``play --lang nl``: the refusal, the legal list and the contract name the special bids
    (open misère, never OMIS); the code and the name typed are both played."""
    for typed in ("OMIS", "open misere"):
        out = io.StringIO()
        answers = ["MIS", typed, "quit"]
        prompts: list[str] = []
        ask = _recording(prompts, answers)
        play_match(rules, ask, out, seed=3, translations=load_translations("nl"))
        text = out.getvalue() + "\n".join(prompts)
        assert "jij mag misère niet bieden: misère mag pas" in text
        legal = re.findall(r"^bieding, jouw beurt \((.*?)\) > $", "\n".join(prompts), re.M)
        assert legal and all("open misère" in line.split(", ") for line in legal)
        assert not re.search(r"\b(MIS|OMIS|BMIS)\b", text)
        assert "contract: open misère · leider: jij" in text


def _record(variant: str, ok) -> dict:  # type: ignore[no-untyped-def]
    """The first record of ``variant``'s conformance vectors whose replay view satisfies ``ok``."""
    from fivehundred.runtime.engine.records import replay_view
    from fivehundred.runtime.loading import record_loader

    load = record_loader(())
    for line in (ROOT / "generated" / "conformance" / f"{variant}.jsonl").read_text().splitlines():
        record = json.loads(line).get("record")
        if record is None:
            continue
        try:
            view = replay_view(replay(record, load=load))
        except FiveHundredError:
            continue
        if ok(view):
            return record
    raise AssertionError(f"no such record of {variant}")


def test_plain_replay_names_special_bids_and_keeps_the_codes_in_json(capsys, tmp_path):
    """``replay --lang nl``: a special bid by its name in the calls and the contract, and in
    the line of an illegal one; ``--json`` keeps the code."""
    record = _record("american", lambda v: v["contract"] and v["contract"]["bid"] == "OMIS")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--lang", "nl"]) == 0
    out = capsys.readouterr().out
    assert "contract: open nullo door plaats" in out and "OMIS" not in out
    assert main(["replay", str(path), "--json"]) == 0
    assert '"OMIS"' in capsys.readouterr().out
    early = {**_record("australian", lambda v: True), "actions": ["MIS"]}  # before a 7
    path.write_text(json.dumps(early), encoding="utf-8")
    assert main(["replay", str(path), "--lang", "nl"]) == 2
    err = capsys.readouterr().err
    assert "mag misère niet bieden: misère mag pas" in err and "MIS" not in err.split(": ", 1)[1]


@pytest.mark.parametrize(
    ("variant", "ok", "english", "dutch"),
    [
        (
            "all-pass-no-trumps",
            lambda v: v["winner"] is not None,
            r"^scores: side 0 \(seats 0, 2\) \u2212\d+, side 1 \(seats 1, 3\) 500\n"
            r"the game is over: side 1 \(seats 1, 3\) won$",
            r"^stand: partij 0 \(plaatsen 0, 2\) \u2212\d+, partij 1 \(plaatsen 1, 3\) 500\n"
            r"het spel is uit: partij 1 \(plaatsen 1, 3\) heeft gewonnen$",
        ),
        (
            "five-handed-call",
            lambda v: v["hand"]["complete"] and v["winner"] is None,
            r"^scores: seat 0 \d+, seat 1 \d+, seat 2 \d+, seat 3 \d+, seat 4 \d+\n"
            r"no side has won the game yet: the game goes on$",
            r"^stand: plaats 0 \d+, plaats 1 \d+, plaats 2 \d+, plaats 3 \d+, plaats 4 \d+\n"
            r"nog geen partij heeft het spel gewonnen: het spel gaat door$",
        ),
        (
            "australian",
            lambda v: not v["hand"]["complete"],
            r"^scores: side 0 \(seats 0, 2\) 0, side 1 \(seats 1, 3\) 0\n"
            r"the record stops before the end of the hand: the game is not decided$",
            r"^stand: partij 0 \(plaatsen 0, 2\) 0, partij 1 \(plaatsen 1, 3\) 0\n"
            r"het verslag stopt voor het einde van de ronde: het spel is nog niet beslist$",
        ),
    ],
)
def test_plain_replay_says_the_scores_by_side_and_the_winner_in_words(
    variant, ok, english, dutch, capsys, tmp_path
):  # type: ignore[no-untyped-def]
    """issue 21: plain ``replay`` gave ``scores: [30, 100]  winner: None``: the scores side by
    side (a side of one player by its seat), and the winner, or that the game goes on, or that
    the record stops before the hand's end, in words of the language."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_record(variant, ok)), encoding="utf-8")
    for lang, expected in (("en", english), ("nl", dutch)):
        assert main(["replay", str(path), "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert re.search(expected, out, re.M), out
        assert "None" not in out and "[" not in out.split("\n")[-3]
