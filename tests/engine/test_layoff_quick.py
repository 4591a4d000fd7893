"""The quick lay-off check (engine.layoff_quick._quick_extend) against the full one
(engine.layoff_check.extend_reading, which judges every extended meld with check_meld): wherever the
quick check is sure, the same extended meld (cards, what each stands for, places) or the same
refusal (D5, D10, D14), for every preset, every ``ace`` setting and every option that limits wild
cards, on every reading of the declarer's melds (D13), with and without roles written on the wild
cards laid off.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank, parse_cards
from engine.errors import IllegalLayoff, IllegalMeld
from engine.layoff_check import extend_reading
from engine.layoff_quick import _UNSURE, _quick_extend
from engine.layoffs import TableMeld, table_melds
from engine.melds import MeldKind, rank_at
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, round_info
from tests.engine.test_layoff_reference import CHECK, Drawn, layoff_games


def _full(reading: TableMeld, laid: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> TableMeld | None:
    try:
        return extend_reading(reading, laid, rules, info)
    except IllegalLayoff:
        return None


def _agree(table: tuple[TableMeld, ...], laid: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> int:
    """Check every reading of every meld; return how many the quick check was sure of."""
    sure = 0
    for meld in table:
        for reading in meld.readings:
            quick = _quick_extend(reading, laid, rules, info)
            if quick is _UNSURE:
                continue
            sure += 1
            assert quick == _full(reading, laid, rules, info), (str(reading), [str(card) for card in laid])
    return sure


@CHECK
@given(data=layoff_games(), pick=st.lists(st.booleans(), min_size=5, max_size=5))
def test_the_quick_check_extends_a_meld_as_the_full_check_does(data: Drawn, pick: list[bool]) -> None:
    written, hand, rules, info = data
    laid = tuple(MeldCard(card) for card, chosen in zip(hand, pick, strict=False) if chosen)
    assume(laid)
    _agree(table_melds(written, rules, info), laid, rules, info)


@CHECK
@given(data=layoff_games(roles=False), pick=st.lists(st.booleans(), min_size=5, max_size=5), place=st.integers(1, 14))
def test_the_quick_check_agrees_on_wilds_laid_off_with_their_places(data: Drawn, pick: list[bool], place: int) -> None:
    """As when an open reading is settled (D13): wild cards laid off with the card they stand for."""
    written, hand, rules, info = data
    table = table_melds(written, rules, info)
    reading = table[0].readings[-1]
    if reading.kind is MeldKind.RUN:
        suit = reading.read_as[0].suit
        assert suit is not None
        role = Card(rank_at(place), suit)
    else:
        rank = reading.read_as[0].rank
        assert rank is not None
        role = Card(rank, reading.read_as[0].suit)
    laid = tuple(
        MeldCard(card, role) if info.is_wild(card) and index == 0 else MeldCard(card)
        for index, (card, chosen) in enumerate(zip(hand, pick, strict=False))
        if chosen
    )
    assume(laid)
    _agree(table, laid, rules, info)


def test_the_quick_check_is_sure_of_plain_lay_offs() -> None:
    """Pay Me round 11: naturals and jokers onto a run and a set, and refusals (a gap, two wilds side
    by side only, more wilds than naturals)."""
    rules = rule_set("pay-me")
    info = round_info(rules, 11)
    table = table_melds(["5H 6H 7H", "9C 9D 9S"], rules, info)
    cases = [
        ("8H JK", 0, True),
        ("4H", 0, True),
        ("9H", 0, False),
        ("9H", 1, True),
        ("3H", 0, False),
        ("JK JK", 0, True),
        ("JK JK JK JK", 0, False),
    ]
    for text, onto, legal in cases:
        laid = tuple(MeldCard(Card.parse(token)) for token in text.split())
        reading = table[onto].readings[0]
        quick = _quick_extend(reading, laid, rules, info)
        assert quick is not _UNSURE, text
        assert (quick is not None) == legal, text
        assert quick == _full(reading, laid, rules, info), text


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
def test_the_quick_check_agrees_on_melds_whose_wilds_stand_for_themselves(
    variant: str, rank: Rank, melds: list[str]
) -> None:
    """Directed cases the drawn games seldom reach: a set or run holding wild cards of the round's
    wild rank in their own places, which the quick check may or may not be sure of."""
    pool = [Card.parse(text) for text in ("AH", "2H", "3H", "4H", "6H", "7H", "8H", "5H", "5C", "2C", "JK", "9H")]
    for limit in ("none", "not_more_than_naturals"):
        rules = rule_set(variant, {"lay_offs": True, "wild_limit": limit})
        info = _round_with_wild(rules, rank)
        for text in melds:
            try:
                table = table_melds([text], rules, info)
            except IllegalMeld:
                continue  # not a meld where wilds may not outnumber naturals
            for size in (1, 2):
                for group in itertools.combinations(pool, size):
                    _agree(table, tuple(MeldCard(card) for card in group), rules, info)


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
