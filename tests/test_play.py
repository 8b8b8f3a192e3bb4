"""``fivehundred play``: a person against bots at the terminal (issue 20's complaints).

Seats are named from the person's chair, scores given by side with the target, the hand sorted
with the trumps first and the kitty's cards marked, a forced move played for the person, a typo
answered with "did you mean", a thrown-in hand said in words, each hand and the game summed up;
in English and through the catalogues in other languages. Whole games are played by answering
the heuristic's hint; fixed deals (the deal and the first dealer replaced) and scripted bots put
the person where a rule is to be seen.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest
from conftest import build_hand, mask_of

from fivehundred.generator.i18n import load_translations
from fivehundred.runtime.bots.registry import BotState
from fivehundred.runtime.cli import play
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.cli.play import play_match, position
from fivehundred.runtime.engine import game, hand
from fivehundred.runtime.engine.errors import FiveHundredError
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.messages import render
from fivehundred.runtime.engine.notation import ENGLISH, LRI, PDI, notation_of
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.engine.seatview import sorted_cards, view_of
from fivehundred.runtime.loading import load_rules

Answer = str | Callable[[str, str], str]
Arrange = Callable[..., Rules]

# A whole Australian deal (dealer seat 3, so the person at seat 0 calls first). Seat 0 holds the
# joker, both red jacks and A♥ 10♥: with hearts trumps, five trumps that a sorted hand shows
# first, J♦ among them; the kitty holds Q♥ 5♠ 9♣.
DEAL = [
    "JK JH JD AH 10H AS KS 7C 6D 5D",
    "4H 5H 6H 7H 8H 9H KH 4D 7D 5C",
    "9D 10D QD KD AD 6S 7S 8S 9S 10S",
    "JS QS 8D 6C 8C 10C JC QC KC AC",
]
KITTY = "QH 5S 9C"


def first_legal(prompt: str, text: str) -> str:
    """The first move the prompt offers, or the discard of the first cards of the hand."""
    if "discard" in prompt and "(" not in prompt.split("discard")[0]:
        cards = re.findall(r"^your hand: (.*?)(?: · .*)?$", text, re.M)[-1].split()
        count = re.search(r"discard: (\d+)", prompt)
        assert count is not None, prompt
        return "discard " + " ".join(cards[: int(count.group(1))])
    offered = re.search(r"\((.*)\) > $", prompt)
    assert offered is not None, prompt
    return offered.group(1).split(", ")[0]


class Transcript:
    """One game of ``play``: the answers given in turn (a text, or a function of the prompt and
    the text so far); the end of the answers ends the input."""

    def __init__(self, answers: Iterable[Answer]) -> None:
        self.answers = iter(answers)
        self.out = io.StringIO()
        self.prompts: list[str] = []

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.out.write(prompt)  # as a terminal shows it: the next line follows the prompt
        answer = next(self.answers, None)
        if answer is None:
            raise EOFError
        text = answer if isinstance(answer, str) else answer(prompt, self.out.getvalue())
        self.out.write(text + "\n")  # the answer, as a terminal echoes it
        return text

    @property
    def text(self) -> str:
        return self.out.getvalue()

    def lines(self, pattern: str) -> list[str]:
        return re.findall(pattern, self.text, re.M)


def run(rules: Rules, answers: Iterable[Answer], **options: Any) -> tuple[Transcript, int | None]:
    transcript = Transcript(answers)
    winner = play_match(rules, transcript.read, transcript.out, **options)
    return transcript, winner


def hints() -> Iterator[Answer]:
    """Ask for a hint, play it; for ever."""
    while True:
        yield "hint"
        yield lambda prompt, text: re.findall(r"> hint\n\S+ (.+?) \(", text)[-1]


class Scripted:
    """A bot that makes the first move of its script that is legal, else passes, else makes
    its first legal move (a code such as ``6H`` is a bid in the auction, a card after it)."""

    def __init__(self, *script: str) -> None:
        self.script = script

    def choose(self, state: BotState, rng: Random) -> int:
        assert isinstance(state, HandState)
        legal = state.legal_actions()
        for text in self.script:
            try:
                actions = state.rules.parse_actions(text, bidding=state.phase == 0, notation=None)
            except FiveHundredError:
                continue
            if len(actions) == 1 and actions[0] in legal:
                return actions[0]
        return state.rules.PASS if state.rules.PASS in legal else legal[0]


@pytest.fixture
def fixed_deal(monkeypatch: pytest.MonkeyPatch) -> Arrange:
    """Deal :data:`DEAL` in every hand, seat 3 dealing first, and seat the given bots in seats
    1, 2 and 3 (for one game), or passing ones (for any number of games)."""

    def arrange(variant: str = "australian", *bots: Scripted, dealer: int = 3) -> Rules:
        rules = load_rules(variant)
        state = build_hand(rules, dealer, DEAL, KITTY)
        monkeypatch.setattr(hand, "deal", lambda r, d, rng: (list(state.hands), state.kitty, 0))
        monkeypatch.setattr(game, "first_dealer", lambda r, rng: dealer)
        seated = iter(bots)
        monkeypatch.setattr(
            play, "make_bot", (lambda name: next(seated)) if bots else (lambda name: Scripted())
        )
        return rules

    return arrange


# -- who is who ------------------------------------------------------------------------------


def test_positions_are_seen_from_the_person_s_chair() -> None:
    """Play goes to the left: the next seat is on the left, the one before on the right; the
    seat halfway round is across (the other of two); the second on either side at five or six
    is far."""
    assert [position(2, 1, s) for s in range(2)] == ["across", "you"]
    assert [position(3, 2, s) for s in range(3)] == ["left", "right", "you"]
    assert [position(4, 1, s) for s in range(4)] == ["right", "you", "left", "across"]
    assert [position(5, 0, s) for s in range(5)] == [
        "you", "left", "far-left", "far-right", "right",
    ]  # fmt: skip
    assert [position(6, 3, s) for s in range(6)] == [
        "across", "far-right", "right", "you", "left", "far-left",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("variant", "seat", "table", "scores"),
    [
        (
            "australian",
            0,
            "you in seat 0, left opponent in seat 1, partner in seat 2, right opponent in seat 3",
            "you and partner 0, opponents 0",
        ),
        (
            "australian",
            1,
            "right opponent in seat 0, you in seat 1, left opponent in seat 2, partner in seat 3",
            "opponents 0, you and partner 0",
        ),
        (
            "three-handed",
            0,
            "you in seat 0, left in seat 1, right in seat 2",
            "you 0, left 0, right 0",
        ),
        ("two-handed", 1, "opponent in seat 0, you in seat 1", "opponent 0, you 0"),
        (
            "five-handed",
            0,
            "you in seat 0, left in seat 1, far left in seat 2, far right in seat 3, "
            "right in seat 4",
            "you 0, left 0, far left 0, far right 0, right 0",
        ),
        (
            "six-handed",
            0,
            "you in seat 0, left opponent in seat 1, far-left partner in seat 2, "
            "opponent across in seat 3, far-right partner in seat 4, right opponent in seat 5",
            "you and partners 0, opponents 0",
        ),
        (
            "six-handed-2v2v2",
            0,
            "you in seat 0, left opponent in seat 1, far-left opponent in seat 2, "
            "partner in seat 3, far-right opponent in seat 4, right opponent in seat 5",
            "you and partner 0, left opponent and far-right opponent 0, "
            "far-left opponent and right opponent 0",
        ),
    ],
)
def test_seats_and_sides_are_named_from_the_person_s_chair(
    variant: str, seat: int, table: str, scores: str
) -> None:
    """The game starts with who sits where; the scores name the sides by who is on them, with
    the target; no line names a seat by its number alone, the moves included."""
    rules = load_rules(variant)
    transcript, _ = run(rules, [], seed=4, seat=seat)
    text = transcript.text
    assert text.startswith(f"{rules.name}, playing to 500\nat the table: {table}\n")
    assert f"\nscores: {scores} · playing to 500\n" in text
    names = {m.group(1) for m in re.finditer(r"(?:, |: )(.+?) in seat \d", text.split("\n")[1])}
    labels = set(transcript.lines(r"^([^:\n·]+): [^:\n]+$"))
    assert labels <= names | {"at the table", "scores", "dealer", "your hand"}, labels
    assert not re.search(r"\bseat \d", text.split("\n", 2)[2])
    dealer = re.search(r"^hand 1 · dealer: (.+)$", text, re.M)
    assert dealer is not None and dealer.group(1) in names


# -- the hand ---------------------------------------------------------------------------------


def test_the_hand_is_held_trumps_first_and_the_kitty_s_cards_are_marked(
    fixed_deal: Arrange,
) -> None:
    """Before the contract the joker leads and the suits follow; once hearts are trumps the
    joker and both red jacks stand with the hearts, in their order; the cards taken from the
    kitty carry a *, and a card copied with its * is read."""
    rules = fixed_deal()
    transcript, _ = run(rules, ["6H", "discard 5♠* 9♣ 5♦", "quit"])
    hands = transcript.lines(r"^your hand: (.*)$")
    assert hands[0] == "JK  A♠ K♠  A♥ J♥ 10♥  7♣  J♦ 6♦ 5♦"
    assert hands[1] == "JK J♥ J♦ A♥ Q♥* 10♥  A♠ K♠ 5♠*  9♣* 7♣  6♦ 5♦ · * from the kitty"
    assert hands[2] == "JK J♥ J♦ A♥ Q♥* 10♥  A♠ K♠  7♣  6♦ · * from the kitty"
    assert "contract: 6♥ · contractor: you" in transcript.text
    # the moves offered in the order of the hand
    assert transcript.prompts[-1] == (
        "play, your turn (JK, J♥, J♦, A♥, Q♥, 10♥, A♠, K♠, 7♣, 6♦) > "
    )


def test_sorted_cards_puts_the_bowers_and_the_joker_with_the_trumps(rules: Rules) -> None:
    """The engine's order (the table's too): at spades the jacks of spades and clubs follow the
    joker at the head of the spades; at no trumps the joker leads and each jack is in its suit."""
    state = build_hand(rules, 3, DEAL, KITTY)
    state.apply_str("6S")
    for _ in range(3):
        state.apply_str("pass")
    view = view_of(state, 0)
    mine = mask_of(rules, "JK JH JD AS KS 5S 9C QH 7C 6D")
    codes = [rules.deck[c] for c in sorted_cards(view, mine)]
    assert codes == ["JK", "AS", "KS", "5S", "QH", "JH", "9C", "7C", "JD", "6D"]
    black_jacks = mask_of(rules, "JC JS 10S AC")
    assert [rules.deck[c] for c in sorted_cards(view, black_jacks)] == ["JS", "JC", "10S", "AC"]


def test_the_joker_s_suit_is_shown_once_named(fixed_deal: Arrange) -> None:
    """At no trumps the contractor names the joker's suit: the contract line says it in
    words, and the joker stands in that suit in the hand."""
    rules = fixed_deal()
    transcript, _ = run(rules, ["6NT", "discard 5♠ 9♣ 5♦", "nominate ♥", "quit"])
    before, after = transcript.text.split("> nominate ♥\n")
    assert "joker's suit" not in before
    assert "contract: 6NT · contractor: you · joker's suit: hearts" in after
    assert transcript.lines(r"^your hand: (.*)$")[-1].startswith("A♠ K♠  JK A♥ Q♥* J♥ 10♥  ")


# -- moves ------------------------------------------------------------------------------------


def test_a_forced_move_is_played_for_the_person_unless_asked_not_to() -> None:
    """The same game twice, the person answering the heuristic's hint: with autoplay each move
    that is the only legal one is played and said so, never asked; without it each is asked
    (a prompt offering one move); the games are otherwise the same."""
    rules = load_rules("australian")
    auto, won = run(rules, hints(), seed=12)
    asked, won_asked = run(rules, hints(), seed=12, autoplay=False)
    forced = auto.lines(r"^you: (\S+) \(the only legal move, played automatically\)$")
    assert forced and won == won_asked
    assert not [p for p in auto.prompts if re.search(r"\([^,]*\) > $", p)]
    single = [re.search(r"\(([^,]*)\) > $", p) for p in asked.prompts]
    assert [m.group(1) for m in single if m][::2] == forced  # asked twice: hint, then the move
    assert "played automatically" not in asked.text
    assert auto.lines(r"^final scores: .*$") == asked.lines(r"^final scores: .*$")


def test_a_typo_gets_did_you_mean_among_the_legal_moves(fixed_deal: Arrange) -> None:
    """A move the grammar cannot read, or a card not held, is offered the legal moves most like
    it; a move the rules forbid for a reason is explained and offered nothing; nonsense too."""
    bots = (Scripted("5C", "6H", "discard 4D", "discard 7D", "discard 5S"),
            Scripted("pass", "6S"), Scripted("pass", "AC", "JS"))  # fmt: skip
    rules = fixed_deal("australian", *bots)
    answers = ["pas", "pass", "6♦", "Q♠", "XX", "hlep", "quit"]
    transcript, _ = run(rules, answers)
    text = transcript.text
    assert "'pas' is not a card, a bid of australian or an action\ndid you mean pass?\n" in text
    # trick 1: left opponent leads 5♣ and the person's one club is played for him
    assert "you: 7♣ (the only legal move, played automatically)\n" in text
    assert "trick 1 · winner: right opponent · tricks: you and partner 0, opponents 1\n" in text
    # trick 2: J♠ led; a diamond is refused by the rule alone
    refused = re.search(r"> 6♦\n(.*)\n(.*)\n", text)
    assert refused is not None
    assert refused.group(1) == "you may not play 6♦: must follow suit (spades) [play.follow-suit]"
    assert not refused.group(2).startswith("did you mean")
    held = re.search(r"> Q♠\n(.*)\n(.*)\n", text)
    assert held is not None
    assert held.group(1) == ("you may not play Q♠: you do not hold Q♠ [play.follow-suit]")
    assert held.group(2) == "did you mean A♠, K♠?"
    nonsense = re.search(r"> XX\n(.*)\n(.*)\n", text)
    assert nonsense is not None and not nonsense.group(2).startswith("did you mean")
    assert (
        "> hlep\n'hlep' is not a card, a bid of australian or an action\ndid you mean help?" in text
    )


def test_the_person_plays_the_partner_s_hand_in_a_misere_with_both_hands(
    fixed_deal: Arrange,
) -> None:
    """In misère with both hands the person plays the partner's hand too: it is shown, and the
    prompt says whose cards are played."""
    bots = (Scripted("7S"), Scripted(), Scripted())
    rules = fixed_deal("both-hands-misere", *bots, dealer=0)
    answers: list[Answer] = ["MIS", first_legal, first_legal, first_legal, "quit"]
    transcript, _ = run(rules, answers)
    assert "contract: misère · contractor: you" in transcript.text  # the name, not MIS
    assert transcript.lines(r"^partner shows: ") != []
    assert any(p.startswith("play, you play for partner (") for p in transcript.prompts)


# -- the ends of hands and of the game ---------------------------------------------------------


def test_a_thrown_in_hand_says_so_in_words(fixed_deal: Arrange) -> None:
    rules = fixed_deal()
    transcript, _ = run(rules, ["pass", "quit"])
    text = transcript.text
    assert (
        "hand 1 over: everybody passed; the hand is thrown in\n"
        "scores: you and partner 0, opponents 0 · playing to 500\n\n"
        "hand 2 · dealer: you\n"
    ) in text
    assert "[0, 0]" not in text and "points" not in text


def test_a_hand_played_without_a_contract_is_summed_up(fixed_deal: Arrange) -> None:
    """All pass at no trumps (a house rule): the hand is played without a contractor and ends
    with its tricks and points."""
    rules = fixed_deal("all-pass-no-trumps")
    transcript, _ = run(rules, ["pass", *[first_legal] * 10, "quit"])
    text = transcript.text
    assert "everybody passed: the hand is played at no trumps\n" in text
    summary = re.search(r"^hand 1 over: everybody passed; played at no trumps\n(.*)\n", text, re.M)
    assert summary is not None
    assert re.fullmatch(
        r"tricks: you and partner (\d+), opponents (\d+) · points: you and partner [+-]?\d+, "
        r"opponents [+-]?\d+",
        summary.group(1),
    )


def test_a_redeal_asked_for_says_who_asked(
    fixed_deal: Arrange, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ace, no face: the person's hand of low cards may be thrown in; the same dealer deals
    again."""
    low = ["4H 5H 6H 7H 8H 9H 10H 4D 7D 5C", "JK JH JD AH KH AS KS 7C 6D 5D", *DEAL[2:]]
    monkeypatch.setattr(sys.modules[__name__], "DEAL", low)
    rules = fixed_deal("no-ace-no-face")
    transcript, _ = run(rules, ["redeal", "quit"])
    assert (
        "hand 1 over · you: asked for a redeal (no ace, no face); the same dealer deals again\n"
        "scores: you and partner 0, opponents 0 · playing to 500\n\n"
        "hand 2 · dealer: right opponent\n"
    ) in transcript.text


def _by_side(text: str) -> dict[str, int]:
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"([a-z][a-z ]*?) ([+-]?\d+)", text)}


def test_every_hand_and_the_game_end_with_a_summary() -> None:
    """A whole game: each hand's summary gives the contract and whether it was made, tricks and
    points by side that add up, and scores that are the last ones plus the points; the game
    ends naming the winner, the final scores and the hands played."""
    rules = load_rules("australian")
    transcript, winner = run(rules, hints(), seed=12)
    text = transcript.text
    ends = list(
        re.finditer(
            r"^hand (\d+) over(?: · (.+?): (\S+|open misère) (made|failed)|: (.*))\n"
            r"(?:tricks: (.*) · points: (.*)\n)?scores: (.*) · playing to 500$",
            text,
            re.M,
        )
    )
    assert len(ends) == len(transcript.lines(r"^hand \d+ · dealer: ")) >= 2
    scores = {"you and partner": 0, "opponents": 0}
    for number, end in enumerate(ends, 1):
        assert int(end.group(1)) == number
        if end.group(3):
            assert end.group(2) in {"you", "partner", "left opponent", "right opponent"}
            tricks, points = _by_side(end.group(6)), _by_side(end.group(7))
            assert sum(tricks.values()) <= 10 and set(points) == set(scores)
            scores = {side: scores[side] + points[side] for side in scores}
        else:
            assert end.group(5) == "everybody passed; the hand is thrown in"
        assert _by_side(end.group(8)) == scores
    assert winner in (0, 1)
    names = {0: "you and partner", 1: "opponents"}
    assert text.endswith(
        f"\ngame over · winner: {names[winner]} · hands played: {len(ends)}\n"
        f"final scores: you and partner {scores['you and partner']}, "
        f"opponents {scores['opponents']}\n"
    )
    assert scores[names[winner]] >= 500
    won = transcript.lines(r"^trick (\d+) · winner: (.+?) · tricks: (.*)$")
    assert won and all(w[1] in {"you", "partner", "left opponent", "right opponent"} for w in won)


def test_a_widow_is_called_the_widow(fixed_deal: Arrange, tmp_path: Path) -> None:
    """Where the variant calls the kitty the widow (the American game, here with the choice to
    play without it), play names the phase as the book does, in English and in Dutch."""
    path = tmp_path / "widow-sans.yaml"
    path.write_text(
        "id: widow-sans\nextends: american\nname: American, sans widow\n"
        "summary: The American game played sans widow.\nsources: [T]\n"
        "auction:\n  sans_kitty: {bonus: 50}\n"
    )
    rules = fixed_deal(str(path))
    dutch = load_translations("nl")
    for translations, word in ((None, "widow"), (dutch, dutch.pgettext("phase", "widow"))):
        transcript, _ = run(rules, ["7H", "quit"], translations=translations)
        assert transcript.prompts[-1].startswith(f"{word}, ")
        assert "(take, sans)" in transcript.prompts[-1]
    assert dutch.pgettext("phase", "widow") != dutch.pgettext("phase", "kitty")


# -- other languages ------------------------------------------------------------------------


def test_the_game_in_dutch(fixed_deal: Arrange) -> None:
    """Through the Dutch catalogue: seat names, the hand in Dutch notation with its kitty mark,
    the thrown-in hand, the did-you-mean."""
    dutch = load_translations("nl")
    notation = notation_of(dutch)
    rules = fixed_deal()
    transcript, _ = run(rules, ["6H", "discard 5♠ 9♣ 5♦", "7X", "quit"], translations=dutch)
    text = transcript.text
    partner = dutch.pgettext("seat", "partner")
    you = dutch.pgettext("seat", "you")
    assert partner != "partner" or you != "you"
    table = render(play.SEAT_NUMBER, {"who": partner, "seat": 2}, dutch)
    assert table in text.split("\n")[1]
    english = "JK J♥ J♦ A♥ Q♥* 10♥  A♠ K♠ 5♠*  9♣* 7♣  6♦ 5♦"
    dutch_cards = " ".join(
        notation.card(ENGLISH.read(c.rstrip("*"))) + "*" * c.endswith("*") if c else c
        for c in english.split(" ")
    )
    assert dutch_cards.startswith("JK B♥ B♦ A♥ V♥* 10♥  A♠ H♠ 5♠*")
    assert render(play.YOUR_HAND_KITTY, {"cards": dutch_cards}, dutch) in text
    assert render(play.DID_YOU_MEAN, {"moves": "7♣"}, dutch) in text
    # a thrown-in hand, in Dutch
    passed, _ = run(rules, ["pass", "quit"], translations=dutch)
    thrown = render(play.HAND_THROWN_IN, {"number": 1}, dutch)
    assert thrown != play.HAND_THROWN_IN % {"number": 1} and f"\n{thrown}\n" in passed.text


def test_the_game_in_arabic_isolates_cards_and_signed_numbers() -> None:
    """Right to left: every card of the hand stands between LRI and PDI, a signed number of
    points too; the names come from the Arabic catalogue."""
    arabic = load_translations("ar")
    rules = load_rules("australian")
    transcript, _ = run(rules, hints(), seed=12, translations=arabic)
    text = transcript.text
    hand_lines = [line for line in text.splitlines() if "♥" in line and LRI in line]
    assert hand_lines
    assert f"{LRI}+" in text or f"{LRI}-" in text  # points in a hand's summary
    assert arabic.pgettext("side", "you and partner") in text
    assert "you and partner" not in text and "[0, 0]" not in text
    assert text.count(LRI) == text.count(PDI)


def test_arabic_isolates_the_words_typed_and_names_you_once(fixed_deal: Arrange) -> None:
    """Issue 21 §4 in Arabic: a word the person typed, quoted in a message ('take', 'pas'),
    stands between LRI and PDI as the cards do; a card not held is refused naming the person
    once, as the sentence's subject ("you do not hold Q♠"), not "seat 0 (you)" again."""
    from fivehundred.runtime.engine.seatnames import OWN_SEAT_REASONS, SEAT_WHO

    arabic = load_translations("ar")
    notation = notation_of(arabic)
    bots = (Scripted("5C", "6H", "discard 4D", "discard 7D", "discard 5S"),
            Scripted("pass", "6S"), Scripted("pass", "AC", "JS"))  # fmt: skip
    rules = fixed_deal("australian", *bots)
    transcript, _ = run(rules, ["take", "pas", "pass", "6♦", "Q♠", "quit"], translations=arabic)
    text = transcript.text
    for word in ("'take'", "'pas'"):
        assert f"{LRI}{word}{PDI}" in text, word
        assert text.count(word) == text.count(f"{LRI}{word}{PDI}"), word
    queen = notation.isolate(notation.card("QS"))
    yours = OWN_SEAT_REASONS["seat %(seat)s does not hold %(card)s"][0]
    assert arabic.gettext(yours) != yours  # translated
    assert render(yours, {"card": queen}, arabic) in text
    you = arabic.pgettext("seat", "you")
    assert render(SEAT_WHO, {"seat": 0, "who": you}, arabic) not in text
    assert text.count(LRI) == text.count(PDI)


# -- the command line -----------------------------------------------------------------------


def test_the_command_line_plays_forced_moves_unless_no_autoplay(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20's example: ``printf 'pass\\n6X\\nhelp\\n' | fivehundred play australian --seed
    3``; with ``--no-autoplay`` the forced 6♥ is asked instead."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\n6X\nhelp\n"))
    assert main(["play", "australian", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "you: 6♥ (the only legal move, played automatically)" in out
    assert re.search(r"is not a card, a bid of australian or an action\ndid you mean 6♠, 6♦\?", out)
    assert "  hint  " in out  # the help
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\n6X\n"))
    assert main(["play", "australian", "--seed", "3", "--no-autoplay"]) == 0
    out = capsys.readouterr().out
    assert "played automatically" not in out
    assert "play, your turn (6♥) > '6X' is not a card" in out and "did you mean 6♥?" in out


# -- kept from before -------------------------------------------------------------------------


def test_person_plays_legal_actions_and_is_told_about_illegal_ones() -> None:
    rules = load_rules("australian")
    transcript, _ = run(rules, ["XX", *[first_legal] * 40, "quit"], seed=5)
    text = transcript.text
    assert "'XX' is not a card" in text
    assert len(transcript.prompts) > 2
    assert "Traceback" not in text
    # The person never sees another seat's unplayed cards: only "your hand" lines show a hand.
    assert "your hand:" in text


def test_hint_suggests_a_legal_move_with_its_reason() -> None:
    rules = load_rules("australian")
    transcript, _ = run(rules, ["hint", "quit"], seed=8)
    line = re.search(r"^hint: (.*) \((.+)\)$", transcript.text, re.M)
    assert line is not None, transcript.text
    legal = re.search(r"\((.*)\) > $", transcript.prompts[0])
    assert legal is not None
    assert line.group(1) in legal.group(1).split(", ")
    assert len(line.group(2)) > 5


def test_hint_reasons_are_translated() -> None:
    dutch = load_translations("nl")
    transcript, _ = run(load_rules("australian"), ["hint", "quit"], seed=8, translations=dutch)
    reason = re.search(r"^\S+ .* \((.+)\)$", transcript.text.split("> hint\n")[1], re.M)
    assert reason is not None and dutch.gettext(reason.group(1)) == reason.group(1)
    english, _ = run(load_rules("australian"), ["hint", "quit"], seed=8)
    assert reason.group(1) not in english.text


def test_help_lists_the_commands() -> None:
    transcript, _ = run(load_rules("australian"), ["help", "quit"], seed=8)
    for command in ("hint", "help", "quit", "discard"):
        assert re.search(rf"^\s+{command}\b", transcript.text, re.M), command


def test_end_of_input_ends_the_game_quietly() -> None:
    transcript, winner = run(load_rules("australian"), [], seed=8)
    assert winner is None
    assert "Traceback" not in transcript.text and "game over" not in transcript.text


def test_a_reasons_own_seat_is_named_as_the_subject_for_every_seat() -> None:
    """The reason of an illegal move names its own seat as the sentence's subject does: the
    reader's "you do not hold", another seat whose hand he plays by its name alone; every
    engine reason so rewritten is one the engine gives (its msgid in the catalogue's template),
    and another seat in a reason keeps its number with its name."""
    from fivehundred.runtime.engine.errors import IllegalActionError
    from fivehundred.runtime.engine.messages import Explanation
    from fivehundred.runtime.engine.seatnames import OWN_SEAT_REASONS, illegal_sentence

    rules = load_rules("australian")
    why = Explanation(
        "play.follow-suit", "seat %(seat)s does not hold %(card)s", {"seat": 2, "card": "QS"}
    )
    exc = IllegalActionError(2, "QS", why.clause, why.text(), why, "card")
    assert illegal_sentence(rules, 0, exc) == "partner may not play Q♠: partner does not hold Q♠"
    assert illegal_sentence(rules, 2, exc) == "you may not play Q♠: you do not hold Q♠"
    dutch = load_translations("nl")
    assert illegal_sentence(rules, 2, exc, dutch) == "jij mag V♠ niet spelen: jij hebt V♠ niet"
    # a reason naming another seat than the subject keeps "seat 1 (left opponent)"
    other = Explanation(
        "seats.partner", "seat %(seat)s is already on the contractor's side", {"seat": 1}
    )
    exc = IllegalActionError(0, "partner 1", other.clause, other.text(), other, "partner")
    assert illegal_sentence(rules, 0, exc).endswith(
        ": seat 1 (left opponent) is already on the contractor's side"
    )
    pot = (Path(__file__).parents[1] / "specs" / "locales" / "messages.pot").read_text(
        encoding="utf-8"
    )
    for template in OWN_SEAT_REASONS:
        assert f'msgid "{template}"' in pot.replace('"\n"', ""), template
