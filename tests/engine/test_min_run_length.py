"""A preset's minimum run length binds the solver as it binds check_meld (RULES.md 9: a run of
4 or more cards in Contract Rummy; issue 26: the solver once hard-coded 3)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.cards import Card, MeldCard, Rank, parse_cards
from engine.deck import STANDARD_SUITS
from engine.melds import check_meld
from engine.rules import MeldKind, RuleSet, rule_set
from engine.schedule import round_info, schedule
from engine.solver import best_arrangement
from tests.engine.reference import reference_best


def four_card_runs(rules: RuleSet) -> RuleSet:
    """The rule set as a preset whose runs need 4 cards (no shipped rummy preset the solver arranges has one)."""
    return replace(rules, preset=replace(rules.preset, min_run_length=4))


def test_the_solver_melds_no_run_shorter_than_the_minimum() -> None:
    rules = four_card_runs(rule_set("pay-me"))
    info = round_info(rules, 5)
    arrangement = best_arrangement(parse_cards("4H 5H 6H 9C 9D 9S KC"), rules, info)
    for meld in arrangement.melds:
        assert check_meld(tuple(MeldCard(card) for card in meld), rules, info).valid, meld
    assert arrangement.penalty == 25  # 4H 5H 6H and KC left: 5 + 5 + 5 + 10


RULE_SETS = {
    "pay-me": four_card_runs(rule_set("pay-me")),  # never more wilds than naturals, none side by side
    "3-13": four_card_runs(rule_set("3-13")),  # any number of wilds, side by side too
}
HANDS = 1000  # per rule set: 2,000 hands in all


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_four_card_runs_agree_with_check_meld_and_brute_force(name: str) -> None:
    rules = RULE_SETS[name]
    rounds = [info for info in schedule(rules) if info.cards <= 9]  # the reference's time grows fast
    deck = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank] * 3 + [Card.JOKER] * 6
    rng = random.Random(f"four-card runs {name}")
    runs = 0
    for _ in range(HANDS):
        info = rng.choice(rounds)
        hand = rng.sample(deck, info.cards)
        arrangement = best_arrangement(hand, rules, info)
        assert arrangement.penalty == reference_best(hand, rules, info), (info.number, " ".join(map(str, hand)))
        for meld in arrangement.melds:
            verdict = check_meld(tuple(MeldCard(card) for card in meld), rules, info)
            assert verdict.valid, (info.number, " ".join(map(str, meld)), verdict.reason)
            runs += verdict.kind is MeldKind.RUN
    assert runs > 50  # the hands hold runs, of 4 cards or more
