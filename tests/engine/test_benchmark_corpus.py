"""The benchmarks' corpora still build as the figures in docs/benchmarks.md describe them
(a new preset once broke `python benchmarks/solver.py` without any test noticing)."""

from __future__ import annotations

from collections import Counter

from benchmarks import solver as benchmark


def test_solver_corpus_has_the_documented_hands() -> None:
    cases = benchmark.corpus(2026, 20)
    assert len(cases) == 1540
    assert {case.rules.preset.id for case in cases} == {"pay-me", "pay-me-family", "three-thirteen", "3-13"}


def test_contract_rummy_is_left_to_the_players() -> None:
    assert "contract-rummy" not in benchmark.SOLVED_PRESETS


def test_round_corpus_deals_eight_players_of_thirteen_cards() -> None:
    rounds = benchmark.round_cases(2026, 3)
    assert Counter(case.label for case in rounds) == {"pay-me round 11": 3, "3-13 round 11": 3}
    for case in rounds:
        assert len(case.declarer.split()) == 13
        assert [len(hand) for hand in case.hands] == [13] * 7


def test_five_crowns_mode_deals_13_cards_from_each_deck() -> None:
    five, three = benchmark.five_crowns_cases(2026, 20)
    assert "five-crowns" not in benchmark.SOLVED_PRESETS  # the corpus (and the golden corpus) keeps its hands
    assert [len(case.hand) for case in five + three] == [13] * 40
    assert {case.rules.preset.id for case in five} == {"five-crowns"}
    assert {case.rules.preset.id for case in three} == {"three-thirteen"}
    assert any(card.suit is not None and card.suit.value == "R" for case in five for card in case.hand)
