"""``fivehundred play``: a person against bots; illegal input is explained and asked again."""

from __future__ import annotations

import io
import re

from fivehundred.runtime.game import load_rules
from fivehundred.runtime.play import play_match


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
        return legal.group(1).split()[-1]

    play_match(rules, read, out, seed=5)
    text = out.getvalue()
    assert "'XX' is not a card" in text
    assert len(prompts) > 2
    assert "Traceback" not in text
    # The person never sees another seat's unplayed cards: only "your hand" lines show a hand.
    assert "your hand:" in text
