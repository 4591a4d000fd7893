"""The solver's melds read back as legal melds through `check`, in the order they are printed."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank, parse_cards
from engine.deck import STANDARD, STANDARD_SUITS
from engine.melds import check_meld
from engine.rules import PRESETS, RUMMY_PRESETS, HandScoring, rule_set
from engine.schedule import schedule
from engine.solver import best_arrangement
from engine.solver.records import card_order

# The presets whose hands the solver arranges (Contract Rummy counts every card held in full), on the
# 52-card deck these tests deal from; Five Crowns' own deck: tests/engine/test_five_crowns_properties.py.
ARRANGED_PRESETS = [
    variant
    for variant in RUMMY_PRESETS
    if PRESETS[variant].hand_scoring is HandScoring.ARRANGED and PRESETS[variant].deck is STANDARD
]
OPTION_SETS = [
    {},
    {"ace": "both"},
    {"no_aces_in_runs": True},
    {"distinct_suit_sets": True},
    {"wild_in_place_natural": True},
    {"wild_limit": "none"},
    {"no_adjacent_wilds": False},
    {"full_cycle": True},
]


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Card], object, object]:
    rules = rule_set(draw(st.sampled_from(ARRANGED_PRESETS)), draw(st.sampled_from(OPTION_SETS)))
    info = draw(st.sampled_from(schedule(rules)))
    row = rules.preset.largest_table
    deck = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank] * row.decks + [Card.JOKER] * row.jokers
    picks = draw(st.lists(st.integers(0, len(deck) - 1), min_size=info.cards, max_size=info.cards, unique=True))
    return [deck[pick] for pick in picks], rules, info


@settings(max_examples=300, deadline=None, derandomize=True)
@given(deals())
def test_every_meld_the_solver_prints_is_legal_as_written(deal: tuple[list[Card], object, object]) -> None:
    hand, rules, info = deal
    result = best_arrangement(hand, rules, info)  # type: ignore[arg-type]
    for meld in result.melds:
        verdict = check_meld([MeldCard(card) for card in meld], rules, info)  # type: ignore[arg-type]
        assert verdict.valid, (" ".join(map(str, meld)), verdict.reason)
    laid_out = Counter(card for meld in result.melds for card in meld) + Counter(result.unmelded)
    assert laid_out == Counter(hand)


def test_leftovers_come_in_card_order() -> None:
    """The leftovers are sorted by a number per card code that orders cards as Card.sort_key does."""
    cards = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank] + [Card.JOKER]
    shuffled = sorted(cards, key=lambda card: (card.code * 37) % 61)
    assert sorted(shuffled, key=card_order) == sorted(shuffled, key=lambda card: card.sort_key)
    rules = rule_set("pay-me")
    info = schedule(rules)[0]
    hand = parse_cards("JK KS 2H 9C 5D")
    assert [str(card) for card in best_arrangement(hand, rules, info).unmelded] == sorted(
        [str(card) for card in hand], key=lambda text: Card.parse(text).sort_key
    )
