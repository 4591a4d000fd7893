"""The lay-off search against the search it replaced (tests/engine/layoff_search_reference.py):
the same penalty, the same cards laid off, the same placements and melds after, hand by hand in
turn order (D6, D7, D11, D13)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Rank, Suit
from engine.errors import EngineError
from engine.layoffs import LayoffScore, TableMeld, declarer_melds, score_in_turn, table_melds
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, schedule
from tests.engine.layoff_search_reference import reference_in_turn
from tests.engine.reference import reference_is_meld
from tests.engine.test_layoff_reference import CHECK, Drawn, layoff_games


def _same(
    found: Sequence[LayoffScore | None], expected: Sequence[LayoffScore], rules: RuleSet, info: RoundInfo
) -> None:
    assert len(found) == len(expected)
    for score, reference in zip(found, expected, strict=True):
        assert score is not None
        assert score.arrangement.penalty == reference.arrangement.penalty
        assert sum(len(cards) for _, cards in score.layoffs) == sum(len(cards) for _, cards in reference.layoffs)
        assert score.placements == reference.placements
        assert score.layoffs == reference.layoffs
        # The cards kept are the same; their arrangement may be another one as good (SubHands).
        kept = score.arrangement
        assert Counter(card for meld in kept.melds for card in meld) + Counter(kept.unmelded) == Counter(
            card for meld in reference.arrangement.melds for card in meld
        ) + Counter(reference.arrangement.unmelded)
        assert all(reference_is_meld(meld, rules, info) for meld in kept.melds)
        assert [meld.as_json() for meld in score.melds_after] == [meld.as_json() for meld in reference.melds_after]


def _split(data: Drawn, parts: int) -> tuple[tuple[TableMeld, ...], list[tuple[Card, ...]], RuleSet, RoundInfo]:
    written, hand, rules, info = data
    table = table_melds(written, rules, info)
    size = -(-len(hand) // parts)
    return table, [hand[start : start + size] for start in range(0, len(hand), size)], rules, info


@CHECK
@given(data=layoff_games(), parts=st.integers(1, 3))
def test_hands_near_the_melds_score_as_the_old_search_did(data: Drawn, parts: int) -> None:
    table, hands, rules, info = _split(data, parts)
    _same(score_in_turn(hands, table, rules, info), reference_in_turn(hands, table, rules, info), rules, info)


@CHECK
@given(data=layoff_games(roles=False), parts=st.integers(1, 3))
def test_open_readings_score_as_the_old_search_did(data: Drawn, parts: int) -> None:
    table, hands, rules, info = _split(data, parts)
    _same(score_in_turn(hands, table, rules, info), reference_in_turn(hands, table, rules, info), rules, info)


def _random_round(
    seed: int, variant: str, players: int
) -> tuple[tuple[TableMeld, ...], list[tuple[Card, ...]], RuleSet, RoundInfo]:
    """A declarer whose random runs and sets (wild cards among them) meld 13 cards, and other hands of
    13 random cards from 3 decks and 6 jokers, as in the round benchmark (benchmarks/solver.py)."""
    rng = random.Random(seed)
    rules = rule_set(variant)
    info = schedule(rules)[10]  # the 13-card round
    while True:
        deck = [Card(rank, suit) for suit in Suit for rank in Rank] * 3 + [Card.JOKER] * 6
        wilds = [card for card in deck if info.is_wild(card)]
        cards: list[Card] = []
        for size in rng.choice([(3, 3, 3, 4), (3, 5, 5), (4, 4, 5), (3, 4, 6), (6, 7), (3, 10)]):
            if rng.random() < 0.5:
                suit, low = rng.choice(list(Suit)), rng.randint(2, 14 - size)
                meld = [Card(Rank(place), suit) for place in range(low, low + size)]
            else:
                rank = rng.choice([rank for rank in Rank if rank is not Rank.ACE])
                meld = [Card(rank, rng.choice(list(Suit))) for _ in range(size)]
            meld = [rng.choice(wilds) if info.is_wild(card) else card for card in meld]
            if rng.random() < 0.4:
                meld[rng.randrange(1, size - 1)] = rng.choice(wilds)
            cards += meld
        if any(cards.count(card) > deck.count(card) for card in cards):
            continue
        try:
            table = declarer_melds(" ".join(map(str, cards)), rules, info)
        except EngineError:
            continue
        for card in cards:
            deck.remove(card)
        rng.shuffle(deck)
        return table, [tuple(deck[13 * seat : 13 * seat + 13]) for seat in range(players)], rules, info


@settings(CHECK, max_examples=15)  # whole 13-card hands are slow for the old search
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(["pay-me", "3-13"]), players=st.integers(1, 2))
def test_random_rounds_score_as_the_old_search_did(seed: int, variant: str, players: int) -> None:
    table, hands, rules, info = _random_round(seed, variant, players)
    _same(score_in_turn(hands, table, rules, info), reference_in_turn(hands, table, rules, info), rules, info)
