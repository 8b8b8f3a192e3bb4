"""The australian tables pinned whole: the bid ladder with its values, the deck, and the card order
under every strain (deck.cards, trump.order, auction.ladder, score.table). Every expected value is
written out by hand here."""

from __future__ import annotations

import pytest

from fivehundred.runtime.engine.errors import InvalidActionError

# score.table (G): value = 40 + 20 * strain + 100 * (tricks - 6), strains S C D H NT; MIS 250
# between 7NT and 8S; OMIS 500 and BMIS 500 between 10D and 10H (auction.ladder, G; spec choice for
# BMIS).
LADDER = [
    ("6S", 40), ("6C", 60), ("6D", 80), ("6H", 100), ("6NT", 120),
    ("7S", 140), ("7C", 160), ("7D", 180), ("7H", 200), ("7NT", 220),
    ("MIS", 250),
    ("8S", 240), ("8C", 260), ("8D", 280), ("8H", 300), ("8NT", 320),
    ("9S", 340), ("9C", 360), ("9D", 380), ("9H", 400), ("9NT", 420),
    ("10S", 440), ("10C", 460), ("10D", 480),
    ("OMIS", 500), ("BMIS", 500),
    ("10H", 500), ("10NT", 520),
]  # fmt: skip

DECK = [
    "5S",
    "6S",
    "7S",
    "8S",
    "9S",
    "10S",
    "JS",
    "QS",
    "KS",
    "AS",
    "5C",
    "6C",
    "7C",
    "8C",
    "9C",
    "10C",
    "JC",
    "QC",
    "KC",
    "AC",
    "4D",
    "5D",
    "6D",
    "7D",
    "8D",
    "9D",
    "10D",
    "JD",
    "QD",
    "KD",
    "AD",
    "4H",
    "5H",
    "6H",
    "7H",
    "8H",
    "9H",
    "10H",
    "JH",
    "QH",
    "KH",
    "AH",
    "JK",
]

# Card order, highest first, by effective suit (S C D H, then the suitless joker) per strain.
SPADES = "AS KS QS JS 10S 9S 8S 7S 6S 5S"
CLUBS = "AC KC QC JC 10C 9C 8C 7C 6C 5C"
DIAMONDS = "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D"
HEARTS = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H"
ORDER = {
    "S": [
        "JK JS JC AS KS QS 10S 9S 8S 7S 6S 5S",
        "AC KC QC 10C 9C 8C 7C 6C 5C",
        DIAMONDS,
        HEARTS,
        "",
    ],
    "C": [SPADES.replace("JS ", ""), "JK JC JS AC KC QC 10C 9C 8C 7C 6C 5C", DIAMONDS, HEARTS, ""],
    "D": [SPADES, CLUBS, "JK JD JH AD KD QD 10D 9D 8D 7D 6D 5D 4D", HEARTS.replace("JH ", ""), ""],
    "H": [
        SPADES,
        CLUBS,
        DIAMONDS.replace("JD ", ""),
        "JK JH JD AH KH QH 10H 9H 8H 7H 6H 5H 4H",
        "",
    ],
    # No trumps: plain order everywhere, J between Q and 10 (P); the joker is suitless (G).
    "NT": [SPADES, CLUBS, DIAMONDS, HEARTS, "JK"],
}
STRAINS = ["S", "C", "D", "H", "NT"]


def test_ladder_codes_in_order(rules):
    assert list(rules.bid_codes) == [code for code, _ in LADDER]


def test_ladder_values(rules):
    assert list(zip(rules.bid_codes, rules.bid_value, strict=True)) == LADDER


def test_ladder_levels_and_strains(rules):
    for i, (code, _) in enumerate(LADDER):
        if code.endswith("MIS"):
            assert rules.bid_kind[i] == "misere"
            assert rules.bid_strain[i] == 4  # played at no trumps
            continue
        assert rules.bid_kind[i] != "misere"
        assert rules.bid_level[i] == int(code[:-2] if code.endswith("NT") else code[:-1])
        assert STRAINS[rules.bid_strain[i]] == (code[-2:] if code.endswith("NT") else code[-1])


def test_ladder_misere_flags(rules):
    mis, omis, bmis = (rules.bid_index[c] for c in ("MIS", "OMIS", "BMIS"))
    assert (rules.bid_after[mis], rules.bid_open[mis], rules.bid_blind[mis]) == (7, "no", False)
    assert (rules.bid_after[omis], rules.bid_open[omis], rules.bid_blind[omis]) == (
        0, "after-first-trick", False,
    )  # fmt: skip
    assert (rules.bid_after[bmis], rules.bid_blind[bmis]) == (0, True)
    assert [rules.bid_clause[i] for i in (mis, omis, bmis)] == [
        "auction.misere", "auction.open-misere", "auction.blind-misere",
    ]  # fmt: skip


def test_deck(rules):
    """deck.cards (G, T): 43 cards, hearts and diamonds 4..A, spades and clubs 5..A, a joker."""
    assert list(rules.deck) == DECK
    assert [rules.deck[c] for c in rules.joker_cards] == ["JK"]
    suits = "SCDH"
    for c, code in enumerate(DECK[:-1]):
        assert suits[rules.card_suit[c]] == code[-1]


def _order_from_power(rules, strain: int) -> list[str]:
    """The engine's order: cards grouped by effective suit, by falling power."""
    out = []
    for suit in range(5):
        cards = [c for c in range(rules.n_cards) if rules.suit_of[strain][c] == suit]
        cards.sort(key=lambda c: -rules.power[strain][c])
        out.append(" ".join(rules.deck[c] for c in cards))
    return out


@pytest.mark.parametrize("strain", STRAINS)
def test_card_order(rules, strain):
    """trump.order (G, T, P): the engine's effective suits and powers give exactly the order by
    hand."""
    s = STRAINS.index(strain)
    assert _order_from_power(rules, s) == ORDER[strain]
    # No ties inside a suit.
    for suit in range(5):
        powers = [rules.power[s][c] for c in range(43) if rules.suit_of[s][c] == suit]
        assert len(set(powers)) == len(powers)


@pytest.mark.parametrize("strain", STRAINS)
def test_card_order_table(rules, strain):
    """The generated ``order`` table (printed in rule books) says the same."""
    table = rules.tables["strains"][STRAINS.index(strain)]["order"]
    assert [" ".join(cards) for cards in table] == ORDER[strain]


@pytest.mark.parametrize("strain", ["S", "C", "D", "H"])
def test_trumps_beat_every_plain_card(rules, strain):
    s = STRAINS.index(strain)
    trumps = [rules.power[s][c] for c in range(43) if rules.suit_of[s][c] == s]
    plain = [rules.power[s][c] for c in range(43) if rules.suit_of[s][c] != s]
    assert len(trumps) == (13 if strain in "DH" else 12)
    assert min(trumps) > max(plain)


def test_suit_masks_match_suit_of(rules):
    for s in range(5):
        for suit in range(5):
            expected = sum(1 << c for c in range(43) if rules.suit_of[s][c] == suit)
            assert rules.masks[s][suit] == expected


@pytest.mark.parametrize(
    ("text", "code"),
    [("10h", "10H"), ("TH", "10H"), ("th", "10H"), ("jd", "JD"), ("RJ", "JK"), ("jk", "JK")],
)
def test_card_code_input(rules, text, code):
    """INTERCHANGE.md "Codes": input takes T for 10, lower case, RJ for the joker."""
    assert rules.deck[rules.card(text)] == code


def test_card_codes_that_are_bids(rules):
    for code in ("6S", "7C", "8D", "9H", "10S", "10H"):
        assert rules.parse_action(code) == rules.bid_action(code)
        assert rules.parse_action(code, bidding=False) == rules.card(code)


def test_action_codes_round_trip(rules):
    """INTERCHANGE.md "Codes": every action prints as its public code and parses back."""
    # Cards, joker leads, pass, bids, nominations, take/sans, partners, calls, discards.
    actions = list(range(rules.n_actions))
    for a in actions:
        text = rules.action_str(a)
        if rules.NOMINATE <= a < rules.NOMINATE + 4:
            assert text == "nominate " + "SCDH"[a - rules.NOMINATE]
        # "8D" the card is also "8D" the bid: outside the auction it is the card.
        bidding = rules.PASS <= a < rules.NOMINATE
        assert rules.parse_action(text, bidding=bidding) == a, text
    assert rules.action_str(rules.DISCARD + 42) == "discard JK"
    # A whole discard, as records write it, is one action per card (kitty.take).
    whole = (rules.DISCARD + 0, rules.DISCARD + 5, rules.DISCARD + 42)
    assert rules.parse_actions("discard 5S 10S JK") == whole
    assert rules.discard_str(1 << 42 | 1 << 5 | 1) == "discard 5S 10S JK"
    assert rules.n_actions == rules.DISCARD + 43
    with pytest.raises(InvalidActionError):
        rules.action_str(rules.n_actions)
    with pytest.raises(InvalidActionError):
        rules.parse_action("discard 5S 10S JK")  # three actions, not one
    with pytest.raises(InvalidActionError):
        rules.parse_actions("discard 5S 5S")
    assert [rules.action_str(rules.JOKER_LEAD + s) for s in range(4)] == [
        "JK:S", "JK:C", "JK:D", "JK:H",
    ]  # fmt: skip
