"""The declarer's split made faster (issue 11 §5): each quick path answers as the code it
shortcuts. A meld split from a loose hand (engine.layoff_table.loose_meld: its readings found
directly for plain cards, the one shown chosen by the fast paths of engine.layoff_quick) is the
meld table_melds reads from the same cards written out with `loose` (every reading tried, the one
shown chosen by check_meld), or the same refusal."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Rank, Suit, parse_cards, split_tokens
from engine.deck import STANDARD_SUITS
from engine.errors import CardError, IllegalMeld
from engine.layoff_table import loose_meld
from engine.layoffs import TableMeld, table_melds
from engine.rules import AceRule, RuleSet, WildLimit, rule_set
from engine.schedule import RoundInfo, round_info

CARDS = [Card(rank, suit) for rank in Rank for suit in STANDARD_SUITS] + [Card.JOKER]


def parse_cards_before(text: str) -> tuple[Card, ...]:
    """parse_cards before canonical tokens were looked up whole."""
    cards = []
    for position, token in enumerate(split_tokens(text), start=1):
        if "=" in token:
            raise CardError(f'"{token}" at position {position}: a hand takes plain cards, not wild roles')
        try:
            cards.append(Card.parse(token))
        except CardError:
            raise CardError(f'"{token}" at position {position} is not a card') from None
    return tuple(cards)


def outcome(parse: object, text: str) -> object:
    try:
        return parse(text)  # type: ignore[operator]
    except CardError as problem:
        return str(problem)


TOKENS = st.one_of(
    st.sampled_from(CARDS).map(str),
    st.sampled_from(CARDS).map(lambda card: str(card).lower()),
    st.sampled_from(CARDS).map(lambda card: card.symbol),
    st.sampled_from(["T♠", "joker", "*", "10", "1H", "7X", "JK=7H", "2C=8H", "QQ", "", "h"]),
)
GAPS = st.sampled_from([" ", "  ", "\t", "\n", ",", ", ", "\u00a0", "\u2003", "\x1c"])


@settings(max_examples=500, deadline=None)
@given(tokens=st.lists(TOKENS, max_size=14), gaps=st.lists(GAPS, min_size=15, max_size=15), ends=st.booleans())
def test_a_hand_reads_as_token_by_token(tokens: list[str], gaps: list[str], ends: bool) -> None:
    text = "".join(token + gap for token, gap in zip(tokens, gaps, strict=False))
    text = f" {text}" if ends else text.rstrip()
    assert outcome(parse_cards, text) == outcome(parse_cards_before, text)


def test_canonical_tokens_name_every_card_once() -> None:
    text = " ".join(str(card) for card in CARDS)
    assert parse_cards(text) == tuple(CARDS) == parse_cards_before(text)


@st.composite
def tables(draw: st.DrawFn, in_place: bool = False) -> tuple[RuleSet, RoundInfo]:
    """A rummy game with its ace, set, run and wild options shuffled, and one of its rounds; a wild
    in its own place counting as natural only with `in_place` (every order of many wilds is tried then)."""
    base = rule_set(draw(st.sampled_from(["pay-me", "pay-me-family", "3-13", "three-thirteen", "contract-rummy"])))
    options = replace(
        base.options,
        ace=draw(st.sampled_from(list(AceRule))),
        no_aces_in_runs=draw(st.booleans()),
        distinct_suit_sets=draw(st.booleans()),
        wild_limit=draw(st.sampled_from(list(WildLimit))),
        no_adjacent_wilds=draw(st.booleans()),
        wild_in_place_natural=in_place and draw(st.booleans()),
    )
    rules = RuleSet(base.preset, options)
    return rules, round_info(rules, draw(st.integers(1, rules.rounds)))


@st.composite
def near_melds(draw: st.DrawFn, info: RoundInfo) -> tuple[Card, ...]:
    """Cards of one suit or one rank in any order (ranks repeated, gaps, aces), now and then a card
    changed for any card or for the round's wild cards."""
    size = draw(st.integers(0, 13))
    if draw(st.booleans()):
        suit = draw(st.sampled_from(list(STANDARD_SUITS)))
        low = draw(st.one_of(st.sampled_from([1, 2, 11, 12]), st.integers(1, 13)))  # the ends of a suit often
        ranks = [Rank(low + step) if low + step <= 13 else Rank.ACE for step in range(min(size, 14 - low))]
        ranks += draw(st.lists(st.sampled_from(list(Rank)), max_size=2))
        cards = [Card(rank, suit) for rank in draw(st.permutations(ranks))]
    else:
        rank = draw(st.sampled_from(list(Rank)))
        cards = [Card(rank, draw(st.sampled_from(list(STANDARD_SUITS)))) for _ in range(size)]
    wilds = [card for card in CARDS if info.is_wild(card)]
    for _ in range(draw(st.integers(0, 2)) if cards else 0):
        choices = st.sampled_from(wilds) if wilds and draw(st.booleans()) else st.sampled_from([*CARDS, Card.JOKER])
        cards.insert(draw(st.integers(0, len(cards))), draw(choices))
        if draw(st.booleans()):
            del cards[draw(st.integers(0, len(cards) - 1))]
    return tuple(cards)


@settings(max_examples=1500, deadline=None)
@given(data=st.data(), table=tables())
def test_plain_cards_read_as_every_window_tried(data: st.DataObject, table: tuple[RuleSet, RoundInfo]) -> None:
    rules, info = table
    cards = data.draw(near_melds(info))
    assert_read_alike(cards, rules, info)


@pytest.mark.parametrize("ace", list(AceRule))
@pytest.mark.parametrize(
    ("variant", "number", "text"),
    [
        ("pay-me-family", 11, "2H 3H JK"),  # kings wild
        ("pay-me-family", 11, "JK QH JH"),
        ("pay-me-family", 11, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KS"),
        ("pay-me-family", 11, "3H KS 5H"),
        ("pay-me-family", 11, "QS QH JK"),
        ("contract-rummy", 7, "JK 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"),  # jokers alone wild
        ("contract-rummy", 7, "3H 4H JK"),
        ("three-thirteen", 1, "4H 5H JK"),  # jokers not wild
    ],
)
def test_runs_at_the_ends_of_a_suit_read_as_every_window_tried(
    ace: AceRule, variant: str, number: int, text: str
) -> None:
    base = rule_set(variant)
    cards = parse_cards(text)
    for no_aces in (False, True):
        rules = RuleSet(base.preset, replace(base.options, ace=ace, no_aces_in_runs=no_aces))
        info = round_info(rules, number)
        assert_read_alike(cards, rules, info)


def read_written(cards: tuple[Card, ...], number: int, rules: RuleSet, info: RoundInfo) -> TableMeld:
    """What loose_meld must answer: table_melds' reading of the cards written out, with `loose`."""
    (meld,) = table_melds([" ".join(str(card) for card in cards)], rules, info, loose=True)
    return meld


def meld_outcome(read: object, cards: tuple[Card, ...], rules: RuleSet, info: RoundInfo) -> object:
    try:
        return read(cards, 1, rules, info)  # type: ignore[operator]
    except IllegalMeld as problem:
        return str(problem)


def assert_read_alike(cards: tuple[Card, ...], rules: RuleSet, info: RoundInfo) -> None:
    if cards:  # (no cards: nothing written out)
        assert meld_outcome(loose_meld, cards, rules, info) == meld_outcome(read_written, cards, rules, info)


@settings(max_examples=1500, deadline=None)
@given(data=st.data(), table=tables())
def test_a_meld_split_from_a_hand_reads_as_check_meld_chooses(
    data: st.DataObject, table: tuple[RuleSet, RoundInfo]
) -> None:
    rules, info = table
    cards = data.draw(near_melds(info))
    found = meld_outcome(read_written, cards, rules, info) if cards else None
    readings: tuple[TableMeld, ...] = found.readings if isinstance(found, TableMeld) else ()
    if readings and data.draw(st.booleans()):  # laid out as a reading lays them, as the search does
        laid = data.draw(st.sampled_from(readings)).cards
        cards = laid[::-1] if data.draw(st.booleans()) else laid
    assert_read_alike(cards, rules, info)


@st.composite
def runs_with_a_wild(draw: st.DrawFn, info: RoundInfo) -> tuple[Card, ...]:
    """Natural cards of one suit on places side by side (an ace at either end) in any order, a wild
    card anywhere."""
    suit = draw(st.sampled_from(list(STANDARD_SUITS)))
    low = draw(st.integers(1, 13))
    places = range(low, min(low + draw(st.integers(2, 11)), 15))
    ranks = [Rank.ACE if place in (1, 14) else Rank(place) for place in places]
    cards = [Card(rank, suit) for rank in draw(st.permutations(ranks))]
    cards.insert(
        draw(st.integers(0, len(cards))), draw(st.sampled_from([card for card in CARDS if info.is_wild(card)]))
    )
    return tuple(cards)


@settings(max_examples=1000, deadline=None)
@given(data=st.data(), table=tables(in_place=True))
def test_a_run_split_from_a_hand_with_one_wild_reads_as_check_meld_chooses(
    data: st.DataObject, table: tuple[RuleSet, RoundInfo]
) -> None:
    rules, info = table
    cards = data.draw(runs_with_a_wild(info))
    assert_read_alike(cards, rules, info)


@pytest.mark.parametrize(
    "text",
    [
        "JK AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
        "AH 2H 3H 4H 5H JK 6H 7H 8H 9H 10H JH QH",
        "10H 5H 4H 6H 3H QH 8H JH 2H AH 7H 9H JK",
        "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H JK",
    ],
)
def test_a_whole_suit_with_a_wild_and_an_ace_at_either_end_reads_as_check_meld_chooses(text: str) -> None:
    base = rule_set("contract-rummy")
    rules = RuleSet(base.preset, replace(base.options, ace=AceRule.BOTH))
    info = round_info(rules, 7)  # jokers alone wild
    cards = parse_cards(text)
    assert len(loose_meld(cards, 1, rules, info).readings) == 2
    assert_read_alike(cards, rules, info)


@st.composite
def sets_with_wilds(draw: st.DrawFn, info: RoundInfo) -> tuple[Card, ...]:
    """Natural cards of one rank, and wild cards, in any order."""
    rank = draw(st.sampled_from([rank for rank in Rank if not info.is_wild(Card(rank, Suit.SPADES))]))
    naturals = [Card(rank, draw(st.sampled_from(list(STANDARD_SUITS)))) for _ in range(draw(st.integers(1, 5)))]
    wilds = draw(st.lists(st.sampled_from([card for card in CARDS if info.is_wild(card)]), max_size=5))
    return tuple(draw(st.permutations(naturals + wilds)))


@settings(max_examples=1000, deadline=None)
@given(data=st.data(), table=tables())
def test_a_set_with_wilds_reads_as_every_role_tried(data: st.DataObject, table: tuple[RuleSet, RoundInfo]) -> None:
    rules, info = table
    cards = data.draw(sets_with_wilds(info))
    assert_read_alike(cards, rules, info)


@st.composite
def runs_with_wilds(draw: st.DrawFn, info: RoundInfo) -> tuple[Card, ...]:
    """A run of one suit (an ace at either end now and then) with wild cards on some of its places,
    written up, down or in any order, a card left out or added now and then."""
    suit = draw(st.sampled_from(list(STANDARD_SUITS)))
    low = draw(st.integers(1, 13))
    places = list(range(low, min(low + draw(st.integers(3, 13)), 15)))
    wilds = [card for card in CARDS if info.is_wild(card)]
    wild_at = draw(st.sets(st.sampled_from(places), max_size=3))
    cards = [
        draw(st.sampled_from(wilds)) if place in wild_at else Card(Rank.ACE if place in (1, 14) else Rank(place), suit)
        for place in places
    ]
    order = draw(st.sampled_from(["up", "down", "any"]))
    cards = cards[::-1] if order == "down" else list(draw(st.permutations(cards))) if order == "any" else cards
    if draw(st.integers(0, 3)) == 0:
        del cards[draw(st.integers(0, len(cards) - 1))]
    if draw(st.integers(0, 3)) == 0:
        cards.insert(draw(st.integers(0, len(cards))), draw(st.sampled_from(CARDS)))
    return tuple(cards)


@settings(max_examples=1500, deadline=None)
@given(data=st.data(), table=tables(in_place=True))
def test_a_run_with_wilds_reads_as_every_window_tried(data: st.DataObject, table: tuple[RuleSet, RoundInfo]) -> None:
    rules, info = table
    cards = data.draw(runs_with_wilds(info))
    assert_read_alike(cards, rules, info)


@pytest.mark.parametrize("limit", list(WildLimit))
@pytest.mark.parametrize(
    "text",
    [
        "JK 5H JK 7H JK",  # more wilds than naturals
        "5H JK JK 8H 9H",  # wilds side by side
        "9H JK 7H JK 5H",  # written down the run
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK",  # longer than any run
    ],
)
def test_runs_with_several_wilds_read_as_every_window_tried(limit: WildLimit, text: str) -> None:
    base = rule_set("contract-rummy")
    cards = parse_cards(text)
    for no_adjacent in (False, True):
        options = replace(base.options, ace=AceRule.BOTH, wild_limit=limit, no_adjacent_wilds=no_adjacent)
        rules = RuleSet(base.preset, options)
        info = round_info(rules, 7)  # jokers alone wild
        assert_read_alike(cards, rules, info)
