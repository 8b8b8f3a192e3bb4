"""What a hand can take: a model of the tricks a contract makes, fitted by self-play per rules.

The heuristic bot counts a hand's likely tricks (:func:`~.heuristic.hand_tricks`), but how many
tricks a count of 4.5 is really worth depends on the game: on partners (their unseen cards add
tricks), the kitty, how many opponents defend together, the size of the deck. Rather than guess
a table per variant, :func:`hand_model` plays a fixed set of deals of the rules at hand: each deal
is played out at the best suit of each of :data:`SUIT_SEATS` seats in turn, once at no trumps by
the seat best at no trumps and once at each misère bid by the seat with the safest hand, all
with the bot's own card play.
It fits the tricks the contractor's side took to the counts (least squares, with the partners'
count where partnerships are fixed) and the misères made to a danger score (logistic).

A second stage plays whole auctions (:func:`hand_model`'s ``bidder``, :func:`calibrate`): on
another fixed set of deals the bot bids at every seat with the model just fitted, and each suit
or no-trump contract won is played out. A fit over all hands can be off where bids are made
(the strong hands, at the end of the line), and the contract goes to the seat whose count
overstates its tricks the most (the winner's curse, which a fit at a fixed seat cannot see): the
mean by which the contracts won fall short of (or exceed) the means their bids stated, shrunk
toward 0 on few contracts, is added to both fits' intercepts (:attr:`HandModel.offset`), and the
auctions are played again with it to fit what is left. Both stages are deterministic (fixed
seeds) and made once per rules.

Only the rules tables drive it, so a house rule file gets a model of its own.

A fit costs some 0.3 to 1.1 s of processor time, in every process that plays (each worker of a
study, each run of the command line), so a caller that names its bot (``cache_as``, the
heuristic does) has it kept on disk as well (:func:`model_cache_dir`): under a key of the
whole rules tables, the source of the bots and the engine that play the fitting deals, and
the Python that ran them, so a model is only ever read back for exactly the code and rules
that fitted it, and is then the same to the last bit (floats are written as ``repr`` gives
them). ``FIVEHUNDRED_CACHE=off`` turns it off; a folder that cannot be written only costs the
fit.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from random import Random
from typing import Any

from ..engine.codes import NT
from ..engine.fingerprint import rules_fingerprint
from ..engine.hand import AUCTION, OVER, PLAY, HandState
from ..engine.rules import Rules

__all__ = [
    "AUCTIONS",
    "DEALS",
    "ROUNDS",
    "SUIT_SEATS",
    "Bidder",
    "HandModel",
    "LinearFit",
    "MisereFit",
    "calibrate",
    "hand_model",
    "model_cache_dir",
    "normal_at_least",
    "remembered_model",
    "shifted",
]

#: Deals played to fit a model: enough for the intercepts to within about 0.15 tricks.
DEALS = 120

#: Seats of each deal (the seat after the dealer and the next ones) whose best suit is played:
#: one seat a deal left the slope to chance (six-handed 2v2v2: 0.86 where 1,200 deals say 0.65,
#: 0.6 of a trick too many at a count of 6, where hands bid).
SUIT_SEATS = 3

#: Deals whose whole auctions are played to fit the offset on contracts won, in each of
#: :data:`ROUNDS` rounds.
AUCTIONS = 240
ROUNDS = 2

#: Contracts' worth of weight the offset's prior (no offset) carries.
OFFSET_PRIOR = 20.0


@dataclass(frozen=True, slots=True)
class LinearFit:
    """Tricks of the contractor's side ~ ``a + b * own + c * partners`` (``sd``: of the rest)."""

    a: float
    b: float
    c: float
    sd: float
    #: The mean partners' count in the fitting deals (what a bidder assumes of a silent partner).
    partners_mean: float

    def mean(self, own: float, partners: float | None = None) -> float:
        """Expected tricks for a count of ``own`` (and of the partners', default their mean)."""
        p = self.partners_mean if partners is None else partners
        return self.a + self.b * own + self.c * p


@dataclass(frozen=True, slots=True)
class MisereFit:
    """P(misère made) = logistic(``w0 + w1 * score``); ``made``/``n``: in the fitting deals."""

    w0: float
    w1: float
    made: int
    n: int

    def chance(self, score: float) -> float:
        """The chance a hand of danger ``score`` makes this misère."""
        z = self.w0 + self.w1 * score
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(frozen=True, slots=True)
class HandModel:
    """A fitted model of one rules' contracts."""

    suit: LinearFit
    nt: LinearFit
    #: By ladder index of each misère bid.
    misere: dict[int, MisereFit]
    #: What taking the kitty adds to the contractor's count, on average (0 without a kitty).
    kitty_gain: float
    #: Tricks added to both fits' intercepts (already in ``suit.a`` and ``nt.a``): what the
    #: contracts won in whole auctions of the bots took beyond the means their bids stated.
    offset: float = 0.0
    #: The contracts that offset was fitted on (in the last round).
    won: int = 0


def normal_at_least(mean: float, sd: float, level: int) -> float:
    """P(tricks >= ``level``) for tricks about normal with ``mean`` and ``sd`` (a half-trick
    continuity correction)."""
    z = (mean - level + 0.5) / max(0.3, sd)
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


#: Counts of a hand: ``own(rules, hand, strain)``, ``misere(rules, hand)`` (danger score).
Count = Callable[[Rules, int, int], float]
MisereScore = Callable[[Rules, int], float]
#: The bot that plays the fitting deals: an action for the seat to move.
Player = Callable[[HandState], int]
#: The bot's call for the seat to bid with a given model, and the mean tricks the model gave
#: the contract it bids (None for a pass, a misère, a contract bid without the model).
Bidder = Callable[[HandState, "HandModel"], tuple[int, float | None]]

_BY_OBJECT: dict[int, tuple[Rules, HandModel]] = {}
_BY_TABLES: dict[str, HandModel] = {}


def remembered_model(rules: Rules) -> HandModel | None:
    """The model :func:`hand_model` has already given for this very rules object, else None."""
    hit = _BY_OBJECT.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    return None


def hand_model(
    rules: Rules,
    own: Count,
    misere: MisereScore,
    player: Player,
    cache_as: str = "",
    bidder: Bidder | None = None,
) -> HandModel:
    """The model of ``rules`` (fitted at the first call, then remembered for these rules: by
    the tables' fingerprint, so a process that builds the same rules afresh for every chunk of
    a study fits them once). ``cache_as``: the name of the bot whose functions ``own``,
    ``misere``, ``player`` and ``bidder`` are, to keep its fits on disk (see the module
    docstring); only for functions defined in this package, whose source the disk key reads.
    With ``bidder``, the second stage fits the offset on contracts won in whole auctions (see
    the module docstring)."""
    hit = _BY_OBJECT.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    key = rules_fingerprint(rules.tables)
    model = _BY_TABLES.get(key)
    if model is None:
        path = _cache_path(rules, cache_as) if cache_as else None
        model = _read_model(path) if path is not None else None
        if model is None:
            model = _fit(rules, own, misere, player)
            if bidder is not None:
                model = calibrate(rules, model, bidder, player)
            if path is not None:
                _write_model(path, model)
        if len(_BY_TABLES) > 64:
            _BY_TABLES.clear()
        _BY_TABLES[key] = model
    if len(_BY_OBJECT) > 64:
        _BY_OBJECT.clear()
    _BY_OBJECT[id(rules)] = (rules, model)
    return model


# -- on disk -------------------------------------------------------------------------------------

#: Changes whenever the file's layout or the fit's meaning does (with the sources read below).
_CACHE_FORMAT = 2


def model_cache_dir() -> Path | None:
    """Where fitted models are kept: ``$FIVEHUNDRED_CACHE/hand-models`` when that is set (to a
    folder; ``off`` keeps none), else the user's cache folder (``$XDG_CACHE_HOME`` or
    ``~/.cache``) ``/fivehundred/hand-models``; None when there is none."""
    chosen = os.environ.get("FIVEHUNDRED_CACHE", "")
    if chosen.strip().lower() in {"off", "0", "no", "false", "none"}:
        return None
    if chosen:
        return Path(chosen) / "hand-models"
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):  # no home folder to be found
            return None
    return Path(base) / "fivehundred" / "hand-models"


_CODE_KEY: list[str] = []


def _code_key() -> str:
    """A hash of what plays the fitting deals: the source of every module of the bots and of
    the engine (the fitting functions are the bots', the hands the engine's), and the Python."""
    if not _CODE_KEY:
        import platform  # here: its import costs more than the rest of this module's

        h = hashlib.blake2b(digest_size=16)
        sizes = f"{DEALS}/{SUIT_SEATS}/{AUCTIONS}/{ROUNDS}/{OFFSET_PRIOR}"
        h.update(f"{_CACHE_FORMAT}/{sizes}/{sys.version}/{platform.machine()}".encode())
        here = Path(__file__).resolve().parent
        for folder in (here, here.parent / "engine"):
            for path in sorted(folder.glob("*.py")):
                h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        _CODE_KEY.append(h.hexdigest())
    return _CODE_KEY[0]


def _cache_path(rules: Rules, bot: str) -> Path | None:
    folder = model_cache_dir()
    if folder is None:
        return None
    try:
        tables = json.dumps(rules.tables, sort_keys=True, separators=(",", ":"), default=str)
        code = _code_key()
    except (OSError, TypeError, ValueError):
        return None
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{bot}\0{code}\0{tables}".encode())
    return folder / f"{h.hexdigest()}.json"


def _model_json(model: HandModel) -> dict[str, Any]:
    def linear(f: LinearFit) -> list[float]:
        return [f.a, f.b, f.c, f.sd, f.partners_mean]

    return {
        "format": _CACHE_FORMAT,
        "suit": linear(model.suit),
        "nt": linear(model.nt),
        "misere": [[i, m.w0, m.w1, m.made, m.n] for i, m in sorted(model.misere.items())],
        "kitty_gain": model.kitty_gain,
        "offset": model.offset,
        "won": model.won,
    }


def _floats(value: object, count: int) -> list[float]:
    if not isinstance(value, list) or len(value) != count:
        raise ValueError("not a list of the expected length")
    out = []
    for x in value:
        if type(x) not in (int, float) or not math.isfinite(x):
            raise ValueError("not a finite number")
        out.append(float(x))
    return out


def _count(value: object) -> int:
    if type(value) is not int or value < 0:
        raise ValueError("not a count")
    return value


def _model_of(data: object) -> HandModel:
    """The model a cache file holds (ValueError when it holds anything else)."""
    if not isinstance(data, dict) or data.get("format") != _CACHE_FORMAT:
        raise ValueError("not a hand model of this format")
    misere: dict[int, MisereFit] = {}
    rows = data.get("misere")
    if not isinstance(rows, list):
        raise ValueError("no misère fits")
    for row in rows:
        if not isinstance(row, list) or len(row) != 5:
            raise ValueError("a misère fit of the wrong shape")
        i, made, n = row[0], row[3], row[4]
        if not all(type(x) is int and x >= 0 for x in (i, made, n)):
            raise ValueError("a misère fit's counts")
        w0, w1 = _floats(row[1:3], 2)
        misere[i] = MisereFit(w0, w1, made, n)
    return HandModel(
        suit=LinearFit(*_floats(data.get("suit"), 5)),
        nt=LinearFit(*_floats(data.get("nt"), 5)),
        misere=misere,
        kitty_gain=_floats([data.get("kitty_gain")], 1)[0],
        offset=_floats([data.get("offset")], 1)[0],
        won=_count(data.get("won")),
    )


def _read_model(path: Path) -> HandModel | None:
    """The model kept at ``path``, or None (none kept, unreadable or not a model)."""
    try:
        return _model_of(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, RecursionError):  # a damaged or foreign file: fit again
        return None


def _write_model(path: Path, model: HandModel) -> None:
    """Keep ``model`` at ``path`` (written whole through a temporary file, so a reader never
    sees half of one); a folder that cannot be written keeps nothing."""
    text = json.dumps(_model_json(model), separators=(",", ":"))
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


# -- the fit -------------------------------------------------------------------------------------


def _partners(rules: Rules, seat: int) -> list[int]:
    if rules.partner_call != "none":
        return []
    return [s for s in rules.teams[rules.side_of_seat[seat]] if s != seat]


def _play_out(state: HandState, player: Player, kept: list[int] | None = None) -> None:
    """Play ``state`` to its end; ``kept`` gets the contractor's hand as play begins. The
    player's actions are legal (a bot chooses among the legal actions), so they are applied
    unchecked, as a balance study applies them."""
    while state.phase != OVER:
        if kept is not None and not kept and state.phase == PLAY:
            kept.append(state.hands[state.contractor])
        state.apply_fast(player(state))


def _taken(state: HandState) -> int:
    return sum(w for s, w in enumerate(state.tricks_won) if state.allies >> s & 1)


def _fit(rules: Rules, own: Count, misere: MisereScore, player: Player) -> HandModel:
    n = rules.players
    suits: list[tuple[float, float, float]] = []
    nts: list[tuple[float, float, float]] = []
    gains: list[float] = []
    mis: dict[int, list[tuple[float, bool]]] = {}
    lowest = {
        s: min(
            (
                i
                for i in range(rules.n_bids)
                if rules.bid_kind[i] == "suit" and rules.bid_strain[i] == s
            ),
            key=lambda i: rules.bid_level[i],
            default=-1,
        )
        for s in range(5)
    }
    misere_bids = [
        i for i in range(rules.n_bids) if rules.bid_kind[i] == "misere" and not rules.bid_blind[i]
    ]
    for k in range(DEALS):
        base = HandState.new(rules, dealer=k % n, rng=Random(7919 * k + 17))
        counts = [[own(rules, base.hands[s], st) for st in range(5)] for s in range(n)]
        for seat in [(k + j) % n for j in range(min(n, SUIT_SEATS))]:
            suit = max(
                (st for st in range(4) if lowest[st] >= 0),
                key=lambda st: counts[seat][st],
                default=-1,
            )
            if suit < 0:
                break
            st = base.copy()
            st.end_auction_with(seat, lowest[suit])
            kept: list[int] = []
            _play_out(st, player, kept)
            mate = sum(counts[p][suit] for p in _partners(rules, seat))
            suits.append((counts[seat][suit], mate, float(_taken(st))))
            if kept and rules.kitty_take and rules.discard_count:
                gains.append(own(rules, kept[0], suit) - counts[seat][suit])
        if lowest[NT] >= 0:
            ntseat = max(range(n), key=lambda s: counts[s][NT])
            st = base.copy()
            st.end_auction_with(ntseat, lowest[NT])
            _play_out(st, player)
            mate = sum(counts[p][NT] for p in _partners(rules, ntseat))
            nts.append((counts[ntseat][NT], mate, float(_taken(st))))
        if misere_bids:
            scores = [misere(rules, base.hands[s]) for s in range(n)]
            mseat = min(range(n), key=lambda s: (scores[s], (s - k) % n))
            for i in misere_bids:
                st = base.copy()
                st.end_auction_with(mseat, i)
                _play_out(st, player)
                mis.setdefault(i, []).append((scores[mseat], _taken(st) == 0))
    suit_fit = _linear(suits)
    nt_fit = _linear(nts, fallback=suit_fit) if nts else suit_fit
    return HandModel(
        suit=suit_fit,
        nt=nt_fit,
        misere={i: _logistic(rows) for i, rows in mis.items()},
        kitty_gain=sum(gains) / len(gains) if gains else 0.0,
    )


def shifted(model: HandModel, offset: float, won: int = 0) -> HandModel:
    """``model`` with ``offset`` tricks (in place of its own) added to both fits' intercepts."""
    d = offset - model.offset
    return replace(
        model,
        suit=replace(model.suit, a=model.suit.a + d),
        nt=replace(model.nt, a=model.nt.a + d),
        offset=offset,
        won=won,
    )


def calibrate(rules: Rules, model: HandModel, bidder: Bidder, player: Player) -> HandModel:
    """The second stage: ``model`` with the offset by which the contracts the bots win in whole
    auctions fall short of (or exceed) the means their winning bids stated, fitted in
    :data:`ROUNDS` rounds on the same :data:`AUCTIONS` deals (each round with the offset so far
    applied, added to ``model``'s own)."""
    n = rules.players
    bids = range(rules.BID, rules.BID + rules.n_bids)
    #: The tricks taken by deal, contractor and contract: a later round that ends a deal's
    #: auction as an earlier one did needs no second play-out (the play is deterministic).
    played: dict[tuple[int, int, int], int] = {}
    for _ in range(ROUNDS):
        rows: list[float] = []
        for k in range(AUCTIONS):
            st = HandState.new(rules, dealer=k % n, rng=Random(104729 * k + 31))
            stated: dict[int, tuple[int, float]] = {}
            while st.phase == AUCTION:
                seat = st.to_move
                action, mean = bidder(st, model)
                if mean is not None and action in bids:
                    stated[seat] = (action - rules.BID, mean)
                st.apply_fast(action)  # the bot's call, legal
            if st.contract < 0 or st.phase == OVER:
                continue
            hit = stated.get(st.contractor)
            if hit is None or hit[0] != st.contract:
                continue
            key = (k, st.contractor, st.contract)
            if key not in played:
                _play_out(st, player)
                played[key] = _taken(st)
            rows.append(played[key] - hit[1])
        if not rows:
            break
        short = sum(rows) / (len(rows) + OFFSET_PRIOR)
        # The winner's curse only overstates: contracts that make more than they stated leave
        # the first fit as it is (a bolder model fills the auctions with marginal bids).
        model = shifted(model, min(0.0, model.offset + short), len(rows))
    return model


def _linear(rows: list[tuple[float, float, float]], fallback: LinearFit | None = None) -> LinearFit:
    """Least squares of tricks on (own, partners), slopes shrunk toward a weak prior."""
    m = len(rows)
    if m < 3:
        if fallback is not None:
            return fallback
        return LinearFit(0.0, 1.0, 0.0, 1.5, 0.0)
    mx = sum(r[0] for r in rows) / m
    mp = sum(r[1] for r in rows) / m
    my = sum(r[2] for r in rows) / m
    sxx = sum((r[0] - mx) ** 2 for r in rows)
    spp = sum((r[1] - mp) ** 2 for r in rows)
    sxp = sum((r[0] - mx) * (r[1] - mp) for r in rows)
    sxy = sum((r[0] - mx) * (r[2] - my) for r in rows)
    spy = sum((r[1] - mp) * (r[2] - my) for r in rows)
    ridge = 0.05 * m  # a little shrinkage keeps the slopes sane on few or collinear deals
    sxx += ridge
    spp += ridge if spp > 1e-9 else 1.0
    det = sxx * spp - sxp * sxp
    b = (sxy * spp - spy * sxp) / det
    c = (spy * sxx - sxy * sxp) / det if spp > 1e-9 else 0.0
    b = max(0.2, b)
    c = max(0.0, c)
    a = my - b * mx - c * mp
    rss = sum((r[2] - (a + b * r[0] + c * r[1])) ** 2 for r in rows)
    sd = math.sqrt(rss / max(1, m - 3))
    return LinearFit(a, b, c, sd, mp)


def _logistic(rows: list[tuple[float, bool]]) -> MisereFit:
    """Logistic regression of made on score by Newton's method, with a ridge on the slope."""
    made = sum(1 for _, ok in rows if ok)
    w0, w1 = 0.0, -1.0
    for _ in range(25):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for x, ok in rows:
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, w0 + w1 * x))))
            e = (1.0 if ok else 0.0) - p
            w = p * (1.0 - p)
            g0 += e
            g1 += e * x
            h00 += w
            h01 += w * x
            h11 += w * x * x
        lam = 1.0
        g0 -= 0.1 * w0
        g1 -= lam * (w1 + 1.0)
        h00 += 0.1
        h11 += lam
        det = h00 * h11 - h01 * h01
        if det <= 1e-12:
            break
        d0 = (g0 * h11 - g1 * h01) / det
        d1 = (g1 * h00 - g0 * h01) / det
        w0 += d0
        w1 += d1
        if abs(d0) + abs(d1) < 1e-6:
            break
    return MisereFit(w0, min(0.0, w1), made, len(rows))
