"""Hypothesis properties of card notation and meld verdicts (RULES.md sections 1-2)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank, Suit, format_cards, parse_cards, parse_meld
from engine.deck import STANDARD_SUITS
from engine.melds import check_meld
from engine.penalties import hand_penalty
from engine.rules import rule_set
from engine.schedule import round_info
from engine.solver import best_arrangement

PROPERTY = settings(max_examples=200, deadline=None)
Drawn = tuple[str, int, dict[str, object], list[MeldCard]]

RUMMY = ["pay-me", "pay-me-family", "three-thirteen", "3-13"]
OPTION_SETS: list[dict[str, object]] = [
    {},
    {"distinct_suit_sets": True},
    {"wild_in_place_natural": True},
    {"wild_limit": "none"},
    {"no_adjacent_wilds": False},
    {"ace": "both"},
    {"ace": "high"},
    {"no_aces_in_runs": True},
    {"wild_limit": "not_more_than_naturals", "no_adjacent_wilds": True},
]

naturals = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(STANDARD_SUITS)))
cards = st.one_of(naturals, st.just(Card.JOKER))


def spell(card: Card, draw: st.DrawFn) -> str:
    """One of the accepted spellings of a card: ASCII or symbol, any case, T or 10, joker aliases."""
    if card.is_joker:
        return draw(st.sampled_from(["JK", "jk", "Joker", "JOKER", "*", "🃏"]))
    assert card.rank is not None and card.suit is not None
    rank = card.rank.token
    if card.rank is Rank.TEN:
        rank = draw(st.sampled_from(["10", "T", "t"]))
    suit = draw(st.sampled_from([card.suit.value, card.suit.value.lower(), card.suit.symbol]))
    text = rank + suit
    return text.lower() if draw(st.booleans()) else text


@st.composite
def spelled_hands(draw: st.DrawFn) -> tuple[list[Card], str]:
    hand = draw(st.lists(cards, max_size=15))
    separators = st.sampled_from([" ", ",", ", ", "  ", " ,"])
    text = ""
    for card in hand:
        text += spell(card, draw) + draw(separators)
    return hand, text


@PROPERTY
@given(cards)
def test_card_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.symbol) == card
    assert Card.parse(str(card).lower()) == card


@PROPERTY
@given(spelled_hands())
def test_hand_round_trip_in_any_spelling(drawn: tuple[list[Card], str]) -> None:
    hand, text = drawn
    parsed = parse_cards(text)
    assert list(parsed) == hand
    assert parse_cards(format_cards(parsed)) == parsed


meld_cards = st.one_of(
    st.builds(MeldCard, cards),
    st.builds(MeldCard, cards, naturals),
)


@PROPERTY
@given(st.lists(meld_cards, max_size=14), st.booleans())
def test_meld_round_trip(meld: list[MeldCard], symbols: bool) -> None:
    if symbols:
        text = " ".join(
            held.card.symbol if held.role is None else f"{held.card.symbol}={held.role.symbol}" for held in meld
        )
    else:
        text = format_cards(meld)
    assert list(parse_meld(text)) == meld
    assert format_cards(parse_meld(text)) == format_cards(meld)


# --- verdicts ----------------------------------------------------------------------------


@st.composite
def set_like_groups(draw: st.DrawFn) -> Drawn:
    """Two or more naturals of one rank (sometimes a stray card), with some of the round's wild cards."""
    variant = draw(st.sampled_from(RUMMY))
    options = draw(st.sampled_from(OPTION_SETS))
    rules = rule_set(variant, options)
    number = draw(st.integers(1, rules.rounds))
    info = round_info(rules, number)
    natural_ranks = [rank for rank in Rank if rank not in info.wild_ranks]
    rank = draw(st.sampled_from(natural_ranks))
    group = [Card(rank, suit) for suit in draw(st.lists(st.sampled_from(list(STANDARD_SUITS)), min_size=2, max_size=5))]
    wild_pool = [Card(wild_rank, suit) for wild_rank in info.wild_ranks for suit in STANDARD_SUITS]
    if info.jokers_wild:
        wild_pool.append(Card.JOKER)
    if wild_pool:
        group += draw(st.lists(st.sampled_from(wild_pool), max_size=4))
    if draw(st.integers(0, 9)) == 0:
        group.append(Card(draw(st.sampled_from(natural_ranks)), draw(st.sampled_from(list(STANDARD_SUITS)))))
    return variant, number, options, [MeldCard(card) for card in group]


def verdict_of(variant: str, number: int, options: dict[str, object], meld: list[MeldCard]) -> tuple[bool, str | None]:
    rules = rule_set(variant, options)
    verdict = check_meld(meld, rules, round_info(rules, number))
    return verdict.valid, verdict.code


@PROPERTY
@given(set_like_groups(), st.randoms(use_true_random=False))
def test_set_verdict_does_not_depend_on_order(drawn: Drawn, rnd: random.Random) -> None:
    variant, number, options, group = drawn
    expected = verdict_of(variant, number, options, group)
    orders = list(itertools.islice(itertools.permutations(group), 24)) if len(group) <= 4 else []
    for _ in range(6):
        shuffled = list(group)
        rnd.shuffle(shuffled)
        orders.append(tuple(shuffled))
    for order in orders:
        assert verdict_of(variant, number, options, list(order)) == expected, (
            f"{variant} round {number} {options}: {format_cards(group)} vs {format_cards(order)}"
        )


@st.composite
def run_like_groups(draw: st.DrawFn) -> Drawn:
    """Cards of one suit in ascending order, some places taken by the round's wilds, maybe with gaps."""
    variant = draw(st.sampled_from(RUMMY))
    options = draw(st.sampled_from(OPTION_SETS))
    rules = rule_set(variant, options)
    number = draw(st.integers(1, rules.rounds))
    info = round_info(rules, number)
    suit = draw(st.sampled_from(list(STANDARD_SUITS)))
    length = draw(st.integers(3, 7))
    start = draw(st.integers(1, 15 - length))
    places = list(range(start, start + length))
    if draw(st.booleans()):  # open a gap
        del places[draw(st.integers(1, length - 2))]
    wild_pool = [Card(wild_rank, other) for wild_rank in info.wild_ranks for other in STANDARD_SUITS]
    if info.jokers_wild:
        wild_pool.append(Card.JOKER)
    group = []
    for place in places:
        if wild_pool and draw(st.integers(0, 3)) == 0:
            held = draw(st.sampled_from(wild_pool))
            role = Card(Rank.ACE if place == 14 else Rank(place), suit) if draw(st.booleans()) else None
            group.append(MeldCard(held, role))
        else:
            group.append(MeldCard(Card(Rank.ACE if place == 14 else Rank(place), suit)))
    return variant, number, options, group


@PROPERTY
@given(run_like_groups())
def test_run_written_in_reverse_gets_the_same_verdict(drawn: Drawn) -> None:
    variant, number, options, group = drawn
    forward = verdict_of(variant, number, options, group)
    backward = verdict_of(variant, number, options, group[::-1])
    assert forward == backward, f"{variant} round {number} {options}: {format_cards(group)}"


@PROPERTY
@given(run_like_groups())
def test_valid_run_reading_is_a_sequence(drawn: Drawn) -> None:
    variant, number, options, group = drawn
    rules = rule_set(variant, options)
    verdict = check_meld(group, rules, round_info(rules, number))
    if verdict.valid and verdict.kind is not None and verdict.kind.value == "run":
        assert verdict.read_as is not None
        assert len({card.suit for card in verdict.read_as}) == 1
        places = sorted(verdict.positions)
        assert places == list(range(places[0], places[0] + len(group)))
        for held, stands in zip(group, verdict.read_as, strict=True):
            if held.role is not None:
                assert stands == held.role
            elif not round_info(rules, number).is_wild(held.card):
                assert stands == held.card


# --- the least-penalty split (D7) --------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn) -> tuple[str, int, dict[str, object], list[Card]]:
    """A small hand that the decks in play could hold, biased to a few ranks and suits so that melds are likely."""
    variant = draw(st.sampled_from(RUMMY))
    options = draw(st.sampled_from(OPTION_SETS))
    number = draw(st.integers(1, 11))
    pool = [Card(Rank(rank), suit) for rank in range(1, 14) for suit in (Suit.HEARTS, Suit.SPADES)]
    rules = rule_set(variant, options)
    if rules.preset.wild_jokers:
        pool.append(Card.JOKER)
    start = draw(st.integers(0, len(pool) - 1))
    near = pool[start : start + 10] or pool
    hand = draw(st.lists(st.sampled_from(near), max_size=7))
    table = rules.preset.largest_table  # never more copies than the decks in play hold
    kept: list[Card] = []
    for card in hand:
        if kept.count(card) < (table.jokers if card.is_joker else table.decks):
            kept.append(card)
    return variant, number, options, kept


@PROPERTY
@given(hands(), st.randoms(use_true_random=False))
def test_best_split_is_legal_and_does_not_depend_on_order(
    drawn: tuple[str, int, dict[str, object], list[Card]], rnd: random.Random
) -> None:
    variant, number, options, hand = drawn
    rules = rule_set(variant, options)
    info = round_info(rules, number)
    found = best_arrangement(hand, rules, info)
    melded = [card for meld in found.melds for card in meld]
    assert sorted(melded + list(found.unmelded), key=str) == sorted(hand, key=str)
    for meld in found.melds:
        verdict = check_meld([MeldCard(card) for card in meld], rules, info)
        assert verdict.valid, f"{format_cards(meld)}: {verdict.reason}"
    assert found.penalty == hand_penalty(found.unmelded, rules, info)
    assert found.penalty <= hand_penalty(hand, rules, info)
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    again = best_arrangement(shuffled, rules, info)
    assert again.penalty == found.penalty, f"{variant} round {number} {options}: {format_cards(hand)}"
