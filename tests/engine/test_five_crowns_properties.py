"""Five Crowns against the brute-force reference (tests/engine/reference.py, written from RULES.md 10):
on the 5-suit deck of ranks 3 to King (two packs, six jokers), meld validity and `best` on random
hands of every round, with the defaults and with each house option, and lay-offs with `lay_offs` on.

The reference itself is first held to the literal definition: every wild tried as every one of the
55 cards of the deck, every run on the places 3 to King.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank
from engine.deck import FIVE_CROWNS
from engine.melds import check_meld
from engine.penalties import base_penalty
from engine.rules import OPTION_SPECS, PenaltyTable, RuleSet, WildLimit, rule_set
from engine.schedule import RoundInfo, round_info
from engine.solver import best_arrangement
from tests.engine.reference import (
    DeclarerMeld,
    reference_card_points,
    reference_declarer_meld_ok,
    reference_is_meld,
)
from tests.engine.test_solver_reference import check_against_reference, check_layoffs, stable

NATURALS = tuple(Card(rank, suit) for suit in FIVE_CROWNS.suits for rank in FIVE_CROWNS.ranks)
FACES = (Card.JOKER, *NATURALS)
COPIES, JOKERS = 2, 6
MELD_OPTIONS: dict[str, st.SearchStrategy[object]] = {
    "distinct_suit_sets": st.booleans(),
    "wild_limit": st.sampled_from(OPTION_SPECS["wild_limit"].choices),
    "no_adjacent_wilds": st.booleans(),
    "wild_in_place_natural": st.booleans(),
}
# Each house option that bears on melds, switched away from its default, one at a time; and none.
EACH_OPTION = [
    {},
    {"distinct_suit_sets": True},
    {"wild_limit": "not_more_than_naturals"},
    {"no_adjacent_wilds": True},
    {"wild_in_place_natural": True, "wild_limit": "not_more_than_naturals"},
]

Game = tuple[tuple[Card, ...], RuleSet, RoundInfo]


def test_the_reference_scores_cards_as_the_engine_does() -> None:
    for card in FACES:
        for wild in (False, True):
            assert reference_card_points(card, PenaltyTable.FIVE_CROWNS, wild) == base_penalty(
                card, PenaltyTable.FIVE_CROWNS, wild
            )


@st.composite
def options(draw: st.DrawFn, fixed: dict[str, object]) -> dict[str, object]:
    chosen = dict(fixed)
    for key, strategy in MELD_OPTIONS.items():
        if key not in chosen and draw(st.booleans()):
            chosen[key] = draw(strategy)
    return chosen


@st.composite
def games(
    draw: st.DrawFn, /, fixed: dict[str, object], sizes: tuple[int, int] | None = None, max_wilds: int = 4
) -> Game:
    """A round, options (`fixed` as given), and a hand from the two packs: the round's own size
    unless `sizes` says otherwise, in random order, its naturals biased to a few neighbouring cards."""
    rules = rule_set("five-crowns", draw(options(fixed)))
    info = round_info(rules, draw(st.integers(1, 11)))
    size = info.cards if sizes is None else draw(st.integers(*sizes))
    counts: Counter[Card] = Counter()

    def available(pool: Sequence[Card]) -> list[Card]:
        return [card for card in pool if counts[card] < (JOKERS if card.is_joker else COPIES)]

    wild_pool = [card for card in FACES if info.is_wild(card)]
    natural_pool = [card for card in NATURALS if not info.is_wild(card)]
    wild_count = draw(st.integers(0, min(max_wilds, size)))
    centre = draw(st.integers(3, 13))
    suits = draw(st.lists(st.sampled_from(FIVE_CROWNS.suits), min_size=1, max_size=2, unique=True))
    near = [
        card
        for card in natural_pool
        if card.rank == centre or (card.suit in suits and abs(int(card.rank or 0) - centre) <= 2)
    ]
    hand: list[Card] = []
    for index in range(size):
        pool = available(wild_pool) if index < wild_count else []
        pool = pool or (available(near) if draw(st.integers(0, 3)) else []) or available(natural_pool)
        card = draw(st.sampled_from(pool))
        counts[card] += 1
        hand.append(card)
    return tuple(draw(st.permutations(hand))), rules, info


# --- the reference against the literal definition ------------------------------------------------


def literal_is_meld(group: Sequence[Card], rules: RuleSet, info: RoundInfo) -> bool:
    """RULES.md 10.3 word for word: some choice of a card of the deck for every wild makes a book
    (one rank; with distinct suits, three suits or more) or a run (one suit, places 3 to King, no
    gap), the wild rules kept."""
    options = rules.options
    wilds = [card for card in group if info.is_wild(card)]
    naturals = [card for card in group if not info.is_wild(card)]
    for roles in itertools.product(NATURALS, repeat=len(wilds)):
        standing = [(card, False) for card in naturals] + [
            (role, not (options.wild_in_place_natural and role == card))
            for card, role in zip(wilds, roles, strict=True)
        ]
        wild_count = sum(counts_wild for _, counts_wild in standing)
        if options.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS and 2 * wild_count > len(group):
            continue
        one_rank = len({role.rank for role, _ in standing}) == 1
        if one_rank and (not options.distinct_suit_sets or len({role.suit for role, _ in standing}) >= 3):
            return True
        if len({role.suit for role, _ in standing}) != 1:
            continue
        places = sorted(int(role.rank or 0) for role, _ in standing)
        if any(b - a != 1 for a, b in itertools.pairwise(places)):
            continue
        wild_places = {int(role.rank or 0) for role, counts_wild in standing if counts_wild}
        if not (options.no_adjacent_wilds and any(place + 1 in wild_places for place in wild_places)):
            return True
    return False


@stable(300)
@given(data=games(fixed={}, sizes=(3, 4), max_wilds=2))
def test_the_reference_meld_is_the_literal_definition(data: Game) -> None:
    group, rules, info = data
    assert reference_is_meld(group, rules, info) == literal_is_meld(group, rules, info), group


# --- meld validity ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fixed", EACH_OPTION, ids=lambda fixed: ",".join(fixed) or "defaults")
@stable(200)
@given(data=st.data())
def test_check_agrees_with_the_reference(fixed: dict[str, object], data: st.DataObject) -> None:
    group, rules, info = data.draw(games(fixed, sizes=(3, 8)))
    verdict = check_meld(tuple(MeldCard(card) for card in group), rules, info)
    assert verdict.valid == reference_is_meld(group, rules, info), (group, info.number, rules.options)


def test_twelve_cards_of_a_suit_are_never_a_run() -> None:
    rules = rule_set("five-crowns")
    info = round_info(rules, 11)
    twelve = (*(Card(rank, FIVE_CROWNS.suits[0]) for rank in FIVE_CROWNS.ranks if rank != Rank.KING), *[Card.JOKER] * 2)
    assert len(twelve) == 12
    assert not reference_is_meld(twelve, rules, info)
    assert not check_meld(tuple(MeldCard(card) for card in twelve), rules, info).valid


# --- best ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fixed", EACH_OPTION, ids=lambda fixed: ",".join(fixed) or "defaults")
@stable(60)
@given(data=st.data())
def test_best_agrees_with_the_reference_in_every_round(fixed: dict[str, object], data: st.DataObject) -> None:
    check_against_reference(*data.draw(games(fixed)))


@stable(150)
@given(data=games(fixed={}, sizes=(3, 9)))
def test_best_agrees_with_the_reference_on_hands_of_any_size(data: Game) -> None:
    check_against_reference(*data)


# --- lay-offs, with the house option ---------------------------------------------------------------


@st.composite
def layoff_games(draw: st.DrawFn) -> tuple[tuple[Card, ...], tuple[DeclarerMeld, ...], RuleSet, RoundInfo]:
    """The player who went out's one or two legal melds (wild roles fixed), and another player's hand."""
    rules = rule_set("five-crowns", {"lay_offs": True} | draw(options({})))
    info = round_info(rules, draw(st.integers(1, 11)))
    counts: Counter[Card] = Counter()

    def take(pool: Sequence[Card]) -> Card | None:
        pool = [card for card in pool if counts[card] < (JOKERS if card.is_joker else COPIES)]
        card = draw(st.sampled_from(pool)) if pool else None
        counts[card] += card is not None
        return card

    wild_pool = [card for card in FACES if info.is_wild(card)]
    melds, near = [], []
    for _ in range(draw(st.integers(1, 2))):
        suit = draw(st.sampled_from(FIVE_CROWNS.suits))
        if draw(st.booleans()):
            length = draw(st.integers(3, 5))
            start = draw(st.integers(3, 13 - length + 1))
            roles = [Card(Rank(place), suit) for place in range(start, start + length)]
            near += [Card(Rank(place), suit) for place in (start - 2, start - 1, start + length) if 3 <= place <= 13]
        else:
            rank = draw(st.sampled_from(FIVE_CROWNS.ranks))
            roles = [Card(rank, draw(st.sampled_from(FIVE_CROWNS.suits))) for _ in range(draw(st.integers(3, 4)))]
            near += [Card(rank, each) for each in FIVE_CROWNS.suits]
        laid = [(take(wild_pool) if not draw(st.integers(0, 3)) else None) or take([role]) for role in roles]
        assume(all(card is not None for card in laid))
        meld = DeclarerMeld(tuple(card for card in laid if card is not None), tuple(roles))
        assume(reference_declarer_meld_ok(meld, rules, info))
        melds.append(meld)
    hand = [
        take(near if draw(st.integers(0, 2)) else wild_pool + list(NATURALS)) for _ in range(draw(st.integers(1, 6)))
    ]
    cards = tuple(card for card in hand if card is not None)
    assume(cards)
    return cards, tuple(melds), rules, info


@stable(200)
@given(data=layoff_games())
def test_lay_offs_agree_with_the_reference(
    data: tuple[tuple[Card, ...], tuple[DeclarerMeld, ...], RuleSet, RoundInfo],
) -> None:
    check_layoffs(*data)


@stable(150)
@given(data=games(fixed={}))
def test_the_solvers_melds_read_back_as_legal_through_check(data: Game) -> None:
    hand, rules, info = data
    for meld in best_arrangement(hand, rules, info).melds:
        assert check_meld(tuple(MeldCard(card) for card in meld), rules, info).valid, (meld, info.number)
