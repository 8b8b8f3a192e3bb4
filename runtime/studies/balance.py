"""Balance studies: many whole games of a variant played by bots, tallied for a rule author.

``fivehundred balance`` plays N whole games of a variant (and, with ``--against``, the same N
games of another) and reports what the rules do to the game: which contracts are played, how
often they are made, what a hand is worth, how long a game lasts and how it ends, whether the
dealer's seat has an edge, and which clauses of the rule book ever decided something.

Reproducible by construction:

- game ``i`` of a study with master seed ``S`` is played from two seeds derived from ``(S, i)``
  alone (:func:`game_seeds`): one shuffles the deals, the other drives the bots, so game ``i`` of
  variant A and game ``i`` of variant B see the same deals for as long as their decks agree
  (the deals pair up), and no game depends on which process plays it;
- a game is folded into a :class:`Tally` of integer counts, sums and sums of squares only, and
  tallies of consecutive chunks of games are merged in game order, so one worker, K workers and a
  Ray cluster give bit-identical figures for the same seed.

The figures (:func:`figures`) are :class:`~.stats.Proportion` and :class:`~.stats.Mean` values
with 95% confidence intervals; :func:`compare` sets two studies side by side with the
difference and whether it is significant (two-proportion z-test, Welch's t-test).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..bots.registry import BOTS, Bot, BotSpecError, make_bot
from ..engine.codes import NT, STRAINS
from ..engine.errors import FiveHundredError
from ..engine.fingerprint import rules_fingerprint
from ..engine.game import NO_WINNER, Match
from ..engine.rules import Rules
from .rare import SITUATIONS, hand_situations, situation_applies
from .reached import EVENTS, end_events, event_applies, hand_events
from .simulate import check_hand
from .stats import Comparison, Mean, Proportion, compare_means, compare_proportions

if TYPE_CHECKING:
    from ..engine.tableformat import Tables

__all__ = [
    "DEFAULT_BOT",
    "DEFAULT_MAX_HANDS",
    "ENDINGS",
    "BalanceError",
    "Study",
    "Tally",
    "compare",
    "default_bot",
    "figures",
    "game_seeds",
    "play_games",
    "rules_fingerprint",
    "run_study",
]

#: The bot a study uses unless told otherwise (the first of these that exists).
DEFAULT_BOT = "heuristic"
#: A game still on after this many hands is cut off (and counted as such).
DEFAULT_MAX_HANDS = 200

#: How a game ends, in report order.
ENDINGS: dict[str, str] = {
    "contract": "a side reached the target on its own successful contract",
    "defence": "a side reached the target on its tricks against a contract",
    "out-backwards": "a side went out backwards and the game was over",
    "no-winner": "the game ended without a winner",
    "cut-off": "cut off: still on after the hand limit",
}


class BalanceError(FiveHundredError):
    """A balance study cannot run as asked (bad counts, unknown bot, output folder not ours)."""


def default_bot() -> str:
    """:data:`DEFAULT_BOT` when registered, else ``random`` (a registry without it)."""
    return DEFAULT_BOT if DEFAULT_BOT in BOTS else "random"


def game_seeds(master: int, game: int) -> tuple[int, int]:
    """The deal seed and the bot seed of game ``game`` of a study with seed ``master``.

    Derived with BLAKE2b from the two numbers alone (never from Python's salted ``hash``), so
    every process, machine and Python version gets the same two seeds.
    """
    digest = hashlib.blake2b(f"fivehundred-balance/{master}/{game}".encode(), digest_size=16)
    raw = digest.digest()
    return int.from_bytes(raw[:8], "big"), int.from_bytes(raw[8:], "big")


# -- one tally --------------------------------------------------------------------------------


def _acc() -> list[int]:
    return [0, 0, 0]  # count, sum, sum of squares


def _add(acc: list[int], x: int) -> None:
    acc[0] += 1
    acc[1] += x
    acc[2] += x * x


def _merge_counts(mine: dict[Any, int], other: Mapping[Any, int]) -> None:
    for key, n in other.items():
        mine[key] = mine.get(key, 0) + n


def _merge_accs(mine: dict[Any, list[int]], other: Mapping[Any, list[int]]) -> None:
    for key, acc in other.items():
        m = mine.setdefault(key, _acc())
        for i in range(3):
            m[i] += acc[i]


@dataclass
class Tally:
    """Integer counts of a set of games; :meth:`merge` adds another tally (order-free, exact)."""

    games: int = 0
    hands: int = 0
    #: hands per game
    length: list[int] = field(default_factory=_acc)
    #: contracts by ladder index (-1: everybody passed, -2: redealt on a claim of no ace, no
    #: face), and how many of them were made
    contracts: dict[int, int] = field(default_factory=dict)
    made: dict[int, int] = field(default_factory=dict)
    #: points of the contractor's side, and of all the other sides together, per contract hand
    gain: list[int] = field(default_factory=_acc)
    against: list[int] = field(default_factory=_acc)
    #: per hand, points of the side of the seat at position p from the dealer (0 = dealer)
    position_points: dict[int, list[int]] = field(default_factory=dict)
    #: contracts won by the seat at position p from the dealer
    position_contracts: dict[int, int] = field(default_factory=dict)
    #: how games ended (keys of ENDINGS)
    endings: dict[str, int] = field(default_factory=dict)
    #: games won by the side of the seat at position p from the first dealer
    position_wins: dict[int, int] = field(default_factory=dict)
    #: hands and games in which each event (reached.EVENTS key) happened
    event_hands: dict[str, int] = field(default_factory=dict)
    event_games: dict[str, int] = field(default_factory=dict)
    #: hands in which each situation (reached.SITUATIONS key) arose
    situation_hands: dict[str, int] = field(default_factory=dict)
    #: after hand k (1-based): [games still on, sum of the final leader's score, sum of the
    #: best other side's score]
    trajectory: dict[int, list[int]] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        """Add ``other`` into this tally."""
        self.games += other.games
        self.hands += other.hands
        for i in range(3):
            self.length[i] += other.length[i]
            self.gain[i] += other.gain[i]
            self.against[i] += other.against[i]
        _merge_counts(self.contracts, other.contracts)
        _merge_counts(self.made, other.made)
        _merge_accs(self.position_points, other.position_points)
        _merge_counts(self.position_contracts, other.position_contracts)
        _merge_counts(self.endings, other.endings)
        _merge_counts(self.position_wins, other.position_wins)
        _merge_counts(self.event_hands, other.event_hands)
        _merge_counts(self.event_games, other.event_games)
        _merge_counts(self.situation_hands, other.situation_hands)
        _merge_accs(self.trajectory, other.trajectory)


# -- playing ----------------------------------------------------------------------------------


def _make_bots(names: tuple[str, ...], players: int) -> list[Bot]:
    if len(names) == 1:
        names = names * players
    return [make_bot(name) for name in names]


def play_game(
    rules: Rules, bots: tuple[str, ...], master: int, game: int, max_hands: int, tally: Tally
) -> None:
    """Play game ``game`` of the study with seed ``master`` and fold it into ``tally``."""
    deal_seed, bot_seed = game_seeds(master, game)
    players = _make_bots(bots, rules.players)
    bot_rng = Random(bot_seed)
    match = Match(rules, Random(deal_seed))
    n, sides = rules.players, rules.side_of_seat
    first_dealer = match.dealer
    history: list[tuple[int, ...]] = []
    game_events: set[str] = set()
    while match.winner is None and match.hands_played < max_hands:
        st = match.hand
        controller, apply = st.controller, st.apply_fast
        while st.result is None:
            apply(players[controller(st.to_move)].choose(st, bot_rng))
        check_hand(st)
        before = list(match.scores)
        dealer = st.dealer
        res = match.finish_hand()
        events = hand_events(st)
        events |= end_events(rules, before, match.scores, match.winner)
        tally.hands += 1
        played = -2 if res.redeal else res.contract  # -2: redealt (no ace, no face)
        tally.contracts[played] = tally.contracts.get(played, 0) + 1
        if res.contract >= 0:
            if res.made:
                tally.made[res.contract] = tally.made.get(res.contract, 0) + 1
            pos = (res.contractor - dealer) % n
            tally.position_contracts[pos] = tally.position_contracts.get(pos, 0) + 1
            allied = {sides[s] for s in res.allies}
            _add(tally.gain, res.points[sides[res.contractor]])
            _add(tally.against, sum(p for s, p in enumerate(res.points) if s not in allied))
        for pos in range(n):
            acc = tally.position_points.setdefault(pos, _acc())
            _add(acc, res.points[sides[(dealer + pos) % n]])
        for key in events:
            tally.event_hands[key] = tally.event_hands.get(key, 0) + 1
        for key in hand_situations(st):
            tally.situation_hands[key] = tally.situation_hands.get(key, 0) + 1
        game_events |= events
        history.append(tuple(match.scores))
    tally.games += 1
    _add(tally.length, match.hands_played)
    ending = _ending(rules, match, history)
    tally.endings[ending] = tally.endings.get(ending, 0) + 1
    for key in game_events:
        tally.event_games[key] = tally.event_games.get(key, 0) + 1
    final = history[-1]
    if match.winner is not None and match.winner >= 0:
        leader = match.winner
        for pos in range(n):
            if sides[(first_dealer + pos) % n] == leader:
                tally.position_wins[pos] = tally.position_wins.get(pos, 0) + 1
    else:
        leader = max(range(rules.n_sides), key=lambda s: final[s])
    for k, scores in enumerate(history, 1):
        point = tally.trajectory.setdefault(k, _acc())
        point[0] += 1
        point[1] += scores[leader]
        point[2] += max((scores[s] for s in range(rules.n_sides) if s != leader), default=0)


def _ending(rules: Rules, match: Match, history: list[tuple[int, ...]]) -> str:
    if match.winner is None:
        return "cut-off"
    if match.winner == NO_WINNER:
        return "no-winner"
    final = history[-1]
    if final[match.winner] < rules.target:
        return "out-backwards"
    res = match.hand.result
    if (
        res is not None
        and res.contract >= 0
        and res.made
        and match.winner in {rules.side_of_seat[s] for s in res.allies}
    ):
        return "contract"
    return "defence"


def play_games(
    tables: Mapping[str, Any],
    bots: tuple[str, ...],
    master: int,
    start: int,
    stop: int,
    max_hands: int,
) -> Tally:
    """Games ``start`` .. ``stop - 1`` of a study, folded in order into one tally.

    The unit of work sent to a worker process or a Ray task: only plain data goes in (the
    ruleset's tables, bot names, numbers) and one tally of integers comes back.
    """
    rules = Rules(cast("Tables", tables))
    tally = Tally()
    for game in range(start, stop):
        play_game(rules, bots, master, game, max_hands, tally)
    return tally


# -- running a study --------------------------------------------------------------------------


@dataclass
class Study:
    """One variant's study: its rules, what was asked, the tally and how long it took."""

    rules: Rules
    games: int
    seed: int
    bots: tuple[str, ...]
    max_hands: int
    tally: Tally = field(default_factory=Tally)
    seconds: float = 0.0


#: ``progress(done, total)`` in games.
Progress = Callable[[int, int], None]


#: The most processes a study runs on this machine (``--workers`` above it is refused).
MAX_WORKERS = 1024


def _chunk_size(games: int, workers: int) -> int:
    return max(1, min(25, -(-games // (workers * 8))))


def _jobs(studies: int, games: int, size: int) -> Iterator[tuple[int, int, int]]:
    """The chunks ``(study, start, stop)`` in game order, made as they are asked for (a study
    of 10**8 games lists none of them up front)."""
    for i in range(studies):
        for start in range(0, games, size):
            yield i, start, min(games, start + size)


def run_study(
    rules_list: list[Rules],
    games: int,
    *,
    seed: int = 1,
    bots: tuple[str, ...] | None = None,
    workers: int | None = None,
    ray: str | None = None,
    max_hands: int = DEFAULT_MAX_HANDS,
    progress: Progress | None = None,
) -> list[Study]:
    """Play ``games`` games of each ruleset with the same game seeds; one :class:`Study` each.

    ``workers`` processes on this machine (default: all cores; 1 plays in this process), or,
    with ``ray`` (``"local"`` or a cluster address), Ray tasks. The figures do not depend on
    either.
    """
    if games < 1:
        raise BalanceError(f"--games must be at least 1, not {games}")
    if max_hands < 1:
        raise BalanceError(f"--max-hands must be at least 1, not {max_hands}")
    names = bots or (default_bot(),)
    for rules in rules_list:
        for name in names:
            try:
                make_bot(name)
            except BotSpecError as exc:
                raise BalanceError(f"--bots: {exc}") from None
        if len(names) not in (1, rules.players):
            raise BalanceError(f"give 1 bot or {rules.players} (one per seat), not {len(names)}")
    k = workers if workers is not None else (os.cpu_count() or 1)
    if not 1 <= k <= MAX_WORKERS:
        raise BalanceError(f"--workers must be from 1 to {MAX_WORKERS}, not {k}")
    studies = [Study(r, games, seed, names, max_hands) for r in rules_list]
    size = _chunk_size(games, k)
    n_jobs = len(studies) * -(-games // size)
    k = min(k, n_jobs)  # never more processes than chunks to play
    jobs = _Jobs(len(studies), games, size)
    total = games * len(studies)
    done = 0
    began = time.perf_counter()
    if ray is not None:
        results: Iterator[tuple[int, Tally]] = _run_ray(studies, jobs, ray, k if workers else None)
    elif k == 1:
        results = (
            (n, play_games(studies[i].rules.tables, names, seed, a, b, max_hands))
            for n, (i, a, b) in enumerate(_jobs(len(studies), games, size))
        )
    else:
        results = _run_processes(studies, jobs, k)
    # Merge strictly in game order, whatever order the chunks finish in.
    pending: dict[int, Tally] = {}
    next_job = 0
    for n, part in results:
        pending[n] = part
        done += jobs[n][2] - jobs[n][1]
        while next_job in pending:
            studies[jobs[next_job][0]].tally.merge(pending.pop(next_job))
            next_job += 1
        if progress is not None:
            progress(done, total)
    elapsed = time.perf_counter() - began
    for study in studies:
        study.seconds = elapsed / len(studies)
    return studies


@dataclass(frozen=True)
class _Jobs:
    """The chunks of a study by number, computed rather than listed: job ``n`` is chunk
    ``n % per_study`` of study ``n // per_study``."""

    studies: int
    games: int
    size: int

    def __getitem__(self, n: int) -> tuple[int, int, int]:
        per_study = -(-self.games // self.size)
        i, c = divmod(n, per_study)
        start = c * self.size
        return i, start, min(self.games, start + self.size)

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        return _jobs(self.studies, self.games, self.size)


#: A handle of a running chunk (a future, a Ray object reference).
H = TypeVar("H", bound=Hashable)


def _in_window(
    jobs: Iterable[tuple[int, int, int]],
    window: int,
    submit: Callable[[int, int, int], H],
    first_done: Callable[[list[H]], Iterable[tuple[H, Tally]]],
) -> Iterator[tuple[int, Tally]]:
    """Run the chunks ``jobs`` with at most ``window`` in flight (memory stays flat for any
    --games): ``submit(study, start, stop)`` starts one and returns its handle,
    ``first_done(handles)`` waits for at least one and gives ``(handle, tally)`` of those
    finished. Yields (job number, tally) as they finish; handles still running when the
    caller stops early are the caller's to cancel."""
    running: dict[H, int] = {}
    todo = iter(enumerate(jobs))
    while True:
        for n, (i, a, b) in todo:
            running[submit(i, a, b)] = n
            if len(running) >= window:
                break
        if not running:
            return
        for handle, tally in first_done(list(running)):
            yield running.pop(handle), tally


def _run_processes(
    studies: list[Study], jobs: Iterable[tuple[int, int, int]], workers: int
) -> Iterator[tuple[int, Tally]]:
    """Chunks on a process pool, at most a few per worker in flight; yields (job number,
    tally) as they finish."""
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    s0 = studies[0]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        running: set[Future[Tally]] = set()  # only those in flight: memory flat for any --games

        def submit(i: int, a: int, b: int) -> Future[Tally]:
            tables = studies[i].rules.tables
            fut = pool.submit(play_games, tables, s0.bots, s0.seed, a, b, s0.max_hands)
            running.add(fut)
            return fut

        def first_done(futures: list[Future[Tally]]) -> Iterable[tuple[Future[Tally], Tally]]:
            finished, _ = wait(futures, return_when=FIRST_COMPLETED)
            running.difference_update(finished)
            return [(fut, fut.result()) for fut in finished]

        try:
            yield from _in_window(jobs, workers * 4, submit, first_done)
        finally:
            for fut in running:
                fut.cancel()  # a no-op for those done


def _run_ray(
    studies: list[Study], jobs: Iterable[tuple[int, int, int]], address: str, cpus: int | None
) -> Iterator[tuple[int, Tally]]:
    """Chunks as Ray tasks (at most a few per cluster CPU in flight); yields (job number,
    tally) as they finish."""
    try:
        ray: Any = importlib.import_module("ray")  # the optional extra: typed loosely
    except ImportError:
        raise BalanceError(
            "--ray needs Ray: pip install 'fivehundred[ray]' (on every machine of the cluster)"
        ) from None
    import logging

    if not ray.is_initialized():
        options: dict[str, Any] = {
            "logging_level": logging.WARNING,
            "log_to_driver": False,
            "include_dashboard": False,
        }
        try:
            if address == "local":
                ray.init(num_cpus=cpus, **options)
            else:
                ray.init(address=address, **options)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise BalanceError(f"--ray {address}: cannot connect: {exc}") from None
    task = ray.remote(play_games)
    s0 = studies[0]
    tables = [ray.put(dict(study.rules.tables)) for study in studies]
    window = max(16, 4 * int(ray.cluster_resources().get("CPU", 1)))

    def submit(i: int, a: int, b: int) -> Any:
        return task.remote(tables[i], s0.bots, s0.seed, a, b, s0.max_hands)

    def first_done(refs: list[Any]) -> Iterable[tuple[Any, Tally]]:
        ready, _ = ray.wait(refs, num_returns=1)
        return [(ref, ray.get(ref)) for ref in ready]

    yield from _in_window(jobs, window, submit, first_done)


# -- figures ----------------------------------------------------------------------------------

Figure = Proportion | Mean
#: Figure groups, in report order, and what the denominator of a missing key is.
GROUPS: dict[str, str] = {
    "game": "-",
    "contracts": "hands",
    "kinds": "hands",
    "make_rate": "none",
    "points": "-",
    "endings": "games",
    "first_dealer": "none",  # positions differ between seatings: no 0-of-n stand-in
    "position_points": "-",
    "position_contracts": "none",
    "clauses": "hands",
    "situations": "hands",
}


def _mean(acc: list[int]) -> Mean:
    return Mean(acc[0], acc[1], acc[2])


def kind_of(rules: Rules, i: int) -> str:
    """A ladder entry's kind for the distribution: its strain (S C D H NT) or its misère code."""
    if i == -2:
        return "redeal"
    if i < 0:
        return "pass"
    if rules.bid_kind[i] == "misere":
        return rules.bid_codes[i]
    return STRAINS[rules.bid_strain[i]] if rules.bid_strain[i] <= NT else "NT"


def side_positions(rules: Rules) -> list[int]:
    """Seat positions from the dealer (0 = dealer, 1 = his left, ...), one per side: the first
    position of each side (partners sit at positions that differ by the number of sides)."""
    n, sides = rules.players, rules.side_of_seat
    seen: set[int] = set()
    out = []
    for pos in range(n):
        side = sides[pos % n]
        if side not in seen:
            seen.add(side)
            out.append(pos)
    return out


def figures(study: Study) -> dict[str, dict[str, Figure]]:
    """Every figure of a study, by group and key, in report order."""
    r, t = study.rules, study.tally
    hands = t.hands
    out: dict[str, dict[str, Figure]] = {g: {} for g in GROUPS}
    out["game"]["hands_per_game"] = _mean(t.length)
    redeal = [-2] if -2 in t.contracts else []  # no ace, no face: hands redealt
    for i in [*range(r.n_bids), -1, *redeal]:
        if i in t.contracts or (i >= 0 and r.bid_kind[i] == "misere"):
            out["contracts"][r.bid_codes[i] if i >= 0 else kind_of(r, i)] = Proportion(
                t.contracts.get(i, 0), hands
            )
    kinds: dict[str, int] = {}
    for i in [*range(r.n_bids), -1, *redeal]:
        kinds.setdefault(kind_of(r, i), 0)
        kinds[kind_of(r, i)] += t.contracts.get(i, 0)
    for kind, k in kinds.items():
        out["kinds"][kind] = Proportion(k, hands)
    levels: dict[str, list[int]] = {}
    ladder = sorted(range(r.n_bids), key=lambda i: (r.bid_kind[i] == "misere", r.bid_level[i]))
    for i in ladder:
        key = r.bid_codes[i] if r.bid_kind[i] == "misere" else str(r.bid_level[i])
        made_n = levels.setdefault(key, [0, 0])
        made_n[0] += t.made.get(i, 0)
        made_n[1] += t.contracts.get(i, 0)
    for key, (k, n) in levels.items():
        out["make_rate"][key] = Proportion(k, n)
    contracted = hands - t.contracts.get(-1, 0) - t.contracts.get(-2, 0)
    out["make_rate"]["all"] = Proportion(sum(t.made.values()), contracted)
    out["points"]["contractor"] = _mean(t.gain)
    out["points"]["opponents"] = _mean(t.against)
    for key in ENDINGS:
        out["endings"][key] = Proportion(t.endings.get(key, 0), t.games)
    for pos in side_positions(r):
        out["first_dealer"][str(pos)] = Proportion(t.position_wins.get(pos, 0), t.games)
        out["position_points"][str(pos)] = _mean(t.position_points.get(pos, _acc()))
    for pos in range(r.players):
        out["position_contracts"][str(pos)] = Proportion(
            t.position_contracts.get(pos, 0), contracted
        )
    for key in EVENTS:
        if event_applies(r, key) or key in t.event_hands:
            out["clauses"][key] = Proportion(t.event_hands.get(key, 0), hands)
    for key in SITUATIONS:
        if situation_applies(r, key) or key in t.situation_hands:
            out["situations"][key] = Proportion(t.situation_hands.get(key, 0), hands)
    return out


def _denominator(study: Study, group: str) -> int:
    how = GROUPS[group]
    t = study.tally
    if how == "hands":
        return t.hands
    if how == "games":
        return t.games
    return 0


def compare(a: Study, b: Study) -> dict[str, dict[str, tuple[Figure, Figure, Comparison]]]:
    """Every figure of ``a`` and ``b`` side by side with b - a, its interval and its test.

    A figure that one side lacks (a bid its ladder does not have, a clause it does not have)
    counts there as 0 of that side's hands or games; a mean it lacks is empty.
    """
    fa, fb = figures(a), figures(b)
    out: dict[str, dict[str, tuple[Figure, Figure, Comparison]]] = {}
    for group in GROUPS:
        rows: dict[str, tuple[Figure, Figure, Comparison]] = {}
        keys = list(fa[group]) + [k for k in fb[group] if k not in fa[group]]
        for key in keys:
            x = fa[group].get(key)
            y = fb[group].get(key)
            sample = x if x is not None else y
            if isinstance(sample, Mean):
                mx = x if isinstance(x, Mean) else Mean(0, 0, 0)
                my = y if isinstance(y, Mean) else Mean(0, 0, 0)
                rows[key] = (mx, my, compare_means(mx, my))
            else:
                px = x if isinstance(x, Proportion) else Proportion(0, _denominator(a, group))
                py = y if isinstance(y, Proportion) else Proportion(0, _denominator(b, group))
                rows[key] = (px, py, compare_proportions(px, py))
        out[group] = rows
    return out


def trajectory(study: Study, min_games: float = 0.05) -> list[tuple[int, int, float, float]]:
    """Score over hands: (hand, games still on, mean score of the final leader, of the best
    other side) for each hand while at least ``min_games`` of the games are still on."""
    t = study.tally
    out = []
    for k in sorted(t.trajectory):
        on, lead, other = t.trajectory[k]
        if on < max(1, min_games * t.games):
            break
        out.append((k, on, lead / on, other / on))
    return out
