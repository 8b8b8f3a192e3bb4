"""``fivehundred play``: a person against bots; illegal input is explained and asked again."""

from __future__ import annotations

import io
import re

from fivehundred.runtime.cli.play import play_match
from fivehundred.runtime.loading import load_rules


def test_person_plays_legal_actions_and_is_told_about_illegal_ones():
    rules = load_rules("australian")
    out = io.StringIO()
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) == 1:
            return "XX"  # malformed: explained, then asked again
        if len(prompts) > 40:
            return "quit"
        if "discard" in prompt:
            hand = re.findall(r"your hand: (.*)", out.getvalue())[-1].split()
            return "discard " + " ".join(hand[: rules.discard_count])
        legal = re.search(r"\((.*)\)", prompt)
        assert legal is not None
        return legal.group(1).split(", ")[-1]

    play_match(rules, read, out, seed=5)
    text = out.getvalue()
    assert "'XX' is not a card" in text
    assert len(prompts) > 2
    assert "Traceback" not in text
    # The person never sees another seat's unplayed cards: only "your hand" lines show a hand.
    assert "your hand:" in text


def test_hint_suggests_a_legal_move_with_its_reason():
    rules = load_rules("australian")
    out = io.StringIO()
    prompts: list[str] = []
    answers = ["hint", "quit"]

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return answers.pop(0)

    play_match(rules, read, out, seed=8)
    line = re.search(r"^hint: (.*) \((.+)\)$", out.getvalue(), re.M)
    assert line is not None, out.getvalue()
    legal = re.search(r"\((.*)\) > $", prompts[0])
    assert legal is not None
    assert line.group(1) in legal.group(1).split(", ")
    assert len(line.group(2)) > 5


def test_help_lists_the_commands():
    out = io.StringIO()
    answers = ["help", "quit"]
    play_match(load_rules("australian"), lambda prompt: answers.pop(0), out, seed=8)
    for command in ("hint", "help", "quit", "discard"):
        assert re.search(rf"^\s+{command}\b", out.getvalue(), re.M), command


def test_end_of_input_ends_the_game_quietly():
    out = io.StringIO()

    def read(prompt: str) -> str:
        raise EOFError

    assert play_match(load_rules("australian"), read, out, seed=8) is None
    assert "Traceback" not in out.getvalue()


def test_a_whole_game_announces_trick_winners_and_running_scores():
    """The person asks for a hint and plays it, every time: each trick's winner is announced
    with the sides' tricks, each hand ends with its points and the running scores, and the game
    ends with a winner."""
    rules = load_rules("australian")
    out = io.StringIO()
    asked = [False]

    def read(prompt: str) -> str:
        if not asked[0]:
            asked[0] = True
            return "hint"
        asked[0] = False
        return re.findall(r"^hint: (.*) \(", out.getvalue(), re.M)[-1]

    winner = play_match(rules, read, out, seed=12)
    text = out.getvalue()
    assert winner in (0, 1)
    assert re.search(r"seat \d wins trick \d+ · tricks side 0 \d+, side 1 \d+", text)
    assert re.search(r"hand over: \S+ by seat \d (made|failed); points \[-?\d+, -?\d+\]", text)
    assert re.search(r"scores \[-?\d+, -?\d+\]", text)
    assert f"side {winner} wins" in text
