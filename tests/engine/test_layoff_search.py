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
from engine.deck import CODES, STANDARD_SUITS, SUIT_MASK
from engine.errors import EngineError
from engine.layoff_candidates import layoff_candidates as _layoff_candidates
from engine.layoff_search import _LayoffSearch
from engine.layoffs import LayoffScore, TableMeld, declarer_melds, score_in_turn, table_melds
from engine.melds import MeldKind, rank_at, run_range
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, schedule
from engine.solver import penalty_values
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
        deck = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank] * 3 + [Card.JOKER] * 6
        wilds = [card for card in deck if info.is_wild(card)]
        cards: list[Card] = []
        for size in rng.choice([(3, 3, 3, 4), (3, 5, 5), (4, 4, 5), (3, 4, 6), (6, 7), (3, 10)]):
            if rng.random() < 0.5:
                suit, low = rng.choice(list(STANDARD_SUITS)), rng.randint(2, 14 - size)
                meld = [Card(Rank(place), suit) for place in range(low, low + size)]
            else:
                rank = rng.choice([rank for rank in Rank if rank is not Rank.ACE])
                meld = [Card(rank, rng.choice(list(STANDARD_SUITS))) for _ in range(size)]
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


def _tables_before(
    hand: Counter[Card], declarer: tuple[TableMeld, ...], rules: RuleSet, info: RoundInfo, values: list[int]
) -> dict[str, object]:
    """The lay-off search's tables as its set-up made them before (main at b4853be): card by card,
    and place by place out from each run's ends."""
    keys = tuple(hand)
    wild = [info.is_wild(Card.JOKER)] + [False] * (CODES - 1)
    for rank in Rank:
        for suit in STANDARD_SUITS:
            wild[Card(rank, suit).code] = info.is_wild(Card(rank, suit))
    natural_at = tuple(index for index, card in enumerate(keys) if not wild[card.code])
    wild_at = tuple(index for index, card in enumerate(keys) if wild[card.code])
    wild_count = sum(hand[keys[index]] for index in wild_at)
    at_code = [-1] * CODES
    for at in natural_at:
        at_code[keys[at].code] = at
    lowest, highest = run_range(rules.options.ace, rules.options.no_aces_in_runs)
    layable = []
    for meld in declarer:
        fits = set(wild_at)
        for reading in meld.readings:
            first = reading.read_as[0]
            if reading.kind is MeldKind.SET:
                assert first.rank is not None
                fits.update(at for at in at_code[first.code & ~SUIT_MASK :][: len(Suit)] if at >= 0)
                continue
            assert first.suit is not None
            low, high = reading.positions[0], reading.positions[-1]
            for places in (range(low - 1, lowest - 1, -1), range(high + 1, highest + 1)):
                gaps = 0
                for place in places:
                    at = at_code[Card(rank_at(place), first.suit).code]
                    if at >= 0:
                        fits.add(at)
                    else:
                        gaps += 1
                        if gaps > wild_count:
                            break
        layable.append(fits)
    later_sets = [set().union(*layable[index:]).difference(wild_at) for index in range(len(declarer) + 1)]
    return {
        "start": sum(count << 8 * index for index, count in enumerate(hand.values())),
        "natural_at": natural_at,
        "wild_at": wild_at,
        "wild_count": wild_count,
        "relevant": [tuple(sorted(fits)) for fits in layable],
        "relevant_mask": [sum(255 << 8 * at for at in fits) for fits in layable],
        "later_sets": later_sets,
        "later": [tuple((8 * at, values[keys[at].code]) for at in sorted(union)) for union in later_sets],
        "wild_values": sorted((values[keys[at].code] for at in wild_at for _ in range(hand[keys[at]])), reverse=True),
    }


@settings(CHECK, max_examples=300)
@given(data=st.one_of(layoff_games(), layoff_games(roles=False)))
def test_the_search_set_up_makes_the_tables_it_made_before(data: Drawn) -> None:
    """Which cards may go on each meld, and on each meld and the later ones, with their points; the
    hand's counts packed, its naturals and wilds: as the set-up found them card by card before."""
    written, cards, rules, info = data
    declarer = table_melds(written, rules, info)
    hand = Counter(cards)
    values = penalty_values(rules.options.penalty_table, info)
    search = _LayoffSearch(hand, declarer, rules, info, values)
    expected = _tables_before(hand, declarer, rules, info, values)
    found = {name: getattr(search, name) for name in expected if name != "wild_values"}
    if search.sub_hands is not None:
        found["wild_values"] = search.sub_hands.wild_values
    else:
        expected.pop("wild_values")
    assert found == expected


@settings(CHECK, max_examples=300)
@given(data=st.one_of(layoff_games(), layoff_games(roles=False)))
def test_every_lay_off_without_a_wild_holds_a_natural_the_set_up_found_next_to_its_meld(data: Drawn) -> None:
    """The search skips a meld's candidates by a bound for lay-offs with a wild where no natural
    held goes on it without one: every candidate with no wild card takes one of those naturals."""
    written, cards, rules, info = data
    declarer = table_melds(written, rules, info)
    hand = Counter(cards)
    values = penalty_values(rules.options.penalty_table, info)
    search = _LayoffSearch(hand, declarer, rules, info, values)
    at = {card: index for index, card in enumerate(search.keys)}
    for index, meld in enumerate(declarer):
        for used in _layoff_candidates(meld, hand, rules, info, values):
            if not any(info.is_wild(card) for card in used):
                assert any(search.next_to_mask[index] >> 8 * at[card] & 1 for card in used), (meld, used)
