"""The quick lay-off check (engine.layoffs._quick_extend) against the full one (engine.layoffs._extend,
which judges every extended meld with check_meld): wherever the quick check is sure, the same
extended meld (cards, what each stands for, places) or the same refusal (D5, D10, D14), for every
preset, every ``ace`` setting and every option that limits wild cards, on every reading of the
declarer's melds (D13), with and without roles written on the wild cards laid off.
"""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from engine.cards import Card, MeldCard
from engine.errors import IllegalLayoff
from engine.layoff_check import extend_reading as _extend
from engine.layoff_quick import _UNSURE, _quick_extend
from engine.layoffs import TableMeld, table_melds
from engine.melds import MeldKind, rank_at
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, round_info
from tests.engine.test_layoff_reference import CHECK, Drawn, layoff_games


def _full(reading: TableMeld, laid: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> TableMeld | None:
    try:
        return _extend(reading, laid, rules, info, "")
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
