"""The engine's caches are shared by the app's threads without locks (engine/caches.py says why
that is safe): 8 threads scoring hands and rounds under different rule sets at once give exactly
the answers one thread gives alone."""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable
from dataclasses import replace

from benchmarks import solver as benchmark
from engine import layoffs
from engine.caches import clear_caches
from engine.rules import rule_set
from engine.schedule import schedule
from engine.solver import best_arrangement

THREADS = 8
Task = Callable[[], object]


def _tasks() -> list[Task]:
    """Hands of every solved preset under house rules that change the answers (each rule set a new
    object, as each request makes its own), and whole rounds with lay-offs."""
    rng = random.Random(26)
    variants = [
        {},
        {"wild_limit": "none"},
        {"no_adjacent_wilds": True},
        {"distinct_suit_sets": True},
        {"ace": "both"},
        {"no_aces_in_runs": True},
        {"wild_in_place_natural": True},
    ]
    tasks: list[Task] = []
    for case in rng.sample(benchmark.corpus(2026, 2), 160):
        options = {**rng.choice(variants), "full_cycle": case.rules.options.full_cycle}
        rules = rule_set(case.rules.preset.id, options)
        info = schedule(rules)[case.info.number - 1]
        tasks.append(lambda hand=case.hand, rules=rules, info=info: best_arrangement(hand, rules, info))
    for round_case in benchmark.round_cases(7, 6):
        for rules in (round_case.rules, rule_set(round_case.rules.preset.id, {"ace": "both"})):
            case = replace(round_case, rules=rules, info=schedule(rules)[10])
            tasks.append(lambda case=case: _score_round(case))
    return tasks


def _score_round(case: benchmark.Round) -> object:
    melds = layoffs.declarer_melds(case.declarer, case.rules, case.info)
    scores = layoffs.score_in_turn(case.hands, melds, case.rules, case.info)
    return [None if score is None else score.as_json() for score in scores]


def test_threads_scoring_under_different_rules_at_once_give_the_sequential_answers() -> None:
    tasks = _tasks()
    clear_caches()
    expected = [task() for task in tasks]
    clear_caches()
    answers: list[list[object]] = [[None] * len(tasks) for _ in range(THREADS)]
    start = threading.Barrier(THREADS)
    failures: list[BaseException] = []

    def work(thread: int) -> None:
        order = list(range(len(tasks)))
        random.Random(thread).shuffle(order)  # each thread meets the rule sets in its own order
        start.wait()
        try:
            for index in order:
                answers[thread][index] = tasks[index]()
        except BaseException as failure:
            failures.append(failure)

    workers = [threading.Thread(target=work, args=(thread,)) for thread in range(THREADS)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # threads take turns often, inside the engine's searches too
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failures
    assert len(tasks) > 150
    for thread in range(THREADS):
        assert answers[thread] == expected, thread
