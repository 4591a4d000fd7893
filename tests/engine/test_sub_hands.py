"""SubHands, the solver's parts of one hand as lay-offs leave it (D7): its arrangement of the cards
kept is always one with their least penalty, and the very one `arrange` gives them wherever the
cards kept fall into the same parts as `arrange` finds them."""

from __future__ import annotations

from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.cards import Card, Rank, parse_cards
from engine.deck import STANDARD_SUITS, SUIT_FIRST
from engine.meldrules import meld_rules
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, round_info, schedule
from engine.solver import SubHands, arrange, penalty_values
from engine.solver.combination import components
from engine.solver.records import CODE_OF
from tests.engine.reference import reference_is_meld, reference_points
from tests.engine.test_solver_output import ARRANGED_PRESETS, OPTION_SETS

# Which wild cards stand for themselves changes the naturals: SubHands is not used there.
SUB_HAND_OPTIONS = [options for options in OPTION_SETS if "wild_in_place_natural" not in options]
WIDTH = 8  # bits a card's count takes in the packed counts, as the lay-off search packs them


@st.composite
def hands_and_removals(draw: st.DrawFn) -> tuple[list[Card], Counter[Card], RuleSet, RoundInfo]:
    """A hand dealt from the preset's largest table (now and then from a few neighbouring ranks
    only, so that it melds more), and some of its cards taken away as lay-offs take them: some
    naturals, and half the time some of its wilds, the dearest first."""
    rules = rule_set(draw(st.sampled_from(ARRANGED_PRESETS)), draw(st.sampled_from(SUB_HAND_OPTIONS)))
    rounds = schedule(rules)
    info = draw(st.sampled_from(rounds[-4:] if draw(st.booleans()) else rounds))  # long hands half the time
    row = rules.preset.largest_table
    low, high = (1, 13) if draw(st.booleans()) else sorted(draw(st.lists(st.integers(1, 13), min_size=2, max_size=2)))
    cards = [Card(Rank(rank), suit) for suit in STANDARD_SUITS for rank in range(low, high + 1)]
    deck = cards * row.decks + [Card.JOKER] * row.jokers
    picks = draw(st.lists(st.integers(0, len(deck) - 1), min_size=3, max_size=min(info.cards, len(deck)), unique=True))
    hand = [deck[pick] for pick in picks]
    naturals = [card for card in hand if not info.is_wild(card)]
    gone = draw(st.lists(st.sampled_from(naturals), max_size=4)) if naturals else []
    values = penalty_values(rules.options.penalty_table, info)
    wilds = sorted([card for card in hand if info.is_wild(card)], key=lambda card: -values[card.code])
    gone += wilds[: draw(st.integers(0, len(wilds)))] if draw(st.booleans()) else []
    return hand, Counter(gone) & Counter(hand), rules, info


THREE_THIRTEEN = rule_set("3-13")
# A run's component reduced to one card, which `arrange` scores as a lone card.
LONE_CARD_LEFT = (
    parse_cards("10S AS 2C 2H 2S 3S 4S"),
    Counter(parse_cards("10S")),
    THREE_THIRTEEN,
    round_info(THREE_THIRTEEN, 8),
)

PAY_ME = rule_set("pay-me")
# A component split in two by the card laid off: another arrangement as good as `arrange`'s.
COMPONENT_SPLIT = (
    parse_cards("QS 2S 2D KD 10D 6D JS 10H 5H AH AS 7H 5S"),
    Counter(parse_cards("7H")),
    PAY_ME,
    round_info(PAY_ME, 11),
)


def _groups(naturals: Counter[Card], wild_count: int, rules: RuleSet, tight: bool = False) -> list[list[Card]]:
    """The natural cards split into the groups the solver searches apart, with `wild_count` wilds
    (`tight`: as SubHands splits them, see `components`)."""
    distinct = sorted(naturals, key=lambda card: SUIT_FIRST[card.code])
    places = [CODE_OF[card.code] for card in distinct]
    groups = components(places, wild_count, meld_rules(rules, round_info(rules, 1)), tight=tight)  # no wilds read
    return [[distinct[index] for index in group] for group in groups]


def _as_arrange_parts_them(held: Counter[Card], kept: Counter[Card], info: RoundInfo, rules: RuleSet) -> bool:
    """Whether the cards `kept` of the hand `held` fall into the same parts as `arrange` splits
    them into: every wild card of the hand kept, and the naturals kept falling into the same groups
    of the whole hand's (as SubHands splits it) in the same order, none joined, split or left as a
    lone card."""
    wilds = sum(count for card, count in held.items() if info.is_wild(card))
    if sum(count for card, count in kept.items() if info.is_wild(card)) != wilds:
        return False
    naturals = Counter({card: count for card, count in held.items() if not info.is_wild(card)})
    before = []
    for group in _groups(naturals, wilds, rules, tight=True):
        here = [card for card in group if kept[card]]
        component = len(group) > 1 or naturals[group[0]] > 1  # a group searched as a component
        if component and len(here) == 1 and kept[here[0]] == 1:
            return False
        if here:
            before.append(here)
    return _groups(naturals & kept, wilds, rules) == before


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(hands_and_removals())
@example(LONE_CARD_LEFT)
@example(COMPONENT_SPLIT)
def test_the_cards_kept_are_arranged_at_their_least_penalty(
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
        meld_rules(rules, info),
        values,
    )
    kept = held - gone
    packed = sum(count << WIDTH * at[card] for card, count in kept.items())
    wilds_kept = [card for card in keys for _ in range(kept[card]) if info.is_wild(card)]
    read = parts.arrangement(packed, wilds_kept)
    expected = arrange(list(kept.elements()), rules, info, values)
    if _as_arrange_parts_them(held, kept, info, rules):
        assert read == expected
    assert read.penalty == expected.penalty
    assert Counter(card for meld in read.melds for card in meld) + Counter(read.unmelded) == kept
    assert all(reference_is_meld(meld, rules, info) for meld in read.melds), read
    assert read.penalty == reference_points(read.unmelded, rules, info) // info.multiplier


def _sub_hands(held: Counter[Card], rules: RuleSet, info: RoundInfo) -> tuple[SubHands, dict[Card, int]]:
    """SubHands of the hand as the lay-off search builds them, and each distinct card's index."""
    values = penalty_values(rules.options.penalty_table, info)
    at = {card: index for index, card in enumerate(held)}
    naturals = [card for card in held if not info.is_wild(card)]
    wild_values = [values[card.code] for card in held.elements() if info.is_wild(card)]
    whole = sum(count << WIDTH * at[card] for card, count in held.items())
    shifts = [WIDTH * at[card] for card in naturals]
    return SubHands(naturals, shifts, whole, WIDTH, wild_values, meld_rules(rules, info), values), at


PAY_ME_FOUR = round_info(PAY_ME, 4)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(hands_and_removals())
@example((parse_cards("JK JK JK"), Counter(parse_cards("JK")), PAY_ME, PAY_ME_FOUR))  # no naturals
@example((parse_cards("JK 9S JK"), Counter(parse_cards("9S")), PAY_ME, PAY_ME_FOUR))  # one natural
@example((parse_cards("9S 9S JK"), Counter(parse_cards("9S")), PAY_ME, PAY_ME_FOUR))  # one, twice
def test_parts_asked_in_turn_score_as_when_asked_first(
    case: tuple[list[Card], Counter[Card], RuleSet, RoundInfo],
) -> None:
    """The whole hand, then the cards kept, from one SubHands: the cards kept score as they do
    from a SubHands asked about them alone (the states each part remembers are its own)."""
    hand, gone, rules, info = case
    held = Counter(hand)
    asked, at = _sub_hands(held, rules, info)
    fresh, _ = _sub_hands(held, rules, info)
    kept = held - gone
    for counts in (held, kept, held):
        packed = sum(count << WIDTH * at[card] for card, count in counts.items())
        wilds_gone = sum(count for card, count in (held - counts).items() if info.is_wild(card))
        assert asked.score(packed, wilds_gone) == _sub_hands(held, rules, info)[0].score(packed, wilds_gone)
    packed = sum(count << WIDTH * at[card] for card, count in kept.items())
    wilds_kept = [card for card in held for _ in range(kept[card]) if info.is_wild(card)]
    assert asked.arrangement(packed, wilds_kept) == fresh.arrangement(packed, wilds_kept)
