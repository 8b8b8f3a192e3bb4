"""Game records and the ``replay --json`` view (INTERCHANGE.md "Game record", "fivehundred replay").

The hand-written record is deal S of ``conftest.py``: seat 1 bids 6H, discards the kitty back and
takes eight tricks (trumps JK JH JD AH KH QH 10H 9H); seat 0 takes the last two with KS and AS.
By hand: tricks_by_side [2, 8]; 6H made scores 100 (no overtricks), the opponents 10 a trick.
"""

from __future__ import annotations

import copy
import json

import pytest
from conftest import AUSTRALIAN_SPEC, DEAL_C, DEAL_D, DEAL_S, apply_all, build_hand

from fivehundred.runtime.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    RecordError,
    SpecError,
)
from fivehundred.runtime.engine.records import load_records, record_of, replay, replay_view
from fivehundred.runtime.loading import load_rules

TRICKS_S = [  # (leader, cards in playing order, winner)
    (1, "JK 5C 4D 4H", 1),
    (1, "JH 6C 5D 5H", 1),
    (1, "JD 7C 6D 7S", 1),
    (1, "AH 8C 7D 8S", 1),
    (1, "KH 9C 8D 9S", 1),
    (1, "QH 10C 9D 10S", 1),
    (1, "10H JC 10D JS", 1),
    (1, "9H QC QD QS", 1),
    (1, "5S KC KD KS", 0),
    (0, "AS 6S AC AD", 0),
]
AUCTION_S = ["6H", "pass", "pass", "pass"]
ACTIONS_S = (
    AUCTION_S + ["discard 8H 7H 6H"] + [c for _, cards, _ in TRICKS_S for c in cards.split()]
)


def record(actions=None, scores=None, **changes):
    hands, kitty = DEAL_S
    rec = {
        "variant": "australian",
        "dealer": 0,
        "deal": {"hands": [h.split() for h in hands], "kitty": kitty.split()},
        "actions": list(ACTIONS_S if actions is None else actions),
    }
    if scores is not None:
        rec["scores"] = scores
    rec.update(changes)
    return rec


def expected_tricks():
    out = []
    for leader, cards, winner in TRICKS_S:
        seats = [(leader + k) % 4 for k in range(4)]
        out.append(
            {
                "leader": leader,
                "cards": [
                    {"seat": s, "card": c} for s, c in zip(seats, cards.split(), strict=True)
                ],
                "winner": winner,
            }
        )
    return out


EXPECTED_AUCTION = [
    {"seat": 1, "call": "6H", "inkle": False},
    {"seat": 2, "call": "pass", "inkle": False},
    {"seat": 3, "call": "pass", "inkle": False},
    {"seat": 0, "call": "pass", "inkle": False},
]


# -- complete records ----------------------------------------------------------------------------


def test_apply_str_reads_cards_in_play(rules):
    """INTERCHANGE.md: actions are in turn order and the engine knows whose turn it is, so in the
    play phase ``8D`` is the card (the record example plays cards after the bid ``7H``). A
    regression test: apply_str and replay used to read 6..10 card codes as bids in every phase."""
    hands, kitty = DEAL_S
    state = build_hand(rules, 0, list(hands), kitty)
    apply_all(state, [*AUCTION_S, "discard 8H 7H 6H", "JK", "5C", "4D", "4H", "JH"])
    assert state.apply_str("6C") == rules.card("6C")
    assert state.apply_str("5D") == rules.card("5D")


def test_replay_hand_written_record():
    """A complete record replays to the documented keys with the values worked out by hand."""
    view = replay_view(replay(record()))
    assert view == {
        "variant": "australian",
        "auction": EXPECTED_AUCTION,
        "contract": {"bid": "6H", "seat": 1, "side": 1},
        "tricks": expected_tricks(),
        "hand": {"complete": True, "made": True, "tricks_by_side": [2, 8], "points": [20, 100]},
        "scores": [20, 100],
        "winner": None,
        "game_over": False,
    }
    assert "next" not in view


def test_replay_winner_must_bid():
    """From 480-400 the same hand leaves 500-500: side 1 wins on its own contract; side 0's
    trick points alone do not win (G; end.must-bid-to-win)."""
    view = replay_view(replay(record(scores=[480, 400])))
    assert view["scores"] == [500, 500]
    assert view["winner"] == 1


def _play_s(rules):
    hands, kitty = DEAL_S
    state = build_hand(rules, 0, list(hands), kitty)
    played = []
    for text in ACTIONS_S:
        for action in rules.parse_actions(text, bidding=state.phase_name == "auction"):
            state.apply(action)  # a discard: one action per card
            played.append(action)
    return state, played


def test_record_of(rules):
    """record_of writes the INTERCHANGE.md record: format, variant, dealer, deal (deck order),
    scores and actions."""
    state, played = _play_s(rules)
    rec = record_of(state, played)
    hands, kitty = DEAL_S
    order = rules.deck.index
    assert rec == {
        "format": 1,
        "variant": "australian",
        "dealer": 0,
        "deal": {
            "hands": [sorted(h.split(), key=order) for h in hands],
            "kitty": sorted(kitty.split(), key=order),
        },
        "scores": [0, 0],
        "actions": [*AUCTION_S, "discard 6H 7H 8H", *ACTIONS_S[len(AUCTION_S) + 1 :]],
    }


def test_record_of_round_trip(rules):
    """What record_of writes, replay reads: the same contract, tricks and points."""
    state, played = _play_s(rules)
    again = replay(json.loads(json.dumps(record_of(state, played))))
    assert again.result == state.result
    assert again.tricks == state.tricks


def test_replay_misere_lost_early():
    """Deal D, seat 1's misère (partner 3 sits out): seat 0 wins AC 5C JK with the forced joker,
    then seat 1's KD wins 4D KD 8D and the hand stops (play.misere-ends): -250, nothing to the
    opponents (score.misere)."""
    hands, kitty = DEAL_D
    rec = record(
        [
            "7S",
            "7NT",
            "pass",
            "pass",
            "MIS",
            "pass",
            "discard JS JC QD",
            "AC",
            "5C",
            "JK",
            "4D",
            "KD",
            "8D",
        ],
        deal={"hands": [h.split() for h in hands], "kitty": kitty.split()},
    )
    view = replay_view(replay(rec))
    assert view["contract"] == {"bid": "MIS", "seat": 1, "side": 1}
    assert view["tricks"] == [
        {"leader": 1, "cards": [{"seat": 1, "card": "AC"}, {"seat": 2, "card": "5C"},
                                {"seat": 0, "card": "JK"}], "winner": 0},
        {"leader": 0, "cards": [{"seat": 0, "card": "4D"}, {"seat": 1, "card": "KD"},
                                {"seat": 2, "card": "8D"}], "winner": 1},
    ]  # fmt: skip
    assert view["hand"] == {
        "complete": True,
        "made": False,
        "tricks_by_side": [1, 1],
        "points": [0, -250],
    }
    assert view["scores"] == [0, -250] and view["winner"] is None
    assert "next" not in view
    with pytest.raises(IllegalActionError) as info:
        replay({**rec, "actions": rec["actions"] + ["9D"]})
    assert (info.value.index, info.value.clause) == (13, "end.continue")


def test_replay_joker_lead_names_its_suit():
    """Deal C, 6NT by seat 1: JK:D is led and recorded as such; seat 2 follows diamonds."""
    hands, kitty = DEAL_C
    rec = record(
        ["6NT", "pass", "pass", "pass", "discard QC QD QH", "JK:D", "4D", "6D", "9D", "AS"],
        deal={"hands": [h.split() for h in hands], "kitty": kitty.split()},
    )
    view = replay_view(replay(rec))
    assert view["tricks"] == [
        {"leader": 1, "cards": [{"seat": 1, "card": "JK:D"}, {"seat": 2, "card": "4D"},
                                {"seat": 3, "card": "6D"}, {"seat": 0, "card": "9D"}], "winner": 1},
    ]  # fmt: skip
    assert view["next"] == {"seat": 2, "phase": "play", "legal": ["5S", "6S", "7S"]}


# -- records cut half way ------------------------------------------------------------------------


def test_cut_mid_trick_shows_next():
    view = replay_view(replay(record([*AUCTION_S, "discard 8H 7H 6H", "JK", "5C", "4D"])))
    assert view["auction"] == EXPECTED_AUCTION
    assert view["contract"] == {"bid": "6H", "seat": 1, "side": 1}
    assert view["tricks"] == []
    assert view["hand"] == {
        "complete": False,
        "made": None,
        "tricks_by_side": [0, 0],
        "points": None,
    }
    assert view["scores"] == [0, 0] and view["winner"] is None
    # Seat 0 must follow the joker (a trump) with a heart.
    assert view["next"] == {"seat": 0, "phase": "play", "legal": ["4H", "5H"]}


def test_cut_after_a_trick_shows_next():
    view = replay_view(replay(record([*AUCTION_S, "discard 8H 7H 6H", "JK", "5C", "4D", "4H"])))
    assert view["tricks"] == expected_tricks()[:1]
    assert view["hand"]["tricks_by_side"] == [0, 1]
    assert view["next"]["seat"] == 1 and view["next"]["phase"] == "play"
    assert view["next"]["legal"] == [
        "5S",
        "6S",
        "JD",
        "9H",
        "10H",
        "JH",
        "QH",
        "KH",
        "AH",
    ]  # deck order


def test_cut_in_auction_shows_next():
    view = replay_view(replay(record(["6H", "pass"], scores=[120, -40])))
    assert view["contract"] is None and view["tricks"] == []
    assert view["auction"] == EXPECTED_AUCTION[:2]
    assert view["scores"] == [120, -40]
    ladder = "6NT 7S 7C 7D 7H 7NT 8S 8C 8D 8H 8NT 9S 9C 9D 9H 9NT 10S 10C 10D OMIS BMIS 10H 10NT"
    assert view["next"] == {"seat": 3, "phase": "auction", "legal": ["pass", *ladder.split()]}


def test_cut_at_discard_shows_next():
    view = replay_view(replay(record(AUCTION_S)))
    nxt = view["next"]
    assert nxt["seat"] == 1 and nxt["phase"] == "discard"
    assert len(nxt["legal"]) == 13  # one card per action: ten cards and the kitty
    assert all(a.startswith("discard ") and len(a.split()) == 2 for a in nxt["legal"])


def test_thrown_in_record():
    view = replay_view(replay(record(["pass"] * 4)))
    assert view["contract"] is None
    assert view["hand"] == {
        "complete": True,
        "made": None,
        "tricks_by_side": [0, 0],
        "points": [0, 0],
    }
    assert view["scores"] == [0, 0] and view["winner"] is None
    assert "next" not in view


def test_variant_as_a_path():
    """INTERCHANGE.md: ``variant`` is a built-in id, or a path to a spec file where the caller
    allows rule files (``load``)."""
    state = replay(record(["6H", "pass"], variant=str(AUSTRALIAN_SPEC)), load=load_rules)
    assert state.rules.variant == "australian"
    assert state.to_move == 3


# -- bad records ---------------------------------------------------------------------------------


def test_bad_json():
    with pytest.raises(RecordError, match="bad JSON"):
        load_records('{"variant": "australian",', "hand.json")
    good = json.dumps(record(["pass"] * 4))
    with pytest.raises(RecordError, match=r"hands\.jsonl:2:"):
        load_records(good + "\n{oops\n", "hands.jsonl")
    assert load_records(good + "\n\n" + good + "\n", "hands.jsonl") == [record(["pass"] * 4)] * 2


def _deal_changed(change):
    rec = record(["pass"])
    change(rec["deal"])
    return rec


@pytest.mark.parametrize(
    ("name", "change", "match"),
    [
        ("unknown card", lambda d: d["hands"][0].__setitem__(0, "ZZ"), "ZZ"),
        ("card not in the deck", lambda d: d["hands"][0].__setitem__(0, "4S"), "4S"),
        ("card dealt twice", lambda d: d["kitty"].__setitem__(0, "7S"), "7S"),
        ("hand too short", lambda d: d["hands"][2].pop(), "hand of seat 2"),
        ("hand too long", lambda d: d["hands"][2].append(d["kitty"].pop()), "hand of seat 2"),
        ("kitty too small", lambda d: d["kitty"].pop(), "kitty"),
        ("three hands", lambda d: d["hands"].pop(), "4 hands"),
        ("no deal", lambda d: d.clear(), "hands"),
    ],
)
def test_bad_deal(name, change, match):
    with pytest.raises(RecordError, match=match):
        replay(_deal_changed(change))


def test_bad_fields():
    with pytest.raises(RecordError):
        replay(record(["pass"], dealer=4))
    with pytest.raises(RecordError):
        replay(record(["pass"], scores=[0, 0, 0]))
    rec = record()
    rec["actions"] = "pass"
    with pytest.raises(RecordError):
        replay(rec)
    with pytest.raises(RecordError):
        replay([record(["pass"])])
    rec = record(["pass"])
    del rec["variant"]
    with pytest.raises(RecordError):
        replay(rec)


def test_unknown_variant():
    with pytest.raises(RecordError, match="'nosuch' is not a built-in variant"):
        replay(record(["pass"], variant="nosuch"))
    with pytest.raises(SpecError, match="nosuch"):
        replay(record(["pass"], variant="nosuch"), load=load_rules)


def test_a_record_opens_no_rule_file_unless_allowed():
    """The engine alone plays only built-in variants: a record's path is not opened."""
    with pytest.raises(RecordError, match="not a built-in variant"):
        replay(record(["6H", "pass"], variant=str(AUSTRALIAN_SPEC)))


def test_action_after_the_hand_ended():
    with pytest.raises(IllegalActionError) as info:
        replay(record(["pass"] * 4 + ["6S"]))
    assert info.value.index == 4
    assert info.value.clause == "end.continue"


def test_illegal_action_names_index_and_clause():
    with pytest.raises(IllegalActionError) as info:
        replay(record(["6H", "pass", "6S"]))
    assert info.value.index == 2
    assert info.value.seat == 3
    assert info.value.clause == "auction.higher"
    with pytest.raises(IllegalActionError) as info:
        replay(record([*AUCTION_S, "discard 8H 7H 6H", "JK", "5C", "4D", "AS"]))
    assert info.value.index == 8
    assert info.value.seat == 0
    assert info.value.clause == "play.follow-suit"
    with pytest.raises(IllegalActionError) as info:
        replay(record([*AUCTION_S, "discard 8H 7H"]))
    assert (info.value.index, info.value.clause) == (4, "kitty.take")


def test_malformed_action_names_index():
    with pytest.raises(InvalidActionError) as info:
        replay(record(["6H", "bogus"]))
    assert info.value.index == 1
    with pytest.raises(InvalidActionError) as info:
        replay(record(["6H", "pass", 7]))
    assert info.value.index == 2


def test_replay_does_not_touch_the_record():
    rec = record([*AUCTION_S, "discard 8H 7H 6H", "JK"])
    before = copy.deepcopy(rec)
    replay(rec)
    assert rec == before


# -- a whole hand as source T's app records it -----------------------------------------------------

#: A deal of australian in the shape of a hand played on T's online app: seat 1 passes, seat 2
#: bids 6C, seats 3 and 0 pass, and the auction is over (auction.end: "until three players have
#: passed after a non-pass bid", T; G: "until all but one player has passed"). No fifth call.
T_HAND_DEAL = {
    "hands": [
        ["8S", "7S", "6S", "5S", "JH", "10H", "9H", "8H", "7H", "6H"],
        ["AD", "JD", "10D", "9D", "8D", "7D", "6D", "5D", "4D", "5H"],
        ["JK", "JC", "JS", "AC", "KC", "QC", "10C", "9C", "KD", "QD"],
        ["7C", "8C", "AS", "KS", "QS", "10S", "9S", "AH", "KH", "QH"],
    ],
    "kitty": ["5C", "6C", "4H"],
}
T_HAND_TRICKS = [  # (leader, cards in playing order, winner); clubs are trumps
    (2, "JK 7C 5S 4D", 2),  # seat 3 must follow trumps with a club
    (2, "JC 8C 6S 5D", 2),
    (2, "JS 9S 7S 6D", 2),  # the left bower is a trump; seat 3 is now void in trumps
    (2, "AC 10S 8S 7D", 2),
    (2, "KC QS 6H 8D", 2),
    (2, "QC KS 7H 9D", 2),
    (2, "10C AS 8H 10D", 2),
    (2, "9C QH 9H JD", 2),
    (2, "KD KH 10H AD", 1),  # seat 1 follows diamonds with the ace
    (1, "5H QD AH JH", 3),  # seat 2, void in hearts, throws QD; seat 3's AH wins
]
T_HAND_ACTIONS = ["pass", "6C", "pass", "pass", "discard 4H 5C 6C"] + [
    c for _, cards, _ in T_HAND_TRICKS for c in cards.split()
]


def test_auction_end_whole_hand_as_t_records_it():
    """auction.end (T, G): a whole Australian hand from T's app replays: pass, 6C, pass, pass,
    the discard, ten tricks. By hand: side 0 (seats 0, 2) takes 8 tricks, 6C made scores 60 (no
    slam, no overtricks), the opponents 10 a trick: 20."""
    rec = record(T_HAND_ACTIONS, deal=T_HAND_DEAL)
    view = replay_view(replay(rec))
    assert view["auction"] == [
        {"seat": 1, "call": "pass", "inkle": False},
        {"seat": 2, "call": "6C", "inkle": False},
        {"seat": 3, "call": "pass", "inkle": False},
        {"seat": 0, "call": "pass", "inkle": False},
    ]
    assert view["contract"] == {"bid": "6C", "seat": 2, "side": 0}
    assert [(t["leader"], t["winner"]) for t in view["tricks"]] == [
        (leader, winner) for leader, _, winner in T_HAND_TRICKS
    ]
    assert view["hand"] == {
        "complete": True,
        "made": True,
        "tricks_by_side": [8, 2],
        "points": [60, 20],
    }
    assert view["scores"] == [60, 20] and view["winner"] is None
    # The auction is over after the fourth call: a fifth call (the old "raise own bid" pass) is
    # refused, citing the kitty exchange that comes next.
    with pytest.raises(IllegalActionError) as info:
        replay(record(["pass", "6C", "pass", "pass", "pass"], deal=T_HAND_DEAL))
    assert (info.value.index, info.value.seat, info.value.clause) == (4, 2, "kitty.take")


def test_a_record_carries_its_format_and_an_unknown_one_is_refused():
    """INTERCHANGE.md, "Game record": ``format`` is 1 (absent means 1); another is refused."""
    state = replay(record(["pass"] * 4))
    written = record_of(state, [])
    assert written["format"] == 1 and next(iter(written)) == "format"
    assert replay({**record(["pass"] * 4), "format": 1}).phase_name == "over"
    for bad in (2, "1", True, None):
        with pytest.raises(RecordError, match=r"format 1, not "):
            replay({**record(["pass"] * 4), "format": bad})


def test_a_record_without_actions_is_the_hand_as_dealt():
    """INTERCHANGE.md "A record as replay reads it": a missing `actions` is `[]`, and a missing
    `scores` is all 0: the view is the dealt hand, the first call to the dealer's left."""
    bare = record()
    del bare["actions"]
    view = replay_view(replay(bare))
    assert view == replay_view(replay(record(actions=[])))
    assert view["scores"] == [0, 0] and view["tricks"] == [] and view["auction"] == []
    assert view["next"]["seat"] == 1 and view["next"]["phase"] == "auction"
