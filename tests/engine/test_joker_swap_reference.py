"""The joker swap (RULES.md 9, D23) and a single card laid on a run on the table, against a
brute-force reference, for every option that bears on it (joker_swap, twos_wild) and aces at
both ends of a run.

The reference knows the run's places and what stands at each, and reads D5, D14 and D23
literally: a natural laid on a run goes just beyond one of its ends, never making a run with an
ace at both ends; a wild goes beyond either end where there is room; where neither fits, with the
joker swap on, a natural takes back a printed joker that stands for it. A refusal where a wild
stands for the card says that a lay-off may not replace a wild; an ace laid on a run that already
ends in an ace says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.api import layoff_json
from engine.cards import Card, Rank, Suit
from engine.deck import STANDARD_SUITS

CR = "contract-rummy"
PROPERTY = settings(max_examples=400, deadline=None)


def card_at(place: int, suit: Suit) -> Card:
    return Card(Rank.ACE if place in (1, 14) else Rank(place), suit)


def places(rank: Rank) -> tuple[int, ...]:
    return (1, 14) if rank is Rank.ACE else (int(rank),)


@dataclass(frozen=True)
class Run:
    """A run on the table: its suit, its lowest place, and per place the card laid there."""

    suit: Suit
    low: int
    cards: tuple[Card, ...]

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1

    def stands(self, place: int) -> Card:
        return card_at(place, self.suit)


def is_wild(card: Card, twos_wild: bool) -> bool:
    return card.is_joker or (twos_wild and card.rank is Rank.TWO)


def one_ace(low: int, high: int) -> bool:
    return not (low <= 1 and high >= 14)


def reference(run: Run, laid: Card, joker_swap: bool, twos_wild: bool) -> tuple[bool, Card | None, str | None]:
    """(legal, the joker's place taken by a swap as the card now there, or None; the refusal's code
    where the reference names one)."""
    low, high = run.low, run.high
    if is_wild(laid, twos_wild):
        fits = (low > 1 and one_ace(low - 1, high)) or (high < 14 and one_ace(low, high + 1))
        return fits, None, None
    if laid.suit is not run.suit:
        return False, None, "wrong_suit"
    assert laid.rank is not None
    for place in places(laid.rank):
        if place in (low - 1, high + 1) and one_ace(min(low, place), max(high, place)):
            return True, None, None
    wild_places = [
        place for place, card in zip(range(low, high + 1), run.cards, strict=True) if is_wild(card, twos_wild)
    ]
    replaced = [place for place in wild_places if run.stands(place) == laid]
    if joker_swap and any(run.cards[place - low].is_joker for place in replaced):
        return True, laid, None
    if replaced:
        return False, None, "replaces_wild"
    if laid.rank is Rank.ACE and (low == 1 or high == 14):
        return False, None, "duplicate_in_run"
    return False, None, None


@st.composite
def runs(draw: st.DrawFn, twos_wild: bool) -> tuple[Run, str]:
    """A legal run with at least two naturals, some of its places held by printed jokers (and, with
    twos wild, by 2s), written ascending or descending, each wild with or without its role."""
    suit = draw(st.sampled_from(STANDARD_SUITS))
    size = draw(st.integers(4, 13))
    low = draw(st.integers(1, 15 - size))  # never an ace at both ends: at most 13 cards
    spots = list(range(low, low + size))
    naturals = [place for place in spots if not (twos_wild and place == 2)]
    # At most 4 wilds besides a 2's place, so that a laid joker still leaves the 6 of 3 decks.
    fewest = max(2, len(naturals) - 4)
    kept = set(draw(st.lists(st.sampled_from(naturals), min_size=fewest, max_size=len(naturals), unique=True)))
    cards = []
    written = []
    for place in spots:
        stands = card_at(place, suit)
        if place in kept:
            cards.append(stands)
            written.append(str(stands))
            continue
        if twos_wild and draw(st.booleans()):
            wild = Card(Rank.TWO, draw(st.sampled_from(STANDARD_SUITS)))
        else:
            wild = Card.JOKER
        cards.append(wild)
        written.append(f"{wild}={stands}" if draw(st.booleans()) else str(wild))
    if draw(st.booleans()):
        written.reverse()
    return Run(suit, low, tuple(cards)), " ".join(written)


@st.composite
def cases(draw: st.DrawFn) -> tuple[Run, str, Card, bool, bool]:
    twos_wild = draw(st.booleans())
    run, written = draw(runs(twos_wild))
    near = [run.stands(place) for place in range(run.low - 2, run.high + 3) if 1 <= place <= 14]
    aces = [Card(Rank.ACE, run.suit)]
    anything = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(STANDARD_SUITS))
    laid = draw(st.one_of(st.sampled_from(near), st.sampled_from(aces), st.just(Card.JOKER), anything))
    return run, written, laid, draw(st.booleans()), twos_wild


@PROPERTY
@given(case=cases())
def test_a_card_laid_on_a_run_or_swapped_for_its_joker_matches_the_reference(
    case: tuple[Run, str, Card, bool, bool],
) -> None:
    run, written, laid, joker_swap, twos_wild = case
    copies = Counter(card for card in (*run.cards, laid) if not card.is_joker)
    assume(max(copies.values()) <= 3)  # what the 3 decks of the largest table hold (wild 2s may repeat)
    overrides = {"joker_swap": joker_swap, "twos_wild": twos_wild}
    answer = layoff_json(CR, 3, overrides, (), 1, str(laid), table=[written])
    legal, swapped, code = reference(run, laid, joker_swap, twos_wild)
    assert answer["valid"] is legal, (written, str(laid), answer["reason"])
    if swapped is not None:
        assert answer["swap"] is not None, (written, str(laid))
        assert answer["swap"]["card"] == str(laid) and answer["swap"]["joker"] == "JK"
        after = answer["table"][0]
        expected = [str(run.stands(place)) for place in range(run.low, run.high + 1)]
        assert sorted(cell.split("=")[-1] for cell in after) == sorted(expected)
        assert after.count(str(laid)) == 1 + sum(1 for card in run.cards if card == laid)
    else:
        assert answer["swap"] is None
    if code is not None:
        assert answer["code"] == code, (written, str(laid), answer["reason"])
    if code == "duplicate_in_run":
        assert answer["reason"].endswith("that run already ends in an ace.")


def test_the_issue_examples_of_an_ace_taking_back_a_joker() -> None:
    for written in ("JK 2H 3H 4H", "JH QH KH JK", "JK KH QH JH", "JK=AH 2H 3H 4H"):
        answer = layoff_json(CR, 3, {"joker_swap": True}, (), 1, "AH", table=[written, "9C 10C JC QC"])
        assert answer["valid"] is True, written
        assert answer["swap"]["text"] == "AH takes the place of JK, and JK goes back to the player's hand"
        refused = layoff_json(CR, 3, None, (), 1, "AH", table=[written, "9C 10C JC QC"])
        assert (refused["valid"], refused["code"]) == (False, "replaces_wild"), written
        assert "may not replace a wild card" in refused["reason"] and "gap" not in refused["reason"]


def test_a_second_ace_on_a_run_that_ends_in_an_ace() -> None:
    answer = layoff_json(CR, 3, None, (), 1, "AH", table=["10H JH QH KH AH", "9C 10C JC QC"])
    assert (answer["valid"], answer["code"]) == (False, "duplicate_in_run")
    assert answer["reason"] == "AH cannot be laid off on 10H JH QH KH AH: that run already ends in an ace."
    low = layoff_json(CR, 3, {"joker_swap": True}, (), 1, "AH", table=["AH 2H 3H 4H"])
    assert low["reason"] == "AH cannot be laid off on AH 2H 3H 4H: that run already ends in an ace."
