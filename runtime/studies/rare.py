"""Why a rule clause acted in few hands of a balance study: a reason per clause, measured.

A clause a house file changes that the bots reached in under :data:`RARE` of a study's hands
leaves the study's figures saying little about it; the rule book ("How this variant plays") and
the balance report (``--against``) then say why, in one of two kinds:

- :data:`SITUATION`: the situation the rule governs seldom arises whatever the players do
  (every player passing; two sides reaching the target on one hand; a player dealt no ace and
  no face card; a joker led or nominated in a no-trump contract), with how often the study saw
  the situation arise where it counts it (:data:`~.reached.SITUATIONS`, the endings, the
  clause counts of a wider rule);
- :data:`CHOICE`: the computer players seldom choose it (a misère bid the heuristic judges by
  its fitted hand model, :mod:`~..bots.handmodel`, with how often the model's trial deals made
  it: :func:`model_trials`).

The reasons belong to the clauses (:data:`REASONS`), never to a variant: a house file a club
writes that changes one of these clauses gets the same reason. Each sentence is marked with
``N_()`` for the rule books' catalogues; the report prints its English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.game import game_winner
from ..engine.hand import HandResult, HandState
from ..engine.messages import N_
from ..engine.rules import Rules

__all__ = [
    "CHOICE",
    "KIND_WORDS",
    "RARE",
    "REASONS",
    "SITUATION",
    "SITUATIONS",
    "Why",
    "hand_situations",
    "model_trials",
    "situation_applies",
    "why_rare",
]

#: A changed clause that acted in fewer hands than this share is rare: the book and the report
#: say so, and why.
RARE = 0.01

#: The kinds of reason: the situation seldom arises / the players seldom choose it.
SITUATION = "situation"
CHOICE = "choice"
#: Each kind in the report's words.
KIND_WORDS: dict[str, str] = {
    SITUATION: "the situation is rare",
    CHOICE: "the bots seldom choose it",
}

#: Situations a rule governs that arise whatever the players choose, counted beside the
#: clause counts of :mod:`.reached` (one hand counts once per key): how often a rule *could*
#: have acted, where the clause's own count says how often it did. Each key is the clause id
#: whose situation it is.
SITUATIONS: dict[str, str] = {
    "auction.no-ace-no-face": "a player was dealt no ace, no face card and no joker (a hand "
    "that may ask for a redeal)",
}


def situation_applies(rules: Rules, key: str) -> bool:
    """Whether the situation ``key`` is counted under ``rules``: its clause is the variant's."""
    return key in rules.clause_ids


def hand_situations(st: HandState) -> set[str]:
    """The keys of :data:`SITUATIONS` that arose in the hand ``st`` (read from its deal)."""
    r = st.rules
    out: set[str] = set()
    if r.REDEAL >= 0 and any(not hand & r.face_mask for hand in st.dealt[0]):
        out.add("auction.no-ace-no-face")
    return out


#: A study's figures as JSON (``{group: {key: {"k": .., "n": ..}}}``, as
#: :func:`~.balancereport.study_json` writes them) and its model trials (:func:`model_trials`).
Figures = Mapping[str, Mapping[str, Mapping[str, Any]]]
Trials = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class Why:
    """Why ``clause`` acted in few hands: its ``kind``, a sentence (an ``N_()`` message with
    ``%(name)s`` fields) and the whole numbers that fill it."""

    clause: str
    kind: str
    message: str
    args: dict[str, int] = field(default_factory=dict)

    def english(self) -> str:
        """The sentence in English, the numbers grouped (``10,026``)."""
        return self.message % {k: f"{v:,}" for k, v in self.args.items()}


def _count(figs: Figures, group: str, key: str) -> tuple[int, int] | None:
    f = figs.get(group, {}).get(key)
    if not f or not f.get("n"):
        return None
    return int(f["k"]), int(f["n"])


def _all_pass(rules: Rules, figs: Figures, trials: Trials) -> Why | None:
    return Why(
        "auction.all-pass",
        SITUATION,
        N_(
            "It acts only on a hand that every player passes, and in nearly every deal some "
            "player holds a hand the computer players judge worth a bid."
        ),
    )


def _no_ace_no_face(rules: Rules, figs: Figures, trials: Trials) -> Why | None:
    dealt = _count(figs, "situations", "auction.no-ace-no-face")
    if dealt is None:
        return None
    return Why(
        "auction.no-ace-no-face",
        SITUATION,
        N_(
            "It acts only when a player is dealt a hand that may ask for it: a player was dealt "
            "such a hand in %(k)s of %(n)s hands."
        ),
        {"k": dealt[0], "n": dealt[1]},
    )


def _games(figs: Figures) -> int | None:
    endings = figs.get("endings", {})
    return next((int(f["n"]) for f in endings.values() if f.get("n")), None)


def _both_out(rules: Rules, figs: Figures, trials: Trials) -> Why | None:
    acted = _count(figs, "clauses", "end.both-out")
    games = _games(figs)
    if acted is None or games is None:
        return None
    # the clause acts on the hand that ends the game: at most once a game
    return Why(
        "end.both-out",
        SITUATION,
        N_(
            "It acts only on the hand that ends a game, when two or more sides reach the "
            "target on it together: that happened in %(k)s of %(n)s games."
        ),
        {"k": acted[0], "n": games},
    )


def _defence_wins(rules: Rules) -> bool:
    """Whether a side that reaches the target on its tricks against a failed contract wins
    (the engine's :func:`~..engine.game.game_winner` asked: side 0 past the target, the
    contract another side's)."""
    other = next(s for s in range(rules.players) if rules.side_of_seat[s] != 0)
    scores = [0] * rules.n_sides
    scores[0] = rules.target + 10
    zeros = tuple([0] * rules.n_sides)
    result = HandResult(0, other, False, zeros, zeros, True, (other,))
    return game_winner(rules, scores, result) == 0


def _must_bid_to_win(rules: Rules, figs: Figures, trials: Trials) -> Why | None:
    defence = _count(figs, "endings", "defence")
    if not _defence_wins(rules):
        return Why(
            "end.must-bid-to-win",
            SITUATION,
            N_(
                "It acts only when a side reaches the target without a successful contract of "
                "its own."
            ),
        )
    if defence is None:
        return None
    return Why(
        "end.must-bid-to-win",
        SITUATION,
        N_(
            "Here the first side to reach the target wins however it scored, so the rule never "
            "stops a side and there is nothing to count; it matters in the games won on tricks "
            "taken against a contract: %(k)s of %(n)s games."
        ),
        {"k": defence[0], "n": defence[1]},
    )


def _joker_led(figs: Figures) -> tuple[int, int] | None:
    return _count(figs, "clauses", "joker.no-trumps.lead")


def _first_or_last(rules: Rules, figs: Figures, trials: Trials) -> Why | None:
    led = _joker_led(figs)
    nominated = _count(figs, "clauses", "joker.no-trumps.nominate")
    if led is None:
        return None
    if nominated is None:
        return Why(
            "joker.no-trumps.first-or-last",
            SITUATION,
            N_(
                "It acts only in a hand played without trumps, when a player would lead the "
                "joker naming a suit he has already played and still holds: a joker was led "
                "naming a suit in %(led)s of %(n)s hands."
            ),
            {"led": led[0], "n": led[1]},
        )
    return Why(
        "joker.no-trumps.first-or-last",
        SITUATION,
        N_(
            "It acts only in a hand played without trumps, when a joker led naming a suit, "
            "or nominated to one, would be played after its holder has played a card of that "
            "suit and while he still holds one: a joker was led naming a suit in %(led)s of "
            "%(n)s hands, and nominated in %(nominated)s."
        ),
        {"led": led[0], "nominated": nominated[0], "n": led[1]},
    )


def _void_suit(rules: Rules, figs: Figures, trials: Trials) -> Why | None:
    led = _joker_led(figs)
    if led is None:
        return None
    return Why(
        "joker.no-trumps.void-suit",
        SITUATION,
        N_(
            "It acts only in a hand played without trumps, when a player on lead holds a "
            "joker and other cards after showing void in a suit the joker could name: a joker "
            "was led naming a suit in %(led)s of %(n)s hands."
        ),
        {"led": led[0], "n": led[1]},
    )


def _misere_bid(clause: str) -> Callable[[Rules, Figures, Trials], Why | None]:
    """The reason of a misère bid's clause: the bots bid it on their model's chance."""

    def why(rules: Rules, figs: Figures, trials: Trials) -> Why | None:
        found = [t for t in trials.values() if t.get("clause") == clause and t.get("n")]
        if not found:
            return None
        best = max(found, key=lambda t: int(t["made"]) / int(t["n"]))
        return Why(
            clause,
            CHOICE,
            N_(
                "The computer players bid it only when their model gives it a fair chance of "
                "making; in this variant it was made in %(made)s of the %(trials)s trial hands "
                "their model was fitted on, each played by the player with the safest hand for "
                "it."
            ),
            {"made": int(best["made"]), "trials": int(best["n"])},
        )

    return why


#: By clause id: how to say why the clause acted in few hands (None where nothing measured
#: supports a reason).
REASONS: dict[str, Callable[[Rules, Figures, Trials], Why | None]] = {
    "auction.all-pass": _all_pass,
    "auction.no-ace-no-face": _no_ace_no_face,
    "auction.misere": _misere_bid("auction.misere"),
    "auction.open-misere": _misere_bid("auction.open-misere"),
    "joker.no-trumps.first-or-last": _first_or_last,
    "joker.no-trumps.void-suit": _void_suit,
    "end.must-bid-to-win": _must_bid_to_win,
    "end.both-out": _both_out,
}


def why_rare(clause: str, rules: Rules, figs: Figures, trials: Trials | None = None) -> Why | None:
    """Why ``clause`` acted in few hands of the study whose figures are ``figs`` (and whose
    model trials are ``trials``) under ``rules``, or None where no reason is known."""
    reason = REASONS.get(clause)
    return None if reason is None else reason(rules, figs, trials or {})


def model_trials(rules: Rules, bots: Sequence[str]) -> dict[str, dict[str, Any]]:
    """By bid code, for each misère bid the heuristic judges by its fitted model (when every
    seat plays the heuristic): the bid's clause and how many of the model's trial deals made
    it (``{"clause", "made", "n"}``). Fitted once per rules (and kept on disk): deterministic."""
    if not bots or any(b != "heuristic" for b in bots):
        return {}
    from ..bots.heuristic import bid_model

    model = bid_model(rules)
    return {
        rules.bid_codes[i]: {"clause": rules.bid_clause[i], "made": fit.made, "n": fit.n}
        for i, fit in sorted(model.misere.items())
    }
