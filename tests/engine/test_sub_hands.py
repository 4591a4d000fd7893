"""SubHands, the solver's parts of one hand as lay-offs leave it (D7): its arrangement of the cards
kept is the very one `arrange` gives them, wherever it gives one."""

from __future__ import annotations

from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.cards import Card, Rank, Suit, parse_cards
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, round_info, schedule
from engine.solver import SubHands, arrange, penalty_values
from tests.engine.test_solver_output import ARRANGED_PRESETS, OPTION_SETS

# Which wild cards stand for themselves changes the naturals: SubHands is not used there.
SUB_HAND_OPTIONS = [options for options in OPTION_SETS if "wild_in_place_natural" not in options]
WIDTH = 8  # bits a card's count takes in the packed counts, as the lay-off search packs them


@st.composite
def hands_and_removals(draw: st.DrawFn) -> tuple[list[Card], Counter[Card], RuleSet, RoundInfo]:
    """A hand dealt from the preset's largest table (now and then from a few neighbouring ranks
    only, so that it melds more), and some of its natural cards taken away, as lay-offs take them."""
    rules = rule_set(draw(st.sampled_from(ARRANGED_PRESETS)), draw(st.sampled_from(SUB_HAND_OPTIONS)))
    rounds = schedule(rules)
    info = draw(st.sampled_from(rounds[-4:] if draw(st.booleans()) else rounds))  # long hands half the time
    row = rules.preset.largest_table
    low, high = (1, 13) if draw(st.booleans()) else sorted(draw(st.lists(st.integers(1, 13), min_size=2, max_size=2)))
    cards = [Card(Rank(rank), suit) for suit in Suit for rank in range(low, high + 1)]
    deck = cards * row.decks + [Card.JOKER] * row.jokers
    picks = draw(st.lists(st.integers(0, len(deck) - 1), min_size=3, max_size=min(info.cards, len(deck)), unique=True))
    hand = [deck[pick] for pick in picks]
    naturals = [card for card in hand if not info.is_wild(card)]
    gone = draw(st.lists(st.sampled_from(naturals), max_size=4)) if naturals else []
    return hand, Counter(gone) & Counter(naturals), rules, info


THREE_THIRTEEN = rule_set("3-13")
# A run's component reduced to one card, which `arrange` scores as a lone card.
LONE_CARD_LEFT = (
    parse_cards("10S AS 2C 2H 2S 3S 4S"),
    Counter(parse_cards("10S")),
    THREE_THIRTEEN,
    round_info(THREE_THIRTEEN, 8),
)


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(hands_and_removals())
@example(LONE_CARD_LEFT)
def test_the_cards_kept_are_arranged_as_arrange_arranges_them(
    case: tuple[list[Card], Counter[Card], RuleSet, RoundInfo],
) -> None:
    hand, gone, rules, info = case
    values = penalty_values(rules.options.penalty_table, info)
    held = Counter(hand)
    keys = list(held)
    naturals = [card for card in keys if not info.is_wild(card)]
    wilds = [card for card in hand if info.is_wild(card)]
    at = {card: index for index, card in enumerate(keys)}
    whole = sum(count << WIDTH * at[card] for card, count in held.items())
    parts = SubHands(
        naturals,
        [WIDTH * at[card] for card in naturals],
        whole,
        WIDTH,
        [values[card.code] for card in wilds],
        rules,
        values,
    )
    kept = held - gone
    packed = sum(count << WIDTH * at[card] for card, count in kept.items())
    read = parts.arrangement(packed, [card for card in keys for _ in range(kept[card]) if info.is_wild(card)])
    if read is not None:
        assert read == arrange(list(kept.elements()), rules, info, values)
