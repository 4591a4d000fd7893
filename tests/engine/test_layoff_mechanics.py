"""The lay-off mechanics against the way they were before they were made faster
(tests/engine/layoff_mechanics_reference.py): the same candidate lay-offs in the same order (the
first made wins a tie, D11), the same answer of the quick and full lay-off checks on every reading
(D5, D13), and the same placements, for every preset, every ``ace`` setting and every option that
limits wild cards, on the declarer's melds and on melds already extended by a lay-off.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank, parse_cards
from engine.deck import STANDARD_SUITS
from engine.deck import pack_wide as _pack_counts
from engine.errors import IllegalMeld
from engine.layoff_candidates import layoff_candidates as _layoff_candidates
from engine.layoff_check import extended_meld as _layoff_or_none
from engine.layoff_quick import _UNSURE, _quick_extend
from engine.layoff_search import _LayoffSearch
from engine.layoffs import TableMeld, placements, table_melds
from engine.melds import MeldKind, rank_at
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, round_info
from engine.solver import penalty_values
from tests.engine import layoff_mechanics_reference as old
from tests.engine.test_layoff_quick import _full
from tests.engine.test_layoff_reference import CHECK, Drawn, layoff_games


def _groups(hand: tuple[Card, ...]) -> list[tuple[MeldCard, ...]]:
    """Every group of the hand's cards, each once."""
    found = {
        tuple(sorted(group, key=str))
        for size in range(1, len(hand) + 1)
        for group in itertools.combinations(hand, size)
    }
    return [
        tuple(MeldCard(card) for card in group)
        for group in sorted(found, key=lambda group: [str(card) for card in group])
    ]


def _same_layoffs(meld: TableMeld, hand: tuple[Card, ...], rules: RuleSet, info: RoundInfo) -> list[TableMeld]:
    """Check every group of the hand laid off on the meld; return the melds extended."""
    extended = []
    for laid in _groups(hand):
        after = _layoff_or_none(meld, laid, rules, info)
        assert repr(after) == repr(old._layoff_or_none(meld, laid, rules, info)), (str(meld), [str(c) for c in laid])
        if after is not None:
            assert placements(meld, after, 0) == old.placements(meld, after, 0)
            extended.append(after)
    return extended


def _same_quick(reading: TableMeld, laid: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> None:
    """The quick check gives the old answer wherever the old one was sure; where only the new one is
    sure (a run that fits nowhere, see _fits_nowhere), the full check's answer."""
    quick, before = _quick_extend(reading, laid, rules, info), old._quick_extend(reading, laid, rules, info)
    if before is not _UNSURE:
        assert repr(quick) == repr(before), (str(reading), [str(card) for card in laid])
    elif quick is not _UNSURE:
        assert quick == _full(reading, laid, rules, info), (str(reading), [str(card) for card in laid])


@CHECK
@given(data=layoff_games())
def test_the_candidates_are_the_same_and_in_the_same_order(data: Drawn) -> None:
    written, hand, rules, info = data
    values = penalty_values(rules.options.penalty_table, info)
    cards = Counter(hand)
    for meld in table_melds(written, rules, info):
        assert _layoff_candidates(meld, cards, rules, info, values) == old._layoff_candidates(
            meld, cards, rules, info, values
        )


def _near(table: tuple[TableMeld, ...], info: RoundInfo) -> list[Card]:
    """Cards that might be laid off on the melds: a set's rank, the places just beyond a run's
    ends (an ace at either end), and the wild cards."""
    cards = [
        card
        for card in (Card.JOKER, *(Card(rank, suit) for rank in Rank for suit in STANDARD_SUITS))
        if info.is_wild(card)
    ]
    for meld in table:
        for reading in meld.readings:
            first = reading.read_as[0]
            assert first.suit is not None and first.rank is not None
            if reading.kind is MeldKind.SET:
                cards += [Card(first.rank, suit) for suit in STANDARD_SUITS]
                continue
            low, high = reading.positions[0], reading.positions[-1]
            places = [*range(low - 3, low), *range(high + 1, high + 4), 1, 14]
            cards += [Card(rank_at(place), first.suit) for place in places if 1 <= place <= 14]
    return cards


@CHECK
@given(data=layoff_games(), more=st.lists(st.integers(0, 1000), max_size=10), kept=st.lists(st.booleans(), max_size=15))
def test_the_searchs_candidates_are_the_same_and_in_the_same_order(
    data: Drawn, more: list[int], kept: list[bool]
) -> None:
    """The candidates of a lay-off search with their figures (made of parts whose figures add up,
    not card by card), for a hand of up to 15 cards near the melds and for the cards left after
    some are laid off."""
    written, hand, rules, info = data
    table = table_melds(written, rules, info)
    near = _near(table, info)
    hand += tuple(near[pick % len(near)] for pick in more)
    values = penalty_values(rules.options.penalty_table, info)
    search = _LayoffSearch(Counter(hand), table, rules, info, values)
    left = Counter(card for card, keep in zip(hand, kept, strict=False) if keep)
    for counts in (search.start, _pack_counts(left[card] for card in search.keys)):
        for index in range(search.meld_count):
            assert search._candidates(index, counts) == old.candidates(search, index, counts)


@CHECK
@given(data=layoff_games())
def test_the_lay_off_checks_and_placements_are_the_same(data: Drawn) -> None:
    written, hand, rules, info = data
    for meld in table_melds(written, rules, info):
        for after in _same_layoffs(meld, hand, rules, info)[:3]:
            _same_layoffs(after, hand, rules, info)  # a meld extended already, open or not (D13)


@CHECK
@given(data=layoff_games(roles=False), pick=st.lists(st.booleans(), min_size=5, max_size=5), place=st.integers(1, 14))
def test_the_quick_check_is_the_same_for_wilds_laid_off_with_their_places(
    data: Drawn, pick: list[bool], place: int
) -> None:
    """As when an open reading is settled (D13): wild cards laid off with the card they stand for."""
    written, hand, rules, info = data
    for meld in table_melds(written, rules, info):
        for reading in meld.readings:
            first = reading.read_as[0]
            assert first.suit is not None and first.rank is not None
            role = Card(rank_at(place), first.suit) if reading.kind is MeldKind.RUN else Card(first.rank, first.suit)
            laid = tuple(
                MeldCard(card, role if info.is_wild(card) else None)
                for card, chosen in zip(hand, pick, strict=False)
                if chosen
            )
            if laid:
                _same_quick(reading, laid, rules, info)


def _round_with_wild(rules: RuleSet, rank: Rank) -> RoundInfo:
    for number in range(1, rules.rounds + 1):
        info = round_info(rules, number)
        if rank in info.wild_ranks:
            return info
    raise AssertionError(f"no round of {rules.preset.name} has {rank} wild")


@pytest.mark.parametrize(
    ("variant", "rank", "melds"),
    [
        ("pay-me", Rank.FIVE, ["5H 5S 5D", "5H 5S JK", "5H 5S 5D 5C", "4H 5H 6H", "5H 6H 7H", "3H 4H 5H 6H 7H"]),
        ("pay-me-family", Rank.FIVE, ["5H 5S 5D", "4H 5H 6H", "5H JK 7H", "2H 3H 4H 5H"]),
        ("3-13", Rank.TWO, ["2H 2S 2D", "2H 3H 4H", "JK 2H 3H", "2H 3H JK 5H"]),
    ],
)
def test_the_checks_are_the_same_on_melds_whose_wilds_stand_for_themselves(
    variant: str, rank: Rank, melds: list[str]
) -> None:
    """Directed cases the drawn games seldom reach: a set or run holding wild cards of the round's
    wild rank in their own places, which the checks may or may not be sure of."""
    pool = [Card.parse(text) for text in ("AH", "2H", "3H", "4H", "6H", "7H", "8H", "5H", "5C", "2C", "JK", "9H")]
    for limit in ("none", "not_more_than_naturals"):
        rules = rule_set(variant, {"lay_offs": True, "wild_limit": limit})
        info = _round_with_wild(rules, rank)
        values = penalty_values(rules.options.penalty_table, info)
        for text in melds:
            try:
                (meld,) = table_melds([text], rules, info)
            except IllegalMeld:
                continue  # not a meld where wilds may not outnumber naturals
            hand = tuple(pool)
            cards = Counter(hand)
            assert _layoff_candidates(meld, cards, rules, info, values) == old._layoff_candidates(
                meld, cards, rules, info, values
            )
            for size in (1, 2):
                for group in itertools.combinations(hand, size):
                    laid = tuple(MeldCard(card) for card in group)
                    for reading in meld.readings:
                        _same_quick(reading, laid, rules, info)
                    after = _layoff_or_none(meld, laid, rules, info)
                    assert repr(after) == repr(old._layoff_or_none(meld, laid, rules, info)), (str(meld), group)
                    if after is not None:
                        assert placements(meld, after, 0) == old.placements(meld, after, 0)


@pytest.mark.parametrize(
    ("meld", "laid", "sure"),
    [
        ("6D 7D 8D 9D 2D=10D JD", "QD 2H KS KD", True),  # KD must stand for the ace after the King
        ("2C=8S 9S 10S JS QS KS", "6S 2S", True),  # 2S cannot stand apart from the other wild
        ("KC=3H 4H 5H 2D=6H 7H 8H", "JH JK JK JK KH", True),  # more wilds than naturals
        ("4C 5C 6C 7C 8C 9C 10C JC", "KC KC", False),  # legal read as KC=3C ... KC=QC
    ],
)
def test_the_quick_check_refuses_a_run_that_fits_nowhere(meld: str, laid: str, sure: bool) -> None:
    """Pay Me's last round (Kings, 2s and jokers wild): a wild King laid in its own place, which the
    full check may move, yet no place for it makes a legal run."""
    rules = rule_set("pay-me")
    info = round_info(rules, rules.rounds)
    (run,) = table_melds([meld], rules, info)
    cards = tuple(MeldCard(card) for card in parse_cards(laid))
    quick = _quick_extend(run, cards, rules, info)
    assert (quick is None) is sure
    assert quick is _UNSURE or quick == _full(run, cards, rules, info)
    assert (_full(run, cards, rules, info) is None) is sure
