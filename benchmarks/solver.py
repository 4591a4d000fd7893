"""Benchmark of the hand solver (engine.solver.best_arrangement) against the brute-force reference.

Run from the repository root:  python benchmarks/solver.py [--reference-hands N]

The corpus is fixed (seeded): random hands of every preset and every round, the 23 rounds of
Pay Me's full cycle, and adversarial hands (one long suit plus several wild cards; 14-card
full-cycle hands from three decks, some with 8 wilds). Each hand is timed with the solver's
shared cache cleared first, so every hand is solved from scratch; the corpus is timed in several
passes and each hand keeps its fastest pass, which filters out noise from other processes.

The brute-force reference (tests/engine/reference.py: every subset of the hand) is timed on a
sample of the same corpus in the same run, and the ratio of median times is printed.

With ``--baseline DIR`` (a checkout of another version, e.g. ``git worktree add /tmp/main main``) the
same benchmark first runs on that checkout's engine, in a child process, so both sets of figures
come from one run.

With ``--five-crowns N`` it times N random 13-card Five Crowns hands (round 11: Kings and jokers
wild, from two 58-card packs of five suits) beside N random 13-card Three Thirteen hands (round 11,
two decks), interleaved hand by hand in the same run, and prints both medians and their ratio.

With ``--rounds N`` it also scores whole rounds from hands (issue 11, section 5): 8 players with
13-card hands from 3 decks and 6 jokers (Pay Me and 3-13, round 11); the declarer's cards are a
loose hand of melds (some with wild cards whose place is open), split by the engine and kept open
(D13); the other 7 hands are scored in turn order with chained lay-offs (D6, D7, D11). Each round is
timed with every engine cache cleared first, fastest of the passes, in wall and CPU time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# --baseline runs this same script again on another checkout's engine (see main).
sys.path.insert(0, os.environ.get("BENCHMARK_ENGINE_ROOT", str(ROOT)))

from engine import caches, layoffs, solver  # noqa: E402
from engine.cards import Card, Rank, Suit  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from engine.rules import PRESETS, RUMMY_PRESETS, RuleSet, rule_set  # noqa: E402
from engine.schedule import RoundInfo, schedule  # noqa: E402
from tests.engine.reference import reference_best  # noqa: E402

try:
    from engine.deck import STANDARD_SUITS
except ImportError:  # an older engine, given with --baseline: its Suit holds the four suits alone
    STANDARD_SUITS = tuple(Suit)


def _standard_deck(variant: str) -> bool:
    """Whether the preset plays the 52-card deck (an older engine's presets all do)."""
    deck = getattr(PRESETS[variant], "deck", None)
    return deck is None or (tuple(deck.suits) == tuple(STANDARD_SUITS) and len(deck.ranks) == len(Rank))


# The presets whose hands the solver arranges: Contract Rummy's hands are arranged by the players
# (engine.api.verify_hands_arranged), and its 7 deals have no round 11. (An older engine given
# with --baseline may have no deals as data, and no contracts.) The corpus keeps to the 52-card
# deck, as the golden corpus recorded it; Five Crowns has its own mode (--five-crowns).
SOLVED_PRESETS = tuple(
    variant
    for variant in RUMMY_PRESETS
    if not any(deal.contract for deal in getattr(PRESETS[variant], "deals", ())) and _standard_deck(variant)
)


@dataclass(frozen=True)
class Case:
    label: str
    hand: tuple[Card, ...]
    rules: RuleSet
    info: RoundInfo


def _deck(rules: RuleSet) -> list[Card]:
    row = rules.preset.largest_table
    return [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank] * row.decks + [Card.JOKER] * row.jokers


def random_cases(rng: random.Random, per_round: int) -> list[Case]:
    cases = []
    configs = [rule_set(variant) for variant in SOLVED_PRESETS] + [rule_set("pay-me", {"full_cycle": True})]
    for rules in configs:
        deck = _deck(rules)
        label = rules.preset.id + (" full cycle" if rules.options.full_cycle else "")
        for info in schedule(rules):
            for _ in range(per_round):
                cases.append(Case(f"{label} round {info.number}", tuple(rng.sample(deck, info.cards)), rules, info))
    return cases


def _wilds_for(info: RoundInfo, rng: random.Random, count: int) -> list[Card]:
    pool = [Card.JOKER] if info.jokers_wild else []
    pool += [Card(rank, suit) for rank in info.wild_ranks for suit in STANDARD_SUITS]
    return [rng.choice(pool) for _ in range(count)]


def long_suit_cases(rng: random.Random, count: int) -> list[Case]:
    """13 cards: one long stretch of a suit (with holes) plus 2-5 wild cards."""
    cases = []
    for variant in SOLVED_PRESETS:
        rules = rule_set(variant)
        info = schedule(rules)[10]
        for _ in range(count):
            wilds = _wilds_for(info, rng, rng.randint(2, 5))
            suit = rng.choice(list(STANDARD_SUITS))
            naturals = [Card(rank, suit) for rank in Rank if not info.is_wild(Card(rank, suit))]
            naturals = sorted(rng.sample(naturals, 13 - len(wilds)), key=lambda card: card.sort_key)
            cases.append(Case(f"{variant} long suit", tuple(naturals + wilds), rules, info))
    return cases


def full_cycle_cases(rng: random.Random, count: int, wild_count: int | None) -> list[Case]:
    """14-card hands of Pay Me's full cycle (round 12, Aces wild) from three decks."""
    rules = rule_set("pay-me", {"full_cycle": True})
    info = schedule(rules)[11]
    deck = _deck(rules)
    naturals = [card for card in deck if not info.is_wild(card)]
    cases = []
    for _ in range(count):
        if wild_count is None:
            hand = rng.sample(deck, 14)
        else:
            hand = rng.sample(naturals, 14 - wild_count) + _wilds_for(info, rng, wild_count)
        label = "full cycle 14 cards" + (f", {wild_count} wilds" if wild_count is not None else "")
        cases.append(Case(label, tuple(hand), rules, info))
    return cases


def corpus(seed: int, per_round: int) -> list[Case]:
    rng = random.Random(seed)
    return (
        random_cases(rng, per_round)
        + long_suit_cases(rng, 25)
        + full_cycle_cases(rng, 60, None)
        + full_cycle_cases(rng, 40, 8)
    )


@dataclass(frozen=True)
class Round:
    label: str
    declarer: str  # the declarer's cards, a loose hand
    hands: tuple[tuple[Card, ...], ...]
    rules: RuleSet
    info: RoundInfo


def _declarer_cards(rng: random.Random, deck: list[Card], info: RoundInfo) -> list[Card] | None:
    """13 cards that meld completely: runs and sets, now and then a wild card in them."""
    wilds = [card for card in deck if info.is_wild(card)]
    cards: list[Card] = []
    for size in rng.choice([(3, 3, 3, 4), (3, 5, 5), (4, 4, 5), (3, 4, 6), (6, 7), (3, 10)]):
        if rng.random() < 0.5:
            suit = rng.choice(list(STANDARD_SUITS))
            low = rng.randint(2, 14 - size)
            meld = [Card(Rank(place), suit) for place in range(low, low + size)]
        else:
            rank = rng.choice([rank for rank in Rank if rank is not Rank.ACE])
            meld = [Card(rank, rng.choice(list(STANDARD_SUITS))) for _ in range(size)]
        meld = [rng.choice(wilds) if info.is_wild(card) else card for card in meld]
        if rng.random() < 0.4:
            meld[rng.randrange(1, size - 1)] = rng.choice(wilds)
        cards += meld
    for card in cards:
        if card not in deck:
            return None
        deck.remove(card)
    return cards


def round_cases(seed: int, count: int) -> list[Round]:
    rng = random.Random(seed)
    cases = []
    for variant in ("pay-me", "3-13"):
        rules = rule_set(variant)
        info = schedule(rules)[10]
        made = 0
        while made < count:
            deck = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank] * 3 + [Card.JOKER] * 6
            declarer = _declarer_cards(rng, deck, info)
            if declarer is None:
                continue
            text = " ".join(map(str, declarer))
            try:
                layoffs.declarer_melds(text, rules, info)
            except EngineError:
                continue
            rng.shuffle(deck)
            hands = tuple(tuple(deck[13 * seat : 13 * seat + 13]) for seat in range(7))
            cases.append(Round(f"{variant} round 11", text, hands, rules, info))
            made += 1
    return cases


# The solver's caches between calls (engine.caches names them): its solved components, set melds.
SOLVER_CACHES = ("solved components", "set melds by wild count and rules")


def clear_caches() -> None:
    """Forget everything the engine remembers between calls (solved components, lay-offs checked).
    The tables read once per rule set and round (meld rules, wild cards, points by card code) are
    kept, in this engine as in those before it."""
    if hasattr(solver, "_SOLVED"):  # an older engine, given with --baseline: one solver module
        solver._SOLVED.clear()
        getattr(solver, "_SETS", {}).clear()
    else:
        caches.clear_caches(SOLVER_CACHES)
    # The lay-off caches by name: they live in engine.layoff_search and engine.layoff_table now,
    # in engine.layoffs before.
    known = caches.cache_sizes()
    caches.clear_caches([name for name in LAYOFF_CACHES if name in known])


LAYOFF_CACHES = (
    "meld readings by cards, rule set and round",
    "lay-offs checked by rule set and round",
    "lay-offs checked, by identity of the rule set and round",
)


def score_round(case: Round) -> None:
    melds = layoffs.declarer_melds(case.declarer, case.rules, case.info)
    layoffs.score_in_turn(case.hands, melds, case.rules, case.info)


def time_round(case: Round, clock: Callable[[], float]) -> float:
    clear_caches()
    start = clock()
    score_round(case)
    return clock() - start


def run_rounds(args: argparse.Namespace) -> None:
    cases = round_cases(args.seed, args.rounds)
    opened = sum(
        any(meld.is_open for meld in layoffs.declarer_melds(case.declarer, case.rules, case.info)) for case in cases
    )
    print(f"\nWhole rounds from hands, 8 players x 13 cards, 3 decks + 6 jokers, fastest of {args.passes} passes,")
    print(f"every engine cache cleared before each round; load average {os.getloadavg()[0]:.2f}")
    print(f"{opened} of {len(cases)} rounds have a declarer meld with open readings")
    for name, clock in CLOCKS.items():
        best = [float("inf")] * len(cases)
        for _ in range(args.passes):
            for index, case in enumerate(cases):
                best[index] = min(best[index], time_round(case, clock))
        print(f"({name} time)")
        for label in ("pay-me round 11", "3-13 round 11"):
            times = [t for case, t in zip(cases, best, strict=True) if case.label == label]
            print(round_summary(label, times))
        print(round_summary("all rounds", best))
        worst = max(range(len(cases)), key=best.__getitem__)
        print(f"slowest round: {cases[worst].label}, declarer {cases[worst].declarer}")
    print_round_bounds(cases, args.passes)


def print_round_bounds(cases: list[Round], passes: int) -> None:
    """Two reference figures for the same rounds, in CPU time: with lay-offs off (the declarer's
    split and each hand arranged alone: what the lay-off search adds to), and with the engine's
    caches kept from 200 other rounds, each round timed the first time it is seen (a server that
    has scored other rounds before)."""
    plain = [replace(case, rules=rule_set(case.rules.preset.id, {"lay_offs": False})) for case in cases]
    best = [float("inf")] * len(cases)
    for _ in range(passes):
        for index, case in enumerate(plain):
            best[index] = min(best[index], time_round(case, time.process_time))
    print(round_summary("no lay-offs (cpu)", best))
    others = round_cases(1, 100)
    best = [float("inf")] * len(cases)
    for _ in range(passes):
        clear_caches()
        for case in others:
            score_round(case)
        for index, case in enumerate(cases):
            start = time.process_time()
            score_round(case)
            best[index] = min(best[index], time.process_time() - start)
    print(round_summary("caches warm, first sight (cpu)", best))


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def time_cold(case: Case, clock: Callable[[], float]) -> float:
    clear_caches()
    start = clock()
    solver.best_arrangement(case.hand, case.rules, case.info)
    return clock() - start


def time_all(cases: list[Case], passes: int, clock: Callable[[], float]) -> list[float]:
    best = [float("inf")] * len(cases)
    for _ in range(passes):
        for index, case in enumerate(cases):
            best[index] = min(best[index], time_cold(case, clock))
    return best


def time_reference(case: Case) -> float:
    start = time.perf_counter()
    reference_best(case.hand, case.rules, case.info)
    return time.perf_counter() - start


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def round_summary(label: str, times: list[float]) -> str:
    return f"{label:<34} {len(times):>5} rounds median {_ms(statistics.median(times))}  worst {_ms(max(times))}"


def summary(label: str, times: list[float]) -> str:
    return f"{label:<34} {len(times):>5} hands  median {_ms(statistics.median(times))}  worst {_ms(max(times))}"


def _select(cases: list[Case], times: list[float], keep: Callable[[Case], bool]) -> list[float]:
    return [t for case, t in zip(cases, times, strict=True) if keep(case)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-round", type=int, default=20, help="random hands per preset and round")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--reference-hands", type=int, default=40, help="hands also solved by brute force")
    parser.add_argument("--rounds", type=int, default=0, help="whole rounds per preset scored from hands")
    parser.add_argument("--rounds-only", action="store_true", help="only the whole rounds (with --rounds)")
    parser.add_argument(
        "--five-crowns", type=int, default=0, metavar="N", help="only: N Five Crowns and N Three Thirteen 13-card hands"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="another checkout (e.g. of main): the same benchmark on its engine first, in the same run",
    )
    args = parser.parse_args()

    if args.baseline:
        run_baseline(args)
        print(f"\n=== this checkout's engine ({ROOT}) ===")
    print(f"Python {sys.version.split()[0]}, load average before the run: {os.getloadavg()[0]:.2f}")
    if args.five_crowns:
        run_five_crowns(args)
        return
    if not args.rounds_only:
        cases = corpus(args.seed, args.per_round)
        for name, clock in CLOCKS.items():
            times = time_all(cases, args.passes, clock)
            print(f"\nSolver ({name} time), caches cleared before every hand, fastest of {args.passes} passes")
            report(cases, times)
        run_reference(cases, args)
    if args.rounds:
        run_rounds(args)


def run_baseline(args: argparse.Namespace) -> None:
    """This script with the other checkout's engine package first on the path, in a child process."""
    engine_root = args.baseline.resolve()
    if not (engine_root / "engine" / "layoffs.py").is_file():
        raise SystemExit(f"--baseline {args.baseline}: no engine package there.")
    command = [sys.executable, __file__, "--seed", str(args.seed), "--per-round", str(args.per_round)]
    command += [
        "--passes",
        str(args.passes),
        "--reference-hands",
        str(args.reference_hands),
        "--rounds",
        str(args.rounds),
    ]
    command += ["--rounds-only"] if args.rounds_only else []
    print(f"=== baseline: the engine of {engine_root} ===", flush=True)
    subprocess.run(command, check=True, env={**os.environ, "BENCHMARK_ENGINE_ROOT": str(engine_root)})


def report(cases: list[Case], times: list[float]) -> None:
    print(summary("all hands", times))
    print(summary("13-card hands, all", _select(cases, times, lambda case: len(case.hand) == 13)))
    print(summary("13-card hands, random", _select(cases, times, lambda c: len(c.hand) == 13 and "round" in c.label)))
    print(summary("random hands (every preset, round)", _select(cases, times, lambda c: "round" in c.label)))
    print(summary("long suit + wilds", _select(cases, times, lambda case: "long suit" in case.label)))
    print(summary("full cycle 14 cards", _select(cases, times, lambda c: c.label == "full cycle 14 cards")))
    print(summary("full cycle 14 cards, 8 wilds", _select(cases, times, lambda c: "8 wilds" in c.label)))
    worst = max(range(len(cases)), key=times.__getitem__)
    print(f"slowest hand: {cases[worst].label}: {' '.join(map(str, cases[worst].hand))}")


def run_reference(cases: list[Case], args: argparse.Namespace) -> None:
    sample = random.Random(args.seed + 1).sample(
        [case for case in cases if len(case.hand) == 13], min(args.reference_hands, len(cases))
    )
    reference = [time_reference(case) for case in sample]
    solved = time_all(sample, args.passes, time.perf_counter)
    ratio = statistics.median(reference) / statistics.median(solved)
    print(f"\nBrute-force reference on {len(sample)} of the 13-card hands (same run):")
    print(summary("reference", reference))
    print(summary("solver", solved))
    print(f"speed-up (median reference / median solver): {ratio:,.0f}x")


def five_crowns_cases(seed: int, count: int) -> tuple[list[Case], list[Case]]:
    """`count` random 13-card hands of Five Crowns and of Three Thirteen, round 11 of each."""
    from engine.deck import FIVE_CROWNS

    rng = random.Random(seed)
    five, three = rule_set("five-crowns"), rule_set("three-thirteen")
    five_deck = [Card.JOKER if rank is None else Card(rank, suit) for rank, suit in FIVE_CROWNS.cards()]
    three_deck, five_info, three_info = _deck(three), schedule(five)[10], schedule(three)[10]
    return (
        [Case("five-crowns round 11", tuple(rng.sample(five_deck, 13)), five, five_info) for _ in range(count)],
        [Case("three-thirteen round 11", tuple(rng.sample(three_deck, 13)), three, three_info) for _ in range(count)],
    )


def run_five_crowns(args: argparse.Namespace) -> None:
    """Five Crowns hands against Three Thirteen hands, each pair timed one after the other."""
    five, three = five_crowns_cases(args.seed, args.five_crowns)
    for name, clock in CLOCKS.items():
        times = time_all([case for pair in zip(five, three, strict=True) for case in pair], args.passes, clock)
        five_times, three_times = times[0::2], times[1::2]
        print(f"\nSolver ({name} time), caches cleared before every hand, fastest of {args.passes} passes")
        print(summary("Five Crowns 13-card hands", five_times))
        print(summary("Three Thirteen 13-card hands", three_times))
        ratio = statistics.median(five_times) / statistics.median(three_times)
        print(f"median Five Crowns / median Three Thirteen: {ratio:.2f}x")


if __name__ == "__main__":
    main()
