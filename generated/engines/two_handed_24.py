"""Generated engine module. Do not edit: `fivehundred build` writes it from the variant's tables.

The variant's random playout as code, every option of its rules resolved at generation (the
template is ``generator/templates/engine.py.j2``): the deal in its packet order, its auction,
kitty, partners, play and score. ``fivehundred.runtime.engine.fast`` loads it; it makes exactly
the choices of the engine's checked path (``runtime/engine/hand.py``) from the same random
stream: ``tests/test_engines.py`` compares every action, trick winner and point.
"""

# fmt: off
# floor(random() * n) is the checked engine's int(random() * n) (the same for a float from 0
# up) at a fifth of the cost: int is a type, and calling it goes through its constructor.
from math import floor

VARIANT = 'two-handed-24'
FINGERPRINT = '35ae5a92f12f837b'

PLAYERS = 2
N_CARDS = 24
HAND_SIZE = 10
NT = 4
# Action numbering (runtime/engine/rules.py).
JOKER_LEAD = 24
PASS = 24
BID = 25
NOMINATE = 50
TAKE = 54
SANS = 55
PARTNER = 56
CALL = 58
DISCARD = 82

NEXT_SEAT = (1, 0)
#: The seats that follow a lead by each seat, in order.
FOLLOWERS = ((1,), (0,))
CARD_BITS = tuple(1 << c for c in range(N_CARDS))
ALL_CARDS = (1 << N_CARDS) - 1
SIDE_OF_SEAT = (0, 1)
ZEROS = (0, 0)
THROWN_IN = (-1, -1, None, ZEROS, ZEROS, True, (), False)

# The ladder, by bid index.
LEVEL = (6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10)
STRAIN = (0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4)
VALUE = (40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 260, 280, 300, 320, 340, 360, 380, 400, 420,
 440, 460, 480, 500, 520)
#: The contractor's side, by seat, as a mask of seats (seats.teams); the seats of each side.
TEAM_OF_SEAT = (1, 2)
TEAMS = ((0,), (1,))

# Per-trump tables, by strain (S C D H NT): the suit of each card (4: a joker without one) and
# the masks of the cards of each suit; KEYS[strain][led][card] is what the card counts in a
# trick led in that suit (trump.order, play.trick-winner): its power, or 0 when it cannot win.
SUIT_OF = ((0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3),
 (0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3),
 (0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 2, 3, 3, 3),
 (0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 3, 2, 2, 2, 3, 3, 3, 3, 3, 3),
 (0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3))
SUIT_MASKS = ((319, 3776, 258048, 16515072, 0), (59, 4036, 258048, 16515072, 0),
 (63, 4032, 1306624, 15466496, 0), (63, 4032, 241664, 16531456, 0),
 (63, 4032, 258048, 16515072, 0))
KEYS = (((101, 102, 107, 103, 104, 105, 0, 0, 106, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
  (101, 102, 107, 103, 104, 105, 8, 9, 106, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
  (101, 102, 107, 103, 104, 105, 0, 0, 106, 0, 0, 0, 8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0),
  (101, 102, 107, 103, 104, 105, 0, 0, 106, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 9, 13, 14, 15, 16),
  (101, 102, 107, 103, 104, 105, 0, 0, 106, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
 ((8, 9, 106, 14, 15, 16, 101, 102, 107, 103, 104, 105, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
  (0, 0, 106, 0, 0, 0, 101, 102, 107, 103, 104, 105, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
  (0, 0, 106, 0, 0, 0, 101, 102, 107, 103, 104, 105, 8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0),
  (0, 0, 106, 0, 0, 0, 101, 102, 107, 103, 104, 105, 0, 0, 0, 0, 0, 0, 8, 9, 13, 14, 15, 16),
  (0, 0, 106, 0, 0, 0, 101, 102, 107, 103, 104, 105, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
 ((8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 101, 102, 107, 103, 104, 105, 0, 0, 106, 0, 0, 0),
  (0, 0, 0, 0, 0, 0, 8, 9, 13, 14, 15, 16, 101, 102, 107, 103, 104, 105, 0, 0, 106, 0, 0, 0),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 101, 102, 107, 103, 104, 105, 0, 0, 106, 0, 0, 0),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 101, 102, 107, 103, 104, 105, 8, 9, 106, 14, 15, 16),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 101, 102, 107, 103, 104, 105, 0, 0, 106, 0, 0, 0)),
 ((8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 106, 0, 0, 0, 101, 102, 107, 103, 104, 105),
  (0, 0, 0, 0, 0, 0, 8, 9, 13, 14, 15, 16, 0, 0, 106, 0, 0, 0, 101, 102, 107, 103, 104, 105),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 9, 106, 14, 15, 16, 101, 102, 107, 103, 104, 105),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 106, 0, 0, 0, 101, 102, 107, 103, 104, 105),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 106, 0, 0, 0, 101, 102, 107, 103, 104, 105)),
 ((8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
  (0, 0, 0, 0, 0, 0, 8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 9, 13, 14, 15, 16),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))


def playout(dealer, random, scores=None, contract=None):
    """Deal a hand from ``dealer`` and play it out at random: every decision picks the k-th of
    the legal actions in ascending order, ``k = floor(random() * count)``. ``contract`` (seat,
    bid index) ends the auction at once with that contract, as ``HandState.end_auction_with``.

    Returns (contract, contractor, made, tricks by side, points, complete, allies, sans, trick
    winners, actions, (hands, kitty, dead hand as dealt), redeal): the fields of ``Playout``.
    """
    acts = []
    hands, kitty, dead = deal(dealer, random)
    dealt = (tuple(hands), kitty, dead)
    if contract is None:
        high, contractor = auction(dealer, random, acts)
    else:
        contractor, high = contract
    if high < 0:
        # auction.all-pass: the hand is thrown in
        return (*THROWN_IN, (), acts, dealt, False)
    misere = False
    allies = TEAM_OF_SEAT[contractor]
    sans = False
    hands[contractor] = take_kitty_and_discard(hands[contractor] | kitty, random, acts)
    followers = FOLLOWERS
    won, winners = play_tricks(hands, contractor, STRAIN[high], followers, allies, misere, random, acts)
    made, by_side, points, seats = score(high, contractor, allies, misere, sans, won, scores or ZEROS)
    return (high, contractor, made, by_side, points, len(winners) == HAND_SIZE, seats, sans,
            tuple(winners), acts, dealt, False)


def deal(dealer, random):
    """deal.packets, deal.rotation: shuffle (Fisher-Yates on ``random()``, as the engine's
    ``shuffled``) and deal the packets from the dealer's left: hands by seat, kitty, dead hand.
    Each position of the deck is final once the shuffle has passed it, and goes to its
    receiver at once: ``h1`` is the dealer's left, ``h0`` the dealer. ``c`` holds the cards
    as bits (card index c as ``1 << c``), so a receiver's cards add up (distinct bits: ``+``
    is ``|``, and quicker); ``h0`` is dealt what nobody else was."""
    c = list(CARD_BITS)
    h1 = kitty = dead = 0
    j = floor(random() * 24)
    c[j] = c[23]
    j = floor(random() * 23)
    c[j] = c[22]
    j = floor(random() * 22)
    c[j] = c[21]
    j = floor(random() * 21)
    h1 += c[j]
    c[j] = c[20]
    j = floor(random() * 20)
    h1 += c[j]
    c[j] = c[19]
    j = floor(random() * 19)
    h1 += c[j]
    c[j] = c[18]
    j = floor(random() * 18)
    c[j] = c[17]
    j = floor(random() * 17)
    c[j] = c[16]
    j = floor(random() * 16)
    c[j] = c[15]
    j = floor(random() * 15)
    c[j] = c[14]
    j = floor(random() * 14)
    h1 += c[j]
    c[j] = c[13]
    j = floor(random() * 13)
    h1 += c[j]
    c[j] = c[12]
    j = floor(random() * 12)
    h1 += c[j]
    c[j] = c[11]
    j = floor(random() * 11)
    h1 += c[j]
    c[j] = c[10]
    j = floor(random() * 10)
    kitty += c[j]
    c[j] = c[9]
    j = floor(random() * 9)
    kitty += c[j]
    c[j] = c[8]
    j = floor(random() * 8)
    kitty += c[j]
    c[j] = c[7]
    j = floor(random() * 7)
    kitty += c[j]
    c[j] = c[6]
    j = floor(random() * 6)
    c[j] = c[5]
    j = floor(random() * 5)
    c[j] = c[4]
    j = floor(random() * 4)
    c[j] = c[3]
    j = floor(random() * 3)
    h1 += c[j]
    c[j] = c[2]
    j = floor(random() * 2)
    h1 += c[j]
    c[j] = c[1]
    h1 += c[0]
    h0 = ALL_CARDS - h1 - kitty
    by_offset = [h0, h1]
    return by_offset[-dealer:] + by_offset[:-dealer], kitty, dead


def auction(dealer, random, acts):
    """The auction: (high bid index, its seat), (-1, -1) when nobody bid.

    auction.order: from the dealer's left each player passes or bids; auction.higher: a bid is
    higher than the high bid. auction.single-round: one call each.
    """
    seat = NEXT_SEAT[dealer]
    high = high_seat = -1
    ncalls = 0
    while True:
        k = floor(random() * (25 - high))
        if k == 0:
            acts.append(PASS)
        else:
            i = high + k
            acts.append(BID + i)
            high = i
            high_seat = seat
        ncalls += 1
        if ncalls == PLAYERS:
            return high, high_seat
        seat = NEXT_SEAT[seat]


def take_kitty_and_discard(hand, random, acts):
    """kitty.take: the contractor takes the kitty and discards 4 cards, one per action."""
    bits = CARD_BITS
    for held in range(14, 10, -1):
        legal = hand
        n = held
        k = floor(random() * n)
        n -= k + 1  # the legal actions above the k-th
        if k < n:
            while k:
                legal &= legal - 1
                k -= 1
            card = (legal ^ legal - 1).bit_length() - 1  # the lowest left
        else:
            while n:
                legal -= bits[legal.bit_length() - 1]
                n -= 1
            card = legal.bit_length() - 1  # the highest left
        acts.append(DISCARD + card)
        hand -= bits[card]
    return hand


def play_tricks(hands, leader, strain, followers, allies, misere, random, acts):
    """The tricks of a contract in a trump suit or at no trumps: tricks won by seat and the winner of each trick.

    play.opening-lead: the contractor leads; play.next-lead: the winner of a trick leads the
    next; play.follow-suit: one who holds the led suit plays it; play.trick-winner: the highest
    card of the led suit wins, or the highest trump.
    """
    suit_of = SUIT_OF[strain]
    masks = SUIT_MASKS[strain]
    keys = KEYS[strain]
    bits = CARD_BITS
    won = [0] * PLAYERS
    winners = []
    append = acts.append
    n_tricks = 0
    seat = leader
    while True:
        legal = hand = hands[seat]
        n = HAND_SIZE - n_tricks
        k = floor(random() * n)
        n -= k + 1  # the legal actions above the k-th
        if k < n:
            while k:
                legal &= legal - 1
                k -= 1
            card = (legal ^ legal - 1).bit_length() - 1  # the lowest left
        else:
            while n:
                legal -= bits[legal.bit_length() - 1]
                n -= 1
            card = legal.bit_length() - 1  # the highest left
        append(card)
        hands[seat] = hand - bits[card]
        led = suit_of[card]
        led_keys = keys[led]
        follow = masks[led]
        best_key = led_keys[card]
        best = seat
        for s in followers[seat]:
            hand = hands[s]
            legal = hand & follow or hand
            n = legal.bit_count()
            k = floor(random() * n)
            n -= k + 1  # the legal actions above the k-th
            if k < n:
                while k:
                    legal &= legal - 1
                    k -= 1
                card = (legal ^ legal - 1).bit_length() - 1  # the lowest left
            else:
                while n:
                    legal -= bits[legal.bit_length() - 1]
                    n -= 1
                card = legal.bit_length() - 1  # the highest left
            append(card)
            hands[s] = hand - bits[card]
            key = led_keys[card]
            if key > best_key:
                best_key = key
                best = s
        won[best] += 1
        winners.append(best)
        n_tricks += 1
        if n_tricks == HAND_SIZE:
            return won, winners
        seat = best


def score(contract, contractor, allies, misere, sans, won, scores):
    """The hand's score: (made, tricks by side, points by side, the seats of the contractor's
    side)."""
    by_side = (won[0], won[1])
    # seats.teams: the contractor's side is his team
    own = SIDE_OF_SEAT[contractor]
    taken = by_side[own]
    opponents = by_side
    value = VALUE[contract]
    level = LEVEL[contract]
    made = taken >= level
    if not made:
        gain = -value  # score.failed
    elif taken == HAND_SIZE and value < 250:
        gain = 250  # score.slam
    else:
        gain = value + 0 * (taken - level)  # score.made
    per_trick = 10
    # score.opponents: each side scores its own tricks
    points = [
        per_trick * opponents[0],
        per_trick * opponents[1],
    ]
    points[own] = gain
    return made, by_side, tuple(points), TEAMS[own]
