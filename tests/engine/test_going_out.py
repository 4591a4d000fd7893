"""Going out (RULES.md sections 2-3, D7, D8): can a hand meld out, and the least-penalty split."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank, parse_cards
from engine.deck import STANDARD_SUITS
from engine.errors import CannotGoOut, IllegalMeld
from engine.layoffs import can_lay_down, verify_laid_down
from engine.melds import check_meld
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, round_info, schedule
from engine.solver import UNIT_VALUES, GoingOut, arrange, best_arrangement, can_go_out, going_out, verify_going_out
from tests.engine.test_solver_output import ARRANGED_PRESETS, OPTION_SETS


def out(variant: str, number: int, hand: str, **options: object) -> GoingOut:
    rules = rule_set(variant, options)
    return going_out(parse_cards(hand), rules, round_info(rules, number))


def can(variant: str, number: int, hand: str, **options: object) -> bool:
    rules = rule_set(variant, options)
    return can_go_out(parse_cards(hand), rules, round_info(rules, number))


def assert_split(variant: str, number: int, hand: str, result: GoingOut, **options: object) -> None:
    """The melds are legal, and melds plus discard are exactly the hand."""
    rules = rule_set(variant, options)
    info = round_info(rules, number)
    used: Counter[Card] = Counter()
    for meld in result.melds:
        verdict = check_meld(tuple(MeldCard(card) for card in meld), rules, info)
        assert verdict.valid, f"{meld}: {verdict.reason}"
        used.update(meld)
    if result.discard is not None:
        used[result.discard] += 1
    assert used == Counter(parse_cards(hand))


# --- Pay Me: with or without a final discard --------------------------------------------


def test_pay_me_out_without_discard() -> None:
    result = out("pay-me", 1, "8H 8S 8D")
    assert result.discard is None
    assert [sorted(map(str, meld)) for meld in result.melds] == [["8D", "8H", "8S"]]
    assert_split("pay-me", 1, "8H 8S 8D", result)


def test_pay_me_out_with_a_discard() -> None:
    result = out("pay-me", 1, "8H 8S 8D KC")
    assert result.discard == Card.parse("KC")
    assert_split("pay-me", 1, "8H 8S 8D KC", result)


def test_pay_me_may_meld_every_card_before_discarding() -> None:
    result = out("pay-me", 1, "8H 8S 8D 8C")
    assert result.discard is None
    assert_split("pay-me", 1, "8H 8S 8D 8C", result)


def test_pay_me_family_out_with_or_without_discard() -> None:
    assert out("pay-me-family", 2, "9H 10H JH QH").discard is None
    with_discard = out("pay-me-family", 2, "9H 10H JH QH 5C")
    assert with_discard.discard == Card.parse("5C")


def test_several_melds() -> None:
    hand = "8H 9H 10H 5S 5D 5C"
    result = out("pay-me", 4, hand)
    assert len(result.melds) == 2
    assert result.discard is None
    assert_split("pay-me", 4, hand, result)


def test_out_with_wilds_in_runs_and_sets() -> None:
    hand = "8H 8S 8D 8C JK 2C 9H"  # round 5: 7 cards
    result = out("pay-me", 5, hand)
    assert_split("pay-me", 5, hand, result)


# --- must discard: Three Thirteen and 3-13 ----------------------------------------------


def test_three_thirteen_must_discard() -> None:
    result = out("three-thirteen", 1, "8H 8S 8D 8C")
    assert result.discard is not None
    assert result.discard.rank is not None and result.discard.rank.token == "8"
    assert_split("three-thirteen", 1, "8H 8S 8D 8C", result)


def test_three_thirteen_discards_the_card_that_does_not_meld() -> None:
    result = out("three-thirteen", 1, "8H 8S 8D KC")
    assert result.discard == Card.parse("KC")


def test_three_thirteen_hand_after_its_discard() -> None:
    assert out("three-thirteen", 1, "8H 8S 8D").discard is None


def test_three_13_must_discard_then_knock() -> None:
    hand = "9C JK 2D QC 5H"  # round 2: 4 cards, one more before the discard
    result = out("3-13", 2, hand)
    assert result.discard == Card.parse("5H")
    assert_split("3-13", 2, hand, result)


def test_three_13_cannot_go_out_even_with_a_discard() -> None:
    with pytest.raises(CannotGoOut, match="even with one discarded"):
        out("3-13", 2, "8H 8S 8D 9H 10H")


def test_discard_to_go_out_option() -> None:
    forced = out("pay-me", 1, "8H 8S 8D 8C", discard_to_go_out=True)
    assert forced.discard is not None
    assert sum(len(meld) for meld in forced.melds) == 3
    free = out("three-thirteen", 1, "8H 8S 8D 8C", discard_to_go_out=False)
    assert free.discard is None
    assert sum(len(meld) for meld in free.melds) == 4


# --- impossible and wrong counts ---------------------------------------------------------


def test_reason_when_impossible() -> None:
    with pytest.raises(CannotGoOut) as caught:
        out("pay-me", 1, "8H 8S KD")
    message = str(caught.value)
    assert "cannot all be melded" in message
    assert "KD" in message


def test_reason_when_impossible_even_with_a_discard() -> None:
    with pytest.raises(CannotGoOut, match="even with one discarded"):
        out("three-thirteen", 1, "8H 8S 9D KC")


def test_d1_three_fives_cannot_go_out_in_pay_me() -> None:
    assert not can("pay-me", 1, "3H 3S 3D")  # round 1: 3s wild, three wilds are no meld
    assert can("three-thirteen", 1, "3H 3S 3D")
    assert can("pay-me", 1, "3H 3S 3D", wild_in_place_natural=True)


@pytest.mark.parametrize(("hand", "count"), [("8H 8S", 2), ("8H 8S 8D 8C 8H", 5), ("", 0)])
def test_wrong_card_count(hand: str, count: int) -> None:
    with pytest.raises(CannotGoOut) as caught:
        out("pay-me", 1, hand)
    message = str(caught.value)
    assert f"{count} cards were given" in message
    assert "3 cards" in message and "4 before the final discard" in message


def test_wrong_card_count_uses_the_round() -> None:
    with pytest.raises(CannotGoOut, match="round 3"):
        out("pay-me", 3, "9H 9S 9D")
    assert not can("pay-me", 3, "9H 9S 9D")


def test_can_go_out_and_verify() -> None:
    rules = rule_set("pay-me")
    info = round_info(rules, 1)
    assert can_go_out(parse_cards("8H 8S 8D"), rules, info)
    assert not can_go_out(parse_cards("8H 8S KD"), rules, info)
    assert verify_going_out(parse_cards("8H 8S 8D"), rules, info).discard is None
    with pytest.raises(CannotGoOut):
        verify_going_out(parse_cards("8H 8S KD"), rules, info)


def test_going_out_json() -> None:
    payload = out("pay-me", 1, "8H 8S 8D KC").as_json()
    assert payload["discard"] == "KC"
    assert [sorted(meld) for meld in payload["melds"]] == [["8D", "8H", "8S"]]  # type: ignore[union-attr]


def test_going_out_respects_the_options() -> None:
    assert not can("pay-me", 2, "9C JK 2D QC 5S")
    assert can("pay-me", 2, "9C JK 2D QC 5S", no_adjacent_wilds=False)
    assert not can("pay-me-family", 1, "QH KH AH")
    assert can("pay-me-family", 1, "QH KH AH", ace="both")
    assert can("pay-me-family", 1, "10S 10C 10S")
    assert not can("pay-me-family", 1, "10S 10C 10S", distinct_suit_sets=True)
    assert not can("pay-me-family", 1, "AH 2H 4H", no_aces_in_runs=True)


# --- the least-penalty split (D7) ------------------------------------------------------


def best(variant: str, number: int, hand: str, **options: object) -> tuple[int, list[list[str]], list[str]]:
    rules = rule_set(variant, options)
    found = best_arrangement(parse_cards(hand), rules, round_info(rules, number))
    return found.penalty, [[str(card) for card in meld] for meld in found.melds], [str(c) for c in found.unmelded]


def test_best_seed_example_leftovers() -> None:
    penalty, melds, unmelded = best("pay-me", 4, "7H 8H JK 9S 9D KC")
    assert penalty == 25
    assert sorted(unmelded) == ["7H", "8H", "KC"]
    assert [sorted(meld) for meld in melds] == [["9D", "9S", "JK"]]


def test_best_prefers_the_cheaper_leftovers() -> None:
    penalty, _, unmelded = best("pay-me-family", 5, "QH KH AH 2H 3H", ace="both")
    assert penalty == 10
    assert sorted(unmelded) == ["2H", "3H"]
    penalty, _, unmelded = best("3-13", 5, "AH 2H 3H KH QH")
    assert penalty == 3
    assert unmelded == ["3H"]


def test_best_d1_all_wild_hand() -> None:
    assert best("pay-me", 3, "5H 5S 5D")[0] == 45
    assert best("pay-me-family", 5, "7H 7S 7D 9C")[0] == 25
    assert best("three-thirteen", 1, "3H 3S 3D")[0] == 0
    assert best("pay-me", 3, "5H 5S 5D", wild_in_place_natural=True)[0] == 0


def test_best_keeps_wild_rules() -> None:
    assert best("pay-me", 5, "8H JK 2D")[0] == 40
    assert best("pay-me", 5, "9C JK 2D QC")[0] == 50
    assert best("3-13", 5, "9C JK 2D QC")[0] == 0
    assert best("pay-me", 5, "6H 7H 7S 9H")[0] == 45
    assert best("pay-me", 5, "6H 7H 7S 9H", wild_in_place_natural=True)[0] == 0


def test_best_applies_the_multiplier() -> None:
    assert best("3-13", 10, "QH KH AH 7C")[0] == 14
    assert best("3-13", 9, "QH KH AH 7C")[0] == 7
    assert best("3-13", 10, "AH 7C JK")[0] == 44


def test_best_options() -> None:
    assert best("pay-me", 5, "10S 10C 10S", distinct_suit_sets=True)[0] == 30
    assert best("pay-me", 5, "10S 10C 10S 10D", distinct_suit_sets=True)[0] == 0
    assert best("pay-me-family", 6, "AH 2H 3H 4H", no_aces_in_runs=True)[0] == 5
    assert best("pay-me-family", 6, "AH 2H 3H AS AD", no_aces_in_runs=True)[0] == 10


def test_best_empty_hand() -> None:
    assert best("pay-me", 1, "") == (0, [], [])


@pytest.mark.parametrize("hand", ["3H 4H 5H", "5H 4H 3H", "4H 5H 3H", "5H 3H 4H"])
def test_best_does_not_depend_on_hand_order(hand: str) -> None:
    # the solver may arrange the cards as it likes: a run given in any order still melds
    assert best("pay-me-family", 5, hand)[0] == 0


def test_going_out_does_not_depend_on_hand_order() -> None:
    hand = "9H 8H 7H 5S 5D 5C"
    result = out("pay-me", 4, hand)
    assert result.discard is None
    assert_split("pay-me", 4, hand, result)
    assert can("three-thirteen", 2, "KH QH JH 10H 5S")


def test_best_wild_in_its_own_place_and_a_gap_wild() -> None:
    # 3-13 round 3 with a wild limit: 2H stands for itself (natural), 2S fills 3H: one wild, two naturals
    options = {"wild_in_place_natural": True, "wild_limit": "not_more_than_naturals"}
    assert best("3-13", 3, "2H 2S 4H", **options)[0] == 0


# --- the melds laid down when going out (D8) ---------------------------------------------------


def laid_down(variant: str, number: int, melds: list[str], discard: str = "", **options: object) -> list[str]:
    rules = rule_set(variant, options)
    laid = verify_laid_down(melds, parse_cards(discard) if discard else (), rules, round_info(rules, number))
    return [str(meld) for meld in laid]


def test_melds_laid_down_under_a_must_discard_preset_hold_exactly_the_cards_dealt() -> None:
    assert laid_down("3-13", 1, ["4S 5S 6S"]) == ["4S 5S 6S"]
    assert laid_down("3-13", 1, ["4S 5S 6S"], discard="KD") == ["4S 5S 6S"]
    with pytest.raises(CannotGoOut, match=r"^In round 1 the melds of a player going out hold 3 cards \(the 4th drawn"):
        laid_down("3-13", 1, ["4S 5S 6S 7S"])
    rules = rule_set("three-thirteen")
    assert not can_lay_down(["4S 5S 6S 7S"], (), rules, round_info(rules, 1))
    assert can_lay_down(["4S 5S 6S"], (), rules, round_info(rules, 1))


def test_melds_laid_down_where_the_discard_is_optional_may_hold_one_card_more() -> None:
    assert laid_down("pay-me", 1, ["4S 5S 6S 7S"]) == ["4S 5S 6S 7S"]
    assert laid_down("pay-me", 1, ["4S 5S 6S"]) == ["4S 5S 6S"]
    with pytest.raises(CannotGoOut, match="hold 3 cards besides the discard; 4 were given"):
        laid_down("pay-me", 1, ["4S 5S 6S 7S"], discard="KD")
    with pytest.raises(CannotGoOut, match="hold 3 cards, or 4 when going out without a discard; 6 were given"):
        laid_down("pay-me", 1, ["4S 5S 6S", "9C 9D 9S"])
    assert laid_down("3-13", 1, ["4S 5S 6S 7S"], discard_to_go_out=False) == ["4S 5S 6S 7S"]


def test_melds_laid_down_must_each_be_legal_and_discard_at_most_one_card() -> None:
    with pytest.raises(IllegalMeld, match=r"declarer's meld 1 \(4S 5S 7S\) is not legal"):
        laid_down("pay-me", 1, ["4S 5S 7S"])
    with pytest.raises(CannotGoOut, match="discards at most one card; 2 were given"):
        laid_down("pay-me", 1, ["4S 5S 6S"], discard="KD QD")


# --- The search that never leaves a card over (going out) ---------------------------------


@st.composite
def meldable_hands(draw: st.DrawFn) -> tuple[list[Card], RuleSet, RoundInfo]:
    """Hands made of runs and sets (a wild now and then in place of a card), sometimes with a
    stray card or one card short, under every preset the solver arranges and its options."""
    options: dict[str, object] = draw(st.sampled_from(OPTION_SETS))
    rules = rule_set(draw(st.sampled_from(ARRANGED_PRESETS)), options)
    info = draw(st.sampled_from(schedule(rules)))
    wilds = [
        card
        for card in [Card.JOKER, *(Card(rank, suit) for rank in Rank for suit in STANDARD_SUITS)]
        if info.is_wild(card)
    ]
    hand: list[Card] = []
    for _ in range(draw(st.integers(1, 4))):
        size = draw(st.integers(3, 5))
        if draw(st.booleans()):
            suit = draw(st.sampled_from(list(STANDARD_SUITS)))
            low = draw(st.integers(2, 14 - size))
            meld = [Card(Rank(place), suit) for place in range(low, low + size)]
        else:
            rank = draw(st.sampled_from(list(Rank)))
            meld = [Card(rank, draw(st.sampled_from(list(STANDARD_SUITS)))) for _ in range(size)]
        with_wild: bool = draw(st.booleans())
        if wilds and with_wild:
            meld[draw(st.integers(0, size - 1))] = draw(st.sampled_from(wilds))
        hand += meld
    change = draw(st.sampled_from(["none", "stray", "short"]))
    if change == "stray":
        hand.append(Card(draw(st.sampled_from(list(Rank))), draw(st.sampled_from(list(STANDARD_SUITS)))))
    elif change == "short":
        hand.pop(draw(st.integers(0, len(hand) - 1)))
    assume(all(count <= 3 for card, count in Counter(hand).items() if card != Card.JOKER))  # 3 decks at most
    return hand, rules, info


@settings(max_examples=400, deadline=None, derandomize=True)
@given(meldable_hands())
def test_the_going_out_search_agrees_with_the_full_one(case: tuple[list[Card], RuleSet, RoundInfo]) -> None:
    """Where every card melds, the search that never leaves one over finds the very arrangement
    the full search finds; where not, it says so (penalty above 0) and claims nothing else."""
    hand, rules, info = case
    full = arrange(hand, rules, info, UNIT_VALUES)
    melded = arrange(hand, rules, info, UNIT_VALUES, out_only=True)
    if full.penalty == 0:
        assert melded == full
    else:
        assert melded.penalty > 0
