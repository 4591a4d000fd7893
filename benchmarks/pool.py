"""Benchmark of pool rummy's show check and count (issue 30), beside the Three Thirteen hand solver.

Run from the repository root:  python benchmarks/pool.py [--hands N] [--passes P]

The corpus is fixed (seeded): 13-card hands dealt from pool rummy's 106 cards, each with a random
cut card from the rest of the deck (a printed joker cut makes the aces wild). `check` times the
judgement of 13 cards grouped as a show (engine.pool.show.judge_show): half the shows are random
hands grouped 3-3-3-4 as dealt, half are valid shows built from a pure sequence, a second sequence
and sets. `best` times a hand's count (engine.pool.count.count_hand). The baseline in the same run
is the Three Thirteen hand solver (engine.solver.best_arrangement) on random 13-card hands of round
11. Each call is timed with the engine's caches cleared first (as benchmarks/solver.py does), in CPU
time; each hand keeps its fastest pass. The rows "as the API answers it" time
engine.pool.answers.check_json and best_json, what ``POST /api/check`` and ``/api/best`` (and the
command line) run for pool rummy: the text read, the cut read, judged, answered as JSON.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.solver import clear_caches  # noqa: E402
from engine import solver  # noqa: E402
from engine.cards import Card, MeldCard, Rank  # noqa: E402
from engine.deck import STANDARD_SUITS  # noqa: E402
from engine.pool.answers import best_json, check_json  # noqa: E402
from engine.pool.count import count_hand  # noqa: E402
from engine.pool.cut import PoolDeal, deal_by_cut  # noqa: E402
from engine.pool.show import judge_show  # noqa: E402
from engine.rules import rule_set  # noqa: E402
from engine.schedule import round_info  # noqa: E402

POOL = rule_set("pool-101")
DECK = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank] * 2 + [Card.JOKER] * 2


def random_deal(rng: random.Random) -> tuple[list[Card], PoolDeal]:
    cards = rng.sample(DECK, 14)
    return cards[:13], deal_by_cut(POOL, str(cards[13]))


def valid_show(rng: random.Random) -> tuple[list[list[Card]], PoolDeal]:
    """A pure sequence of 4, a sequence of 3, two sets of 3, under a random cut."""
    suits = rng.sample(STANDARD_SUITS, 4)
    low = rng.randint(1, 9)
    pure = [Card(Rank(rank), suits[0]) for rank in range(low, low + 4)]
    start = rng.randint(1, 11)
    second = [Card(Rank(rank), suits[1]) for rank in range(start, start + 3)]
    ranks = rng.sample([rank for rank in Rank if rank not in (pure[0].rank,)], 2)
    sets = [[Card(rank, suit) for suit in rng.sample(STANDARD_SUITS, 3)] for rank in ranks]
    second[rng.randrange(3)] = Card.JOKER
    return [pure, second, *sets], deal_by_cut(POOL, str(rng.choice(DECK)))


def fastest(calls: list[Callable[[], object]], passes: int) -> list[float]:
    best = [float("inf")] * len(calls)
    for _ in range(passes):
        for index, call in enumerate(calls):
            clear_caches()
            start = time.process_time()
            call()
            best[index] = min(best[index], time.process_time() - start)
    return best


def report(label: str, times: list[float]) -> None:
    median, worst = statistics.median(times) * 1000, max(times) * 1000
    print(f"{label:<44} {len(times):>5} hands  median {median:.3f} ms  worst {worst:.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    dealt = [random_deal(rng) for _ in range(args.hands)]
    shows = [([hand[0:3], hand[3:6], hand[6:9], hand[9:13]], deal) for hand, deal in dealt[: args.hands // 2]]
    shows += [valid_show(rng) for _ in range(args.hands - len(shows))]
    three_13 = rule_set("three-thirteen")
    info = round_info(three_13, 11)
    t13_deck = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank] * 2
    t13_hands = [tuple(rng.sample(t13_deck, 13)) for _ in range(args.hands)]

    def show_call(melds: list[list[Card]], deal: PoolDeal) -> Callable[[], object]:
        grouped = [tuple(MeldCard(card) for card in meld) for meld in melds]
        return lambda: judge_show(grouped, deal)

    report("pool check, a 13-card show (CPU)", fastest([show_call(m, d) for m, d in shows], args.passes))
    counted = fastest([lambda h=h, d=d: count_hand(h, d) for h, d in dealt], args.passes)
    report("pool best, a 13-card hand's count (CPU)", counted)
    lives = [count_hand(hand, deal).lives for hand, deal in dealt]
    report(
        "  of which hands with the two sequences", [time for time, found in zip(counted, lives, strict=True) if found]
    )

    # What POST /api/check and /api/best (and the command line) run: the text read, judged, answered as JSON.
    def texts(melds: list[list[Card]]) -> list[str]:
        return [" ".join(str(card) for card in meld) for meld in melds]

    def cut_of(deal: PoolDeal) -> str:
        return str(deal.cut)

    report(
        "pool check as the API answers it (CPU)",
        fastest(
            [lambda m=m, d=d: check_json("pool-101", None, texts(m), cut_of(d), None) for m, d in shows], args.passes
        ),
    )
    report(
        "pool best as the API answers it (CPU)",
        fastest(
            [lambda h=h, d=d: best_json("pool-101", None, texts([h])[0], cut_of(d), None) for h, d in dealt],
            args.passes,
        ),
    )
    report(
        "baseline: Three Thirteen solver, round 11 (CPU)",
        fastest([lambda h=h: solver.best_arrangement(h, three_13, info) for h in t13_hands], args.passes),
    )
    print(f"hands with two sequences, one pure: {sum(lives)} of {len(dealt)}")


if __name__ == "__main__":
    main()
