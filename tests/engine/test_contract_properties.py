"""Contract Rummy against a brute-force reference (RULES.md 9): contracts and held-card scoring.

The reference reads RULES.md section 9 literally and shares nothing with the engine but the card
types: a set is 3 or more cards of one rank, a run 4 or more of one suit in sequence, aces at
either end but never both and never wrapping; any number of wilds, at least one natural; melds
are exactly the deal's contract when some choice of kinds, one per meld, is the contract.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank, parse_meld
from engine.contracts import check_contract, verify_joker_swap
from engine.deck import STANDARD_SUITS
from engine.layoffs import can_lay_off, table_melds
from engine.melds import check_meld
from engine.penalties import hand_penalty
from engine.rules import rule_set
from engine.schedule import round_info

PROPERTY = settings(max_examples=300, deadline=None)
CONTRACTS = {
    1: ("set", "set"),
    2: ("set", "run"),
    3: ("run", "run"),
    4: ("set", "set", "set"),
    5: ("set", "set", "run"),
    6: ("set", "run", "run"),
    7: ("run", "run", "run"),
}


# --- the reference -----------------------------------------------------------------------


def is_wild(card: Card, twos_wild: bool) -> bool:
    return card.is_joker or (twos_wild and card.rank is Rank.TWO)


def reference_set(cards: Sequence[Card], twos_wild: bool) -> bool:
    naturals = [card for card in cards if not is_wild(card, twos_wild)]
    return len(cards) >= 3 and bool(naturals) and len({card.rank for card in naturals}) == 1


def places(rank: Rank) -> tuple[int, ...]:
    return (1, 14) if rank is Rank.ACE else (int(rank),)


def reference_run(cards: Sequence[Card], twos_wild: bool) -> bool:
    naturals = [card for card in cards if not is_wild(card, twos_wild)]
    if len(cards) < 4 or not naturals or len({card.suit for card in naturals}) != 1:
        return False
    for start in range(1, 15 - len(cards) + 1):
        window = set(range(start, start + len(cards)))
        if {1, 14} <= window:
            continue  # an ace at both ends
        for choice in itertools.product(*(places(card.rank) for card in naturals if card.rank is not None)):
            if len(set(choice)) == len(choice) and set(choice) <= window:
                return True
    return False


def reference_kinds(cards: Sequence[Card], twos_wild: bool) -> set[str]:
    kinds = set()
    if reference_set(cards, twos_wild):
        kinds.add("set")
    if reference_run(cards, twos_wild):
        kinds.add("run")
    return kinds


def reference_contract(melds: Sequence[Sequence[Card]], wanted: tuple[str, ...], twos_wild: bool) -> bool:
    if len(melds) != len(wanted):
        return False
    options = [reference_kinds(meld, twos_wild) for meld in melds]
    return any(sorted(choice) == sorted(wanted) for choice in itertools.product(*options))


def reference_points(cards: Sequence[Card], ace: int, joker: int) -> int:
    total = 0
    for card in cards:
        if card.rank is None:
            total += joker
        elif card.rank is Rank.ACE:
            total += ace
        else:
            total += min(int(card.rank), 10)
    return total


# --- strategies --------------------------------------------------------------------------

naturals = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(STANDARD_SUITS)))
any_card = st.one_of(naturals, st.just(Card.JOKER))


@st.composite
def near_sets(draw: st.DrawFn) -> list[Card]:
    rank = draw(st.sampled_from(list(Rank)))
    size = draw(st.integers(2, 5))
    cards = [
        Card.JOKER if draw(st.integers(0, 3)) == 0 else Card(rank, draw(st.sampled_from(list(STANDARD_SUITS))))
        for _ in range(size)
    ]
    return perturbed(draw, cards)


@st.composite
def near_runs(draw: st.DrawFn) -> list[Card]:
    suit = draw(st.sampled_from(list(STANDARD_SUITS)))
    size = draw(st.integers(3, 7))
    start = draw(st.integers(1, 15 - size))
    cards = []
    for place in range(start, start + size):
        rank = Rank.ACE if place in (1, 14) else Rank(place)
        cards.append(Card.JOKER if draw(st.integers(0, 3)) == 0 else Card(rank, suit))
    return perturbed(draw, cards)


def perturbed(draw: st.DrawFn, cards: list[Card]) -> list[Card]:
    """Sometimes a card changed, added or dropped, and the order shuffled (the cards decide, D10)."""
    change = draw(st.integers(0, 8))
    if change == 0 and cards:
        cards[draw(st.integers(0, len(cards) - 1))] = draw(any_card)
    elif change == 1:
        cards.append(draw(any_card))
    elif change == 2 and cards:
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    return list(draw(st.permutations(cards)))


melds_strategy = st.one_of(near_sets(), near_runs())


@st.composite
def attempts(draw: st.DrawFn, number: int) -> list[list[Card]]:
    """Melds laid down for a deal: mostly one near-meld of each kind the contract asks for, in any
    order, sometimes with a meld of the wrong kind, one missing or one extra."""
    kinds = list(CONTRACTS[number])
    change = draw(st.integers(0, 5))
    if change == 0:
        kinds[draw(st.integers(0, len(kinds) - 1))] = draw(st.sampled_from(["set", "run"]))
    elif change == 1:
        kinds.pop()
    elif change == 2:
        kinds.append(draw(st.sampled_from(["set", "run"])))
    melds = [draw(near_sets() if kind == "set" else near_runs()) for kind in kinds]
    return list(draw(st.permutations(melds)))


def as_meld(cards: Sequence[Card]) -> tuple[MeldCard, ...]:
    return tuple(MeldCard(card) for card in cards)


# --- properties ----------------------------------------------------------------------------


@PROPERTY
@given(cards=melds_strategy, twos_wild=st.booleans())
def test_meld_legality_matches_the_reference(cards: list[Card], twos_wild: bool) -> None:
    rules = rule_set("contract-rummy", {"twos_wild": twos_wild})
    verdict = check_meld(as_meld(cards), rules, round_info(rules, 1))
    assert verdict.valid == bool(reference_kinds(cards, twos_wild)), (cards, verdict.reason)
    if verdict.valid:
        assert verdict.kind is not None and verdict.kind.value in reference_kinds(cards, twos_wild)


@PROPERTY
@given(data=st.data(), number=st.integers(1, 7), twos_wild=st.booleans())
def test_contract_verdict_matches_the_reference(data: st.DataObject, number: int, twos_wild: bool) -> None:
    melds = [meld for meld in data.draw(attempts(number)) if meld] or [[Card.JOKER]]
    rules = rule_set("contract-rummy", {"twos_wild": twos_wild})
    verdict = check_contract([as_meld(meld) for meld in melds], rules, round_info(rules, number))
    expected = reference_contract(melds, CONTRACTS[number], twos_wild)
    assert verdict.valid == expected, (number, melds, verdict.reason)
    assert (verdict.reason is None) == expected
    if expected:
        kinds = sorted(entry.kind.value for entry in verdict.melds if entry.kind is not None)
        assert kinds == sorted(CONTRACTS[number])


@PROPERTY
@given(
    hand=st.lists(any_card, max_size=20),
    ace=st.integers(0, 100),
    joker=st.integers(0, 100),
    twos_wild=st.booleans(),
    number=st.integers(1, 7),
)
def test_held_cards_score_in_full_as_the_reference(
    hand: list[Card], ace: int, joker: int, twos_wild: bool, number: int
) -> None:
    rules = rule_set("contract-rummy", {"ace_points": ace, "joker_points": joker, "twos_wild": twos_wild})
    assert hand_penalty(hand, rules, round_info(rules, number)) == reference_points(hand, ace, joker)


@st.composite
def runs_with_a_joker(draw: st.DrawFn) -> tuple[str, Card]:
    """A legal run written with its jokers' roles, and the natural one joker stands for."""
    suit = draw(st.sampled_from(list(STANDARD_SUITS)))
    size = draw(st.integers(4, 8))
    start = draw(st.integers(1, 15 - size))
    naturals = [Card(Rank.ACE if place in (1, 14) else Rank(place), suit) for place in range(start, start + size)]
    jokers = draw(st.sets(st.integers(0, size - 1), min_size=1, max_size=size - 1))
    written = [f"JK={card}" if index in jokers else str(card) for index, card in enumerate(naturals)]
    return " ".join(written), naturals[draw(st.sampled_from(sorted(jokers)))]


@PROPERTY
@given(drawn=runs_with_a_joker())
def test_a_joker_swap_keeps_the_run_and_gives_one_joker_back(drawn: tuple[str, Card]) -> None:
    written, natural = drawn
    rules = rule_set("contract-rummy", {"joker_swap": True})
    info = round_info(rules, 3)
    (run,) = table_melds([written], rules, info)
    assert not can_lay_off([run], 0, parse_meld(str(natural)), rules, info)  # a lay-off may not replace it
    swap = verify_joker_swap(run, parse_meld(str(natural)), rules, info)
    assert swap.joker == Card.JOKER and swap.card == natural
    assert swap.meld.read_as == run.read_as and swap.meld.positions == run.positions
    assert Counter(run.cards) - Counter(swap.meld.cards) == Counter([Card.JOKER])
    assert check_meld(swap.meld.meld_cards, rules, info).valid


@st.composite
def table_and_layoff(draw: st.DrawFn) -> tuple[list[Card], list[Card]]:
    """A legal meld on the table (a set, maybe with a joker; or a run of naturals) and 1-3 cards to
    lay off on it: near cards of its rank or suit, jokers, or any card."""
    if draw(st.booleans()):
        rank = draw(st.sampled_from(list(Rank)))
        meld = [Card(rank, draw(st.sampled_from(list(STANDARD_SUITS)))) for _ in range(draw(st.integers(3, 4)))]
        if draw(st.booleans()):
            meld[0] = Card.JOKER
        near = st.builds(Card, st.just(rank), st.sampled_from(list(STANDARD_SUITS)))
    else:
        suit = draw(st.sampled_from(list(STANDARD_SUITS)))
        size = draw(st.integers(4, 6))
        start = draw(st.integers(1, 15 - size))
        meld = [Card(Rank.ACE if place in (1, 14) else Rank(place), suit) for place in range(start, start + size)]
        near = st.builds(
            Card,
            st.sampled_from([rank_at(place) for place in range(start - 3, start + size + 3) if 1 <= place <= 14]),
            st.just(suit),
        )
    laid = draw(st.lists(st.one_of(near, near, st.just(Card.JOKER), any_card), min_size=1, max_size=3))
    return meld, laid


def rank_at(place: int) -> Rank:
    return Rank.ACE if place in (1, 14) else Rank(place)


@PROPERTY
@given(drawn=table_and_layoff())
def test_a_lay_off_on_the_table_is_legal_when_the_cards_together_make_the_meld(
    drawn: tuple[list[Card], list[Card]],
) -> None:
    meld, laid = drawn
    rules = rule_set("contract-rummy")
    info = round_info(rules, 6)
    (on_table,) = table_melds([" ".join(str(card) for card in meld)], rules, info)
    kind = on_table.kind.value
    together = [*meld, *laid]
    expected = reference_set(together, False) if kind == "set" else reference_run(together, False)
    assert can_lay_off([on_table], 0, as_meld(laid), rules, info) == expected, (meld, laid)
