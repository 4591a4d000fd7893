"""The golden corpus: the engine's answers, recorded before the rummy core was re-cut (issue 26),
so that moving code can be proved to change no answer.

It holds the JSON answers of ``best`` (``engine.api.best_json``), round scoring with lay-offs
(``turn_scores_json``), ``layoff`` (``layoff_json``), ``check`` (``check_json``) and the declarer's
split (``engine.layoffs.declarer_melds``, every open reading), for the benchmark corpus
(benchmarks/solver.py: 1,540 hands and 80 rounds, seed 2026) and the examples of RULES.md
(sections 2-4 and 9). Tie order and placements are part of the answers, so they are recorded too.

Each section is one file under tests/engine/golden/: one JSON line per call (the call, its
arguments, the answer or the error), gzip-compressed where large. The replay test
(test_golden_corpus.py) computes every line again and compares the text byte for byte.

Write the files again (only in a commit that says which answers change, and why)::

    .venv/bin/python -m tests.engine.golden_corpus --write
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchmarks import solver as benchmark
from engine import api
from engine.errors import EngineError
from engine.layoffs import declarer_melds
from engine.schedule import round_info

GOLDEN = Path(__file__).parent / "golden"
SEED = 2026
ROUNDS_PER_PRESET = 40

Call = tuple[str, dict[str, Any]]

CALLS: dict[str, Callable[..., Any]] = {
    "best": api.best_json,
    "turn_scores": api.turn_scores_json,
    "layoff": api.layoff_json,
    "check": api.check_json,
    "contract": api.contract_json,
}


def _split(variant: str, round_number: int, overrides: dict[str, object] | None, hand: str) -> list[list[str]]:
    """The declarer's split of a loose hand: each meld as written, then every reading still open."""
    rules = api.rules_from(variant, overrides)
    melds = declarer_melds(hand, rules, round_info(rules, round_number))
    return [[" ".join(meld.as_json()), *(str(reading) for reading in meld.readings)] for meld in melds]


CALLS["declarer_split"] = _split


def answer(call: Call) -> Any:
    name, arguments = call
    try:
        return {"answer": CALLS[name](**arguments)}
    except EngineError as refusal:
        return {"error": type(refusal).__name__, "message": str(refusal)}


def line(call: Call) -> str:
    name, arguments = call
    return json.dumps({"call": name, "args": arguments, **answer(call)}, ensure_ascii=False, sort_keys=True)


def _overrides(case: benchmark.Case | benchmark.Round) -> dict[str, object] | None:
    return {"full_cycle": True} if case.rules.options.full_cycle else None


def _text(cards: Any) -> str:
    return " ".join(map(str, cards))


def best_calls() -> Iterator[Call]:
    for case in benchmark.corpus(SEED, 20):
        yield (
            "best",
            {
                "variant": case.rules.preset.id,
                "round_number": case.info.number,
                "overrides": _overrides(case),
                "hand": _text(case.hand),
            },
        )


def check_calls() -> Iterator[Call]:
    """Three or four cards drawn from each benchmark hand (most are refused, with a reason)."""
    rng = random.Random(SEED)
    for case in benchmark.corpus(SEED, 20):
        size = rng.choice((3, 4))
        if len(case.hand) < size:
            continue
        yield (
            "check",
            {
                "variant": case.rules.preset.id,
                "round_number": case.info.number,
                "overrides": _overrides(case),
                "melds": [_text(rng.sample(case.hand, size))],
            },
        )


def _round_arguments(case: benchmark.Round) -> dict[str, Any]:
    return {"variant": case.rules.preset.id, "round_number": case.info.number, "overrides": _overrides(case)}


def round_calls() -> Iterator[Call]:
    """Each benchmark round: the declarer's split, every declared meld checked, the 7 hands scored
    in turn, and each card of the first hand laid off alone onto each of the declarer's melds."""
    for case in benchmark.round_cases(SEED, ROUNDS_PER_PRESET):
        base = _round_arguments(case)
        yield "declarer_split", {**base, "hand": case.declarer}
        split = _split(base["variant"], base["round_number"], base["overrides"], case.declarer)
        yield "check", {**base, "melds": [written for written, *_ in split]}
        hands = [_text(hand) for hand in case.hands]
        yield "turn_scores", {**base, "declarer": [], "hands": hands, "declarer_hand": case.declarer}
        for onto in range(1, len(split) + 1):
            for card in sorted(set(map(str, case.hands[0]))):
                yield "layoff", {**base, "declarer": [], "onto": onto, "cards": card, "declarer_hand": case.declarer}


def _example(name: str, variant: str, round_number: int, options: dict[str, object] | None, **rest: Any) -> Call:
    return name, {"variant": variant, "round_number": round_number, "overrides": options, **rest}


def rules_example_calls() -> Iterator[Call]:
    """The examples of RULES.md sections 2-4 and 9, as calls."""
    # Section 2: runs never wrap around; sets of one rank; suits may repeat unless distinct_suit_sets.
    yield _example("check", "pay-me", 11, None, melds=["KH AH 3H", "QH KH AH", "7C 7C 7D", "AH 2H 3H 4H"])
    yield _example("check", "pay-me", 5, {"distinct_suit_sets": True}, melds=["9C 9C 9D", "9C 9D 9H"])
    yield _example("check", "3-13", 5, None, melds=["JH QH KH AH", "AH 3H 4H"])
    yield _example("check", "pay-me", 5, {"ace": "both"}, melds=["QH KH AH", "KH AH 3H", "AH 3H 4H"])
    yield _example("check", "pay-me", 5, {"no_aces_in_runs": True}, melds=["AH 3H 4H", "AH AC AD", "JK 3H 4H"])
    # Section 3: the wild cards of each preset, the wild limit, adjacent wilds.
    yield _example("check", "pay-me", 5, None, melds=["9C JK 2D QC", "9C JK 2D", "9C 10C JK", "7H 7D 2C JK"])
    yield _example("check", "pay-me-family", 5, None, melds=["9C 2C 10C", "9C JK JC", "7H 7D JK"])
    for meld in ("3C 3D 3H", "9C 3D JC", "3C 3D 9H 9S"):
        yield _example("check", "three-thirteen", 1, None, melds=[meld])
    yield _example("check", "3-13", 1, None, melds=["JK 2C 2D", "9C JK 2D QC", "2H 3H JK"])
    # D1: a wild card is always wild; wild_in_place_natural.
    yield _example("check", "pay-me", 3, None, melds=["5H 5S 5D"])
    yield _example("check", "pay-me", 3, {"wild_in_place_natural": True}, melds=["5H 5S 5D", "4H 5H 6H"])
    # D2: the full cycle's 14-card round, aces wild.
    yield _example("best", "pay-me", 12, {"full_cycle": True}, hand="AS AH 3C 4C 5C 9D 9H 9S KC KD KH 7S 8S 10S")
    # D4: pay-me-family penalties, the round's rank by its tier.
    yield _example("best", "pay-me-family", 5, None, hand="7H 7C JK 2D 9S")
    # D5: a lay-off may not replace a wild; the same position filled once; stay legal.
    yield _example("layoff", "pay-me", 5, None, declarer=["AH 2H 3H"], onto=1, cards="4H")
    yield _example("layoff", "pay-me", 5, None, declarer=["AH 2H 3H"], onto=1, cards="4H 4H")
    yield _example("layoff", "pay-me", 5, None, declarer=["8H JK=9H 10H"], onto=1, cards="9H")
    yield _example("layoff", "pay-me", 5, None, declarer=["9H 10H JH"], onto=1, cards="8H JK")
    yield _example("layoff", "pay-me", 5, None, declarer=["9H 10H JH"], onto=1, cards="JK 2C")
    yield _example("layoff", "pay-me", 5, None, declarer=["9C 9D 9H"], onto=1, cards="9S JK")
    # D6: lay-offs chain in turn order.
    yield _example(
        "turn_scores", "pay-me", 5, None, declarer=["5H 6H 7H", "QC QD QS"], hands=["8H 3C", "9H 4D", "10H QH KC"]
    )
    # D7 and D11: the least penalty; the fewest cards laid off; a laid-off wild at the upper end.
    yield _example("best", "pay-me", 5, None, hand="8H JK 3C", declarer=["5H 6H 7H"])
    yield _example("best", "pay-me", 5, None, hand="4H 8H 9C", declarer=["5H 6H 7H"])
    yield _example("best", "pay-me", 11, None, hand="3S 4S 5S 6S 7S 8S 9S 10S JS QS 4H 4D 9C")
    yield _example("best", "3-13", 10, None, hand="AS 7D 8C 8H 8D JH QH KH 9S 10S JS QS")
    yield _example("best", "3-13", 10, {"double_rounds": "none"}, hand="AS 7D 8C 8H 8D JH QH KH 9S 10S JS QS")
    yield _example("best", "3-13", 11, None, hand="JK 2C 9H KS")
    # D10: the cards decide, not their written order.
    for meld in ("5H 6H JK 2C", "7H 5H 6H", "JK=4H 5H 6H 2C=7H", "6H 5H 4H"):
        yield _example("check", "pay-me", 5, None, melds=[meld])
    yield _example("check", "pay-me", 5, None, melds=["JK=8H 5H 6H"])
    # D12: wild aces and no_aces_in_runs.
    yield _example("check", "pay-me", 12, {"full_cycle": True, "no_aces_in_runs": True}, melds=["AS 5H 6H", "AH 2H 3H"])
    # D13: open readings, and a loose hand split into the fewest melds.
    yield _example("layoff", "pay-me-family", 5, None, declarer=["5H JK 6H"], onto=1, cards="4H")
    yield _example("layoff", "pay-me-family", 5, None, declarer=["5H JK 6H"], onto=1, cards="8H")
    yield _example("layoff", "3-13", 5, None, declarer=["2H 3H JK"], onto=1, cards="3C")
    yield _example("layoff", "3-13", 5, None, declarer=["2H 3H JK"], onto=1, cards="5H")
    yield _example("declarer_split", "3-13", 4, None, hand="2H 3H JK 9C 9D 9S")
    yield _example("declarer_split", "pay-me", 4, None, hand="9H JK 10H QC QD QS")
    # D14: one ace per run under ace=both.
    yield _example(
        "check", "pay-me", 5, {"ace": "both"}, melds=["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "AH 2H 3H 4H"]
    )
    # D15: double_rounds with full_cycle; a joker held under face values scores 15.
    yield _example("best", "3-13", 22, {"full_cycle": True}, hand="AS 7D 9C")
    yield _example("best", "3-13", 5, {"penalty_table": "three-thirteen"}, hand="JK 9C")
    # D18: at most 13 cards in a 3-13 meld.
    nines = "9C 9C 9C 9D 9D 9D 9H 9H 9H 9S 9S 9S"
    yield _example("layoff", "3-13", 5, None, declarer=[nines], onto=1, cards="JK")
    yield _example("layoff", "3-13", 5, None, declarer=[nines + " JK"], onto=1, cards="2C")
    yield _example("layoff", "3-13", 5, None, declarer=["2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"], onto=1, cards="AC")
    # D19: lay-offs narrow open readings.
    yield _example("turn_scores", "3-13", 5, None, declarer=["JK 2S 2D"], hands=["9C 10C", "AC"], players=None)
    # Section 9: Contract Rummy.
    yield _example("contract", "contract-rummy", 3, None, melds=["5H 6H 7H 8H"])
    yield _example("contract", "contract-rummy", 3, None, melds=["3H 4H 5H 6H", "7H 8H 9H 10H"])
    yield _example("contract", "contract-rummy", 1, None, melds=["9C 9D 9H", "9S 9C 9D"])
    yield _example("check", "contract-rummy", 2, None, melds=["5H 6H 7H", "JH QH KH AH", "AH 2H 3H 4H", "JK JK 5C"])
    yield _example("best", "contract-rummy", 1, None, hand="AS JK 10C 5D")
    yield _example(
        "layoff", "contract-rummy", 2, {"joker_swap": True}, declarer=[], table=["5H JK 7H 8H"], onto=1, cards="6H"
    )
    yield _example("layoff", "contract-rummy", 2, None, declarer=[], table=["5H JK 7H 8H"], onto=1, cards="6H")


SECTIONS: dict[str, Callable[[], Iterator[Call]]] = {
    "best.jsonl.gz": best_calls,
    "check.jsonl.gz": check_calls,
    "rounds.jsonl.gz": round_calls,
    "rules_examples.jsonl": rules_example_calls,
}


def section_text(name: str) -> str:
    return "".join(line(call) + "\n" for call in SECTIONS[name]())


def stored_text(name: str) -> str:
    path = GOLDEN / name
    data = path.read_bytes()
    return (gzip.decompress(data) if name.endswith(".gz") else data).decode("utf-8")


def write(name: str) -> None:
    data = section_text(name).encode("utf-8")
    if name.endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    (GOLDEN / name).write_bytes(data)


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the golden corpus again.")
    parser.add_argument("--write", action="store_true", required=True)
    parser.add_argument("sections", nargs="*", default=list(SECTIONS))
    args = parser.parse_args()
    GOLDEN.mkdir(exist_ok=True)
    for name in args.sections:
        write(name)
        print(f"wrote {GOLDEN / name}")


if __name__ == "__main__":
    main()
