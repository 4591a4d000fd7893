"""The solver knows no deck layout of its own (engine/deck.py holds it): on a five-suit deck of
ranks 3 to King (as Five Crowns plays: spades, hearts, diamonds, clubs and stars, two of each card,
six jokers), it agrees with the brute-force reference on random hands, with 3-card and 4-card
minimum runs: the same least penalty, and every meld it lays out one the reference reads as legal."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.cards import Card, Rank, Suit
from engine.deck import Deck
from engine.rules import RuleSet, rule_set
from engine.schedule import schedule
from engine.solver import best_arrangement
from tests.engine.reference import reference_best, reference_meld_kinds

FIVE_SUITS = Deck(tuple(Suit), tuple(rank for rank in Rank if rank >= Rank.THREE), copies=2, jokers=6)
HANDS = 500  # per rule set and minimum run length below: 2,000 hands in all


def _cards(deck: Deck) -> list[Card]:
    return [Card.JOKER if rank is None else Card(rank, suit) for rank, suit in deck.cards()]


# Jokers and the round's rank wild (round r deals r + 2 cards, that rank wild), as in Five Crowns;
# no aces in the deck. Any number of wilds, side by side too; and the Pay Me family's wild limits.
RULE_SETS = {
    "wilds-free": rule_set("pay-me-family", {"wild_limit": "none", "no_adjacent_wilds": False}),
    "wilds-limited": rule_set("pay-me-family"),
}


@pytest.mark.parametrize("min_run", [3, 4])
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_solver_agrees_with_brute_force_on_a_five_suit_deck(name: str, min_run: int) -> None:
    rules: RuleSet = RULE_SETS[name]
    rules = replace(rules, preset=replace(rules.preset, min_run_length=min_run))
    rounds = [info for info in schedule(rules) if info.cards <= 9]  # the reference's time grows fast
    cards = _cards(FIVE_SUITS)
    rng = random.Random(f"five suits {name} {min_run}")
    stars = runs = 0
    for _ in range(HANDS):
        info = rng.choice(rounds)
        hand = rng.sample(cards, info.cards)
        stars += sum(card.suit is Suit.STARS for card in hand)
        arrangement = best_arrangement(hand, rules, info)
        written = (info.number, " ".join(map(str, hand)))
        assert arrangement.penalty == reference_best(hand, rules, info), written
        assert Counter(card for meld in arrangement.melds for card in meld) + Counter(arrangement.unmelded) == Counter(
            hand
        )
        for meld in arrangement.melds:
            is_set, is_run = reference_meld_kinds(meld, rules, info)
            assert is_set or is_run, (written, " ".join(map(str, meld)))
            runs += is_run and not is_set
    assert len(cards) == 116
    assert stars > HANDS / 2  # the fifth suit is dealt
    assert runs > 20  # and runs are laid out, of `min_run` cards or more (30 to 37 of 4 cards or more)
