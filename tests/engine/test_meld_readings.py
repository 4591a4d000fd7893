"""Readings of a meld against the brute-force reference (RULES.md 1-4, D10, D12, D14).

A meld is legal when some arrangement of its cards is (D10): ``check_meld`` must agree with
``reference_meld_readings`` (every place and suit each card could take) for every preset, every
``ace`` setting and every option that limits wild cards, and ``meld_readings`` must list exactly
the reference's readings, each of them legal with its roles kept.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank, Suit, format_cards
from engine.deck import STANDARD_SUITS
from engine.melds import (
    MeldKind,
    Reading,
    can_meld,
    check_meld,
    meld_readings,
    open_readings,
    placed_reading,
    placed_run,
    rank_at,
    rank_positions,
    run_range,
)
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, round_info
from tests.engine.reference import (
    DeclarerMeld,
    reference_declarer_meld_ok,
    reference_meld_readings,
    reference_run_ok,
)

PROPERTY = settings(max_examples=400, deadline=None)
RUMMY = ["pay-me", "pay-me-family", "three-thirteen", "3-13"]
CHOICES: dict[str, list[object]] = {
    "ace": [None, "low", "high", "both"],
    "wild_limit": [None, "none", "not_more_than_naturals"],
    "no_adjacent_wilds": [None, True, False],
    "no_aces_in_runs": [None, None, True],
    "distinct_suit_sets": [None, None, True],
    "wild_in_place_natural": [None, None, True],
    "full_cycle": [None, None, True],
}
MAX_FREE_WILDS = 4  # keeps the brute force quick

Drawn = tuple[RuleSet, RoundInfo, list[MeldCard]]


@st.composite
def tables(draw: st.DrawFn) -> tuple[RuleSet, RoundInfo]:
    variant = draw(st.sampled_from(RUMMY))
    options = {key: value for key, values in CHOICES.items() if (value := draw(st.sampled_from(values))) is not None}
    rules = rule_set(variant, options)
    aces_wild = options.get("full_cycle") and draw(st.booleans())  # the 14-card round (D12)
    number = 12 if aces_wild else draw(st.integers(1, rules.rounds))
    return rules, round_info(rules, number)


def _wild_pool(info: RoundInfo) -> list[Card]:
    pool = [Card(rank, suit) for rank in sorted(info.wild_ranks) for suit in STANDARD_SUITS]
    return pool + [Card.JOKER] * 3 if info.jokers_wild else pool


@st.composite
def melds(draw: st.DrawFn) -> Drawn:
    """Run-like, set-like or loose groups of 3 to 14 cards in any order, some wilds with roles."""
    rules, info = draw(tables())
    wilds = _wild_pool(info)
    shape = draw(st.sampled_from(["run", "run", "set", "loose"]))
    suit = draw(st.sampled_from(list(STANDARD_SUITS)))
    if shape == "run":
        length = draw(st.one_of(st.integers(3, 6), st.integers(7, 14)))  # 14: A to K and A again (D14)
        start = draw(st.integers(1, 15 - length))
        intended = [Card(rank_at(place), suit) for place in range(start, start + length)]
    elif shape == "set":
        rank = draw(st.sampled_from(list(Rank)))
        intended = [Card(rank, draw(st.sampled_from(list(STANDARD_SUITS)))) for _ in range(draw(st.integers(3, 6)))]
    else:
        near = [Card(Rank(rank), other) for rank in range(1, 14) for other in (suit, Suit.CLUBS)]
        first = draw(st.integers(0, len(near) - 6))
        intended = [draw(st.sampled_from(near[first : first + 6])) for _ in range(draw(st.integers(3, 7)))]
    group: list[MeldCard] = []
    free = 0
    for card in intended:
        if wilds and draw(st.integers(0, 2)) == 0:
            wild = draw(st.sampled_from(wilds))
            if draw(st.integers(0, 3)) == 0:
                group.append(MeldCard(wild, card))  # a role: binding
                continue
            if free < MAX_FREE_WILDS:
                free += 1
                group.append(MeldCard(wild))
                continue
        group.append(MeldCard(card))
    if draw(st.integers(0, 4)) == 0 and len(group) > 3:
        del group[draw(st.integers(0, len(group) - 1))]  # leave a gap
    order = draw(st.sampled_from(["as drawn", "reversed", "shuffled"]))
    if order == "reversed":
        group.reverse()
    elif order == "shuffled":
        random.Random(draw(st.integers(0, 10**6))).shuffle(group)
    return rules, info, group


def _shape(reading: Reading) -> tuple[str, int, str]:
    if reading.kind is MeldKind.SET:
        assert reading.rank is not None
        return ("set", int(reading.rank), "")
    assert reading.suit is not None
    return ("run", reading.low, reading.suit.value)


def _assert_legal_with_roles(group: list[MeldCard], reading: Reading, rules: RuleSet, info: RoundInfo) -> None:
    plain = tuple(held.card for held in group)
    assert reference_declarer_meld_ok(DeclarerMeld(plain, reading.read_as), rules, info), reading
    for held, stands, wild in zip(group, reading.read_as, reading.wild, strict=True):
        assert stands == (held.role or stands), f"{held} was read as {stands}"
        if not info.is_wild(held.card):
            assert stands == held.card and not wild
    if reading.kind is MeldKind.RUN:
        assert reading.suit is not None
        assert reference_run_ok(group, reading.positions, reading.suit, rules, info), reading
        assert list(reading.read_as) == [Card(rank_at(place), reading.suit) for place in reading.positions]


def _written_runs(group: list[MeldCard], rules: RuleSet, info: RoundInfo) -> set[tuple[Suit, int]]:
    """Every legal run the cards make read in the order written, either way: (suit, lowest place).

    Read up or down, the same writing can be two runs: 2♠ 2♠ 3♠ 2♠ is A-4 read up and 2-5 read
    down when the middle 2♠ may stand for itself (Wild in its own place is natural)."""
    return {
        (suit, min(places))
        for suit in STANDARD_SUITS
        for step in (1, -1)
        for start in range(1, 15)
        for places in ([start + step * index for index in range(len(group))],)
        if reference_run_ok(group, places, suit, rules, info)
    }


def _written_sequence_is_legal(group: list[MeldCard], rules: RuleSet, info: RoundInfo) -> bool:
    """Whether the cards, read in the order written (either way), make a legal run."""
    return bool(_written_runs(group, rules, info))


@PROPERTY
@given(melds())
def test_a_meld_is_legal_when_some_arrangement_of_its_cards_is(drawn: Drawn) -> None:
    rules, info, group = drawn
    expected = reference_meld_readings(group, rules, info)
    verdict = check_meld(group, rules, info)
    assert verdict.valid == bool(expected), f"{format_cards(group)}: {verdict.reason}"
    assert can_meld(group, rules, info) == bool(expected)
    if not verdict.valid:
        assert verdict.reason and verdict.reading is None and verdict.reading_text is None
        assert "D1" not in verdict.reason and "_" not in verdict.reason
        return
    reading = verdict.reading
    assert reading is not None
    assert _shape(reading) in expected
    _assert_legal_with_roles(group, reading, rules, info)
    if any(shape[0] == "set" for shape in expected):
        assert reading.kind is MeldKind.SET  # a set is preferred when the cards make both
    elif _written_sequence_is_legal(group, rules, info):
        steps = {later - earlier for earlier, later in zip(reading.positions, reading.positions[1:], strict=False)}
        assert steps in ({1}, {-1}), f"{format_cards(group)} was read as {verdict.arranged_text}"


@PROPERTY
@given(melds())
def test_meld_readings_are_every_legal_reading(drawn: Drawn) -> None:
    rules, info, group = drawn
    readings = meld_readings(group, rules, info)
    assert {_shape(reading) for reading in readings} == reference_meld_readings(group, rules, info), format_cards(group)
    for reading in readings:
        _assert_legal_with_roles(group, reading, rules, info)


@PROPERTY
@given(melds(), st.randoms(use_true_random=False))
def test_the_written_order_never_decides_legality(drawn: Drawn, rnd: random.Random) -> None:
    rules, info, group = drawn
    shuffled = list(group)
    rnd.shuffle(shuffled)
    assert can_meld(shuffled, rules, info) == can_meld(group, rules, info), format_cards(group)
    assert {_shape(r) for r in meld_readings(shuffled, rules, info)} == {
        _shape(r) for r in meld_readings(group, rules, info)
    }


@PROPERTY
@given(melds())
def test_open_readings_start_with_the_verdicts_reading(drawn: Drawn) -> None:
    rules, info, group = drawn
    verdict = check_meld(group, rules, info)
    opened = open_readings(group, rules, info)
    assert bool(opened) == verdict.valid, format_cards(group)
    if not opened:
        return
    assert opened[0] == verdict.reading
    expected = reference_meld_readings(group, rules, info)
    for reading in opened:
        assert _shape(reading) in expected
        _assert_legal_with_roles(group, reading, rules, info)
    if verdict.kind is MeldKind.RUN and len(_written_runs(group, rules, info)) == 1:
        assert len({_shape(reading) for reading in opened}) == 1  # the writing fixes the run


def test_a_writing_that_reads_as_two_runs_keeps_both_open() -> None:
    """2♠ 2♠ 3♠ 2♠ in Pay Me round 2 (2s and 4s wild) with Wild in its own place is natural and
    wilds side by side allowed: read up it is A-4 (the second 2♠ as itself), read down 2-5 (the
    last 2♠ as itself); the writing fixes neither, so both readings stay open (D13)."""
    rules = rule_set("pay-me", {"wild_in_place_natural": "true", "no_adjacent_wilds": "false", "ace": "low"})
    info = round_info(rules, 2)
    group = [MeldCard.parse(token) for token in ("2S", "2S", "3S", "2S")]
    assert len(_written_runs(group, rules, info)) == 2
    assert [reading.words for reading in open_readings(group, rules, info)] == ["A♠ 2♠ 3♠ 4♠", "2♠ 3♠ 4♠ 5♠"]


def test_a_thirteen_card_run_up_to_a_wild_ace_agrees_with_the_reference() -> None:
    """2♠ (as itself) to K♠ with a wild 2 as A♠, ace both ways: legal, read 2 to A. The wilds (the
    2s and the round's 4) stand on 2, 4, 6, 8 and the ace's place 14, never side by side; 5 wilds
    against 8 naturals keeps the wild limit; the run has 13 cards and one ace (D14); a wild is
    still a wild where it stands for itself (D1). Read A to K instead, the ace's wild would stand
    beside 2♠'s, which the reference once took as the only layout and so refused the meld."""
    rules = rule_set("pay-me", {"ace": "both"})
    info = round_info(rules, 2)
    written = "2S=2S 3S 4S 5S 2S 7S 2S 9S 10S JS QS KS 2S"
    group = [MeldCard.parse(token) for token in written.split(" ")]
    readings = meld_readings(group, rules, info)
    assert [(reading.low, reading.high) for reading in readings] == [(2, 14)]
    assert reference_meld_readings(group, rules, info) == {("run", 2, "S")}
    plain = tuple(held.card for held in group)
    assert all(reference_declarer_meld_ok(DeclarerMeld(plain, reading.read_as), rules, info) for reading in readings)


# --- placed melds: every card's place given, as the declarer's readings try them -------------


@st.composite
def placed_melds(draw: st.DrawFn) -> tuple[RuleSet, RoundInfo, MeldKind, list[MeldCard]]:
    """Sets of one rank, and runs on consecutive places the game allows (low end first), every
    wild card written with its role (itself now and then), as `layoffs` lays out a reading."""
    if draw(st.integers(0, 4)):
        rules, info = draw(tables())
    else:  # runs of four cards at least
        rules = rule_set("contract-rummy", {"twos_wild": draw(st.booleans())})
        info = round_info(rules, draw(st.integers(1, rules.rounds)))
    wilds = _wild_pool(info)
    kind = draw(st.sampled_from([MeldKind.SET, MeldKind.RUN]))
    if kind is MeldKind.SET:
        rank = draw(st.sampled_from(list(Rank)))
        intended = [Card(rank, draw(st.sampled_from(list(STANDARD_SUITS)))) for _ in range(draw(st.integers(2, 6)))]
    else:
        lowest, highest = run_range(rules.options.ace, rules.options.no_aces_in_runs)
        length = draw(st.one_of(st.integers(2, 5), st.integers(2, min(14, highest - lowest + 1))))
        start = draw(st.integers(lowest, highest - length + 1))
        suit = draw(st.sampled_from(list(STANDARD_SUITS)))
        intended = [Card(rank_at(place), suit) for place in range(start, start + length)]
    group = []
    for card in intended:
        if info.is_wild(card):
            group.append(MeldCard(card, card))
        elif wilds and draw(st.integers(0, 2)) == 0:
            group.append(MeldCard(draw(st.sampled_from(wilds)), card))
        else:
            group.append(MeldCard(card))
    return rules, info, kind, group


@PROPERTY
@given(placed_melds())
def test_a_placed_meld_reads_as_the_meld_check_reads_it(
    drawn: tuple[RuleSet, RoundInfo, MeldKind, list[MeldCard]],
) -> None:
    rules, info, kind, group = drawn
    verdict = check_meld(group, rules, info)
    expected = verdict.reading if verdict.kind is kind else None
    assert placed_reading(group, kind, rules, info) == expected, format_cards(group)
    if kind is MeldKind.RUN:  # the same from the cards alone, told the run's suit and low end
        first = group[0].role or group[0].card
        assert first.rank is not None and first.suit is not None
        suit, low = first.suit, rank_positions(first.rank, rules.options.ace, rules.options.no_aces_in_runs)[0]
        assert placed_run([held.card for held in group], suit, low, rules, info) == expected, format_cards(group)
