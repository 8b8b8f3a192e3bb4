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

VARIANT = 'out-backwards-not-negative'
FINGERPRINT = '55cd2b0ba1c52352'

PLAYERS = 4
N_CARDS = 43
HAND_SIZE = 10
NT = 4
# Action numbering (runtime/engine/rules.py).
JOKER_LEAD = 43
PASS = 47
BID = 48
NOMINATE = 76
TAKE = 80
SANS = 81
PARTNER = 82
CALL = 86
DISCARD = 129

NEXT_SEAT = (1, 2, 3, 0)
#: The seats that follow a lead by each seat, in order.
FOLLOWERS = ((1, 2, 3), (2, 3, 0), (3, 0, 1), (0, 1, 2))
CARD_BITS = tuple(1 << c for c in range(N_CARDS))
ALL_CARDS = (1 << N_CARDS) - 1
SIDE_OF_SEAT = (0, 1, 0, 1)
ZEROS = (0, 0)
THROWN_IN = (-1, -1, None, ZEROS, ZEROS, True, (), False)

# The ladder, by bid index.
LEVEL = (6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 0, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 10, 10, 10, 0, 0, 10, 10)
STRAIN = (0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 4, 4, 3, 4)
VALUE = (40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 250, 240, 260, 280, 300, 320, 340, 360, 380, 400,
 420, 440, 460, 480, 500, 500, 500, 520)
MISERE = (False, False, False, False, False, False, False, False, False, False, True, False, False, False,
 False, False, False, False, False, False, False, False, False, False, True, True, False, False)
SITS_OUT = (False, False, False, False, False, False, False, False, False, False, True, False, False, False,
 False, False, False, False, False, False, False, False, False, False, True, True, False, False)
#: The contractor's side, by seat, as a mask of seats (seats.teams); the seats of each side.
TEAM_OF_SEAT = (5, 10, 5, 10)
TEAMS = ((0, 2), (1, 3))
#: The seats that follow a lead by each seat in a misère its contractor plays alone, by
#: contractor (play.misere-partner: his partner sits it out).
FOLLOWERS_ALONE = (((1, 3), (3, 0), (3, 0, 1), (0, 1)), ((1, 2), (2, 0), (0, 1), (0, 1, 2)),
 ((1, 2, 3), (2, 3), (3, 1), (1, 2)), ((2, 3), (2, 3, 0), (3, 0), (0, 2)))

# Per-trump tables, by strain (S C D H NT): the suit of each card (4: a joker without one) and
# the masks of the cards of each suit; KEYS[strain][led][card] is what the card counts in a
# trick led in that suit (trump.order, play.trick-winner): its power, or 0 when it cannot win.
SUIT_OF = ((0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
  3, 3, 3, 3, 3, 3, 3, 3, 3, 0),
 (0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
  3, 3, 3, 3, 3, 3, 3, 3, 3, 1),
 (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
  3, 3, 3, 3, 3, 2, 3, 3, 3, 2),
 (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 2, 2, 2, 3, 3,
  3, 3, 3, 3, 3, 3, 3, 3, 3, 3),
 (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
  3, 3, 3, 3, 3, 3, 3, 3, 3, 4))
SUIT_MASKS = ((4398046577663, 982016, 2146435072, 4395899027456, 0),
 (959, 4398047558720, 2146435072, 4395899027456, 0),
 (1023, 1047552, 4675070853120, 4121021120512, 0), (1023, 1047552, 2012217344, 8794079756288, 0),
 (1023, 1047552, 2146435072, 4395899027456, 4398046511104))
KEYS = (((101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 0, 0, 0, 0, 0, 0, 110, 0, 0, 0, 0, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 112),
  (101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 4, 5, 6, 7, 8, 9, 110, 14, 15, 16, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 112),
  (101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 0, 0, 0, 0, 0, 0, 110, 0, 0, 0, 3, 4, 5, 6, 7,
   8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 112),
  (101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 0, 0, 0, 0, 0, 0, 110, 0, 0, 0, 0, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 112),
  (101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 0, 0, 0, 0, 0, 0, 110, 0, 0, 0, 0, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 112)),
 ((4, 5, 6, 7, 8, 9, 110, 14, 15, 16, 101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 112),
  (0, 0, 0, 0, 0, 0, 110, 0, 0, 0, 101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 0, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 112),
  (0, 0, 0, 0, 0, 0, 110, 0, 0, 0, 101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 3, 4, 5, 6, 7,
   8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 112),
  (0, 0, 0, 0, 0, 0, 110, 0, 0, 0, 101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 0, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 112),
  (0, 0, 0, 0, 0, 0, 110, 0, 0, 0, 101, 102, 103, 104, 105, 106, 111, 107, 108, 109, 0, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 112)),
 ((4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 101, 102, 103, 104, 105, 106,
   107, 112, 108, 109, 110, 0, 0, 0, 0, 0, 0, 0, 111, 0, 0, 0, 113),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 101, 102, 103, 104, 105, 106,
   107, 112, 108, 109, 110, 0, 0, 0, 0, 0, 0, 0, 111, 0, 0, 0, 113),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 101, 102, 103, 104, 105, 106, 107,
   112, 108, 109, 110, 0, 0, 0, 0, 0, 0, 0, 111, 0, 0, 0, 113),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 101, 102, 103, 104, 105, 106, 107,
   112, 108, 109, 110, 3, 4, 5, 6, 7, 8, 9, 111, 14, 15, 16, 113),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 101, 102, 103, 104, 105, 106, 107,
   112, 108, 109, 110, 0, 0, 0, 0, 0, 0, 0, 111, 0, 0, 0, 113)),
 ((4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 111, 0, 0,
   0, 101, 102, 103, 104, 105, 106, 107, 112, 108, 109, 110, 113),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 111, 0, 0,
   0, 101, 102, 103, 104, 105, 106, 107, 112, 108, 109, 110, 113),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 4, 5, 6, 7, 8, 9, 111, 14, 15, 16,
   101, 102, 103, 104, 105, 106, 107, 112, 108, 109, 110, 113),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 111, 0, 0, 0,
   101, 102, 103, 104, 105, 106, 107, 112, 108, 109, 110, 113),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 111, 0, 0, 0,
   101, 102, 103, 104, 105, 106, 107, 112, 108, 109, 110, 113)),
 ((4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 201),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 201),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 201),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3,
   4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 201),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 201)))
JOKER_CARDS = (42,)
JOKER_MASK = 4398046511104


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
    misere = MISERE[high]
    allies = TEAM_OF_SEAT[contractor]
    sans = False
    hands[contractor] = take_kitty_and_discard(hands[contractor] | kitty, random, acts)
    followers = FOLLOWERS
    if SITS_OUT[high]:
        # play.misere-partner: the contractor's partner sits the misère out
        followers = FOLLOWERS_ALONE[contractor]
    strain = STRAIN[high]
    if strain == NT:
        won, winners = play_no_trumps(hands, contractor, contractor, followers, allies, misere, random, acts)
    else:
        won, winners = play_tricks(hands, contractor, strain, followers, allies, misere, random, acts)
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
    h1 = h2 = h3 = kitty = dead = 0
    j = floor(random() * 43)
    kitty += c[j]
    c[j] = c[42]
    j = floor(random() * 42)
    c[j] = c[41]
    j = floor(random() * 41)
    c[j] = c[40]
    j = floor(random() * 40)
    c[j] = c[39]
    j = floor(random() * 39)
    h3 += c[j]
    c[j] = c[38]
    j = floor(random() * 38)
    h3 += c[j]
    c[j] = c[37]
    j = floor(random() * 37)
    h3 += c[j]
    c[j] = c[36]
    j = floor(random() * 36)
    h2 += c[j]
    c[j] = c[35]
    j = floor(random() * 35)
    h2 += c[j]
    c[j] = c[34]
    j = floor(random() * 34)
    h2 += c[j]
    c[j] = c[33]
    j = floor(random() * 33)
    h1 += c[j]
    c[j] = c[32]
    j = floor(random() * 32)
    h1 += c[j]
    c[j] = c[31]
    j = floor(random() * 31)
    h1 += c[j]
    c[j] = c[30]
    j = floor(random() * 30)
    kitty += c[j]
    c[j] = c[29]
    j = floor(random() * 29)
    c[j] = c[28]
    j = floor(random() * 28)
    c[j] = c[27]
    j = floor(random() * 27)
    c[j] = c[26]
    j = floor(random() * 26)
    c[j] = c[25]
    j = floor(random() * 25)
    h3 += c[j]
    c[j] = c[24]
    j = floor(random() * 24)
    h3 += c[j]
    c[j] = c[23]
    j = floor(random() * 23)
    h3 += c[j]
    c[j] = c[22]
    j = floor(random() * 22)
    h3 += c[j]
    c[j] = c[21]
    j = floor(random() * 21)
    h2 += c[j]
    c[j] = c[20]
    j = floor(random() * 20)
    h2 += c[j]
    c[j] = c[19]
    j = floor(random() * 19)
    h2 += c[j]
    c[j] = c[18]
    j = floor(random() * 18)
    h2 += c[j]
    c[j] = c[17]
    j = floor(random() * 17)
    h1 += c[j]
    c[j] = c[16]
    j = floor(random() * 16)
    h1 += c[j]
    c[j] = c[15]
    j = floor(random() * 15)
    h1 += c[j]
    c[j] = c[14]
    j = floor(random() * 14)
    h1 += c[j]
    c[j] = c[13]
    j = floor(random() * 13)
    kitty += c[j]
    c[j] = c[12]
    j = floor(random() * 12)
    c[j] = c[11]
    j = floor(random() * 11)
    c[j] = c[10]
    j = floor(random() * 10)
    c[j] = c[9]
    j = floor(random() * 9)
    h3 += c[j]
    c[j] = c[8]
    j = floor(random() * 8)
    h3 += c[j]
    c[j] = c[7]
    j = floor(random() * 7)
    h3 += c[j]
    c[j] = c[6]
    j = floor(random() * 6)
    h2 += c[j]
    c[j] = c[5]
    j = floor(random() * 5)
    h2 += c[j]
    c[j] = c[4]
    j = floor(random() * 4)
    h2 += c[j]
    c[j] = c[3]
    j = floor(random() * 3)
    h1 += c[j]
    c[j] = c[2]
    j = floor(random() * 2)
    h1 += c[j]
    c[j] = c[1]
    h1 += c[0]
    h0 = ALL_CARDS - h1 - h2 - h3 - kitty
    by_offset = [h0, h1, h2, h3]
    return by_offset[-dealer:] + by_offset[:-dealer], kitty, dead


def auction(dealer, random, acts):
    """The auction: (high bid index, its seat), (-1, -1) when nobody bid.

    auction.order: from the dealer's left each player passes or bids; auction.higher: a bid is
    higher than the high bid. auction.pass-final: a pass is final; auction.end: over
    when all but one have passed after a bid.
    """
    seat = NEXT_SEAT[dealer]
    high = high_seat = -1
    passed = 0
    called = 0
    max_level = 0
    while True:
        # auction.misere: only after a 7 was bid
        barred10 = high < 10 and (max_level < 7)
        # auction.blind-misere: a blind bid is one's first call
        barred25 = high < 25 and (called >> seat & 1)
        k = floor(random() * (28 - high - barred10 - barred25))
        if k == 0:
            acts.append(PASS)
            passed |= 1 << seat
        else:
            i = high + k
            if barred10 and i >= 10:
                i += 1
            if barred25 and i >= 25:
                i += 1
            acts.append(BID + i)
            high = i
            high_seat = seat
            if LEVEL[i] > max_level:
                max_level = LEVEL[i]
        called |= 1 << seat
        unpassed = 15 & ~passed
        if not unpassed:
            return high, high_seat
        if high >= 0 and unpassed == 1 << high_seat:
            return high, high_seat
        seat = NEXT_SEAT[seat]
        while passed >> seat & 1:
            seat = NEXT_SEAT[seat]


def take_kitty_and_discard(hand, random, acts):
    """kitty.take: the contractor takes the kitty and discards 3 cards, one per action."""
    bits = CARD_BITS
    for held in range(13, 10, -1):
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
    """The tricks of a contract in a trump suit, where the jokers are trumps and no joker rule
    applies: tricks won by seat and the winner of each trick.

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


def play_no_trumps(hands, leader, contractor, followers, allies, misere, random, acts):
    """The tricks of a contract at no trumps (a misère's too), with the rules of the joker without
    trumps: tricks won by seat and the winner of each trick.

    play.opening-lead: the contractor leads; play.next-lead: the winner of a trick
    leads the next; play.follow-suit: one who holds the led suit plays it; play.trick-winner:
    the highest card of the led suit wins.
    """
    suit_of = SUIT_OF[NT]
    masks = SUIT_MASKS[NT]
    keys = KEYS[NT]
    bits = CARD_BITS
    suitless = masks[4]
    nominated = -1
    suits_led = 0
    won = [0] * PLAYERS
    winners = []
    append = acts.append
    n_tricks = 0
    seat = leader
    while True:
        hand = hands[seat]
        if hand & suitless:
            legal = joker_leads(
                hand, suitless, n_tricks == HAND_SIZE - 1, suits_led, nominated,
            )
            if not n_tricks and seat == contractor and nominated < 0:
                # joker.no-trumps.nominate: before the opening lead the contractor may nominate
                # the suit of his joker
                legal |= 1133367955888714851287040
            k = floor(random() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            action = (legal ^ legal - 1).bit_length() - 1  # the lowest action left
            append(action)
            if action >= NOMINATE:
                nominated = action - NOMINATE
                suit_of, masks, keys = NOMINATED[hand & suitless, nominated]
                suitless = masks[4]
                continue
            if action >= JOKER_LEAD:
                # joker.no-trumps.lead: leading the joker names the suit to follow
                j, led = divmod(action - JOKER_LEAD, 4)
                card = JOKER_CARDS[j]
            else:
                card = action
                led = suit_of[card]
        else:
            legal = hand
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
            led = suit_of[card]
        hands[seat] = hand - bits[card]
        suits_led |= 1 << led
        led_keys = keys[led]
        follow = masks[led]
        best_key = led_keys[card]
        best = seat
        for s in followers[seat]:
            hand = hands[s]
            legal = hand & follow
            if not legal:
                legal = hand
                if misere and hand & suitless:
                    # joker.no-trumps.misere-void: void in the led suit in a misère, the joker
                    # must be played
                    legal = hand & suitless
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
        # play.misere-ends: a misère ends when the contractor's side takes a trick
        if n_tricks == HAND_SIZE or (misere and allies >> best & 1):
            return won, winners
        seat = best


def joker_leads(hand, suitless, last, suits_led, nominated):
    """The leads open to a hand holding a joker without a suit: its cards and the
    joker leads ``JOKER_LEAD + 4 * j + suit``."""
    cards = hand
    free = hand & suitless
    if not free:
        return cards
    cards &= ~free
    # joker.no-trumps.lead: the named suit has not been led before; joker.no-trumps.last-trick:
    # once all four have been, the joker is led only to the last trick (naming any suit)
    suits = 15
    unled = 15 & ~suits_led
    if unled or (hand & ~free and not last):
        suits = unled
    if free >> 42 & 1:
        cards |= suits << 43
    return cards


def nominate_joker(held, suit):
    """joker.no-trumps.nominate: the tables of the play at no trumps once the contractor has
    nominated ``suit`` for the jokers he holds (``held``): each becomes that suit's highest
    card."""
    suit_of = list(SUIT_OF[NT])
    masks = list(SUIT_MASKS[NT])
    keys = [list(row) for row in KEYS[NT]]
    if held >> 42 & 1:
        suit_of[42] = suit
        masks[4] &= ~4398046511104
        masks[suit] |= 4398046511104
        for led in range(5):
            keys[led][42] = 99 if led == suit else 0
    return tuple(suit_of), tuple(masks), tuple(tuple(row) for row in keys)


#: The tables of every nomination, by (the jokers held, the suit), made once.
NOMINATED = {
    (held, suit): nominate_joker(held, suit)
    for held in (4398046511104,)
    for suit in range(4)
}


def score(contract, contractor, allies, misere, sans, won, scores):
    """The hand's score: (made, tricks by side, points by side, the seats of the contractor's
    side)."""
    by_side = (won[0] + won[2], won[1] + won[3])
    # seats.teams: the contractor's side is his team
    own = SIDE_OF_SEAT[contractor]
    taken = by_side[own]
    opponents = by_side
    value = VALUE[contract]
    if misere:
        # score.misere: made when the contractor's side takes no trick
        made = taken == 0
        gain = value if made else -value
        per_trick = 0
    else:
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
