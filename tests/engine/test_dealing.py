"""Who deals first and how the discard pile starts (RULES.md section 5)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card, Rank, Suit
from engine.dealing import (
    DealerError,
    FirstDealerMethod,
    can_use_method,
    discard_pile_text,
    first_dealer,
    first_dealer_methods,
    high_card_draw,
    verify_method,
)
from engine.errors import CardError, EngineError
from engine.rules import PRESETS, RUMMY_PRESETS, rule_set
from engine.schedule import round_info, schedule

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
PAY_ME = PRESETS["pay-me"]
THREE_13 = PRESETS["3-13"]


def exactly(message: str) -> str:
    return f"^{re.escape(message)}$"


def test_every_method_has_words() -> None:
    assert [method.label for method in FirstDealerMethod] == [
        "Chosen by the table",
        "At random",
        "High-card draw",
        "Left of the score keeper",
    ]
    for method in FirstDealerMethod:
        assert method.how.endswith(".") and "_" not in method.how
        assert FirstDealerMethod.parse(str(method)) is method
        assert FirstDealerMethod.parse(method.label.upper()) is method


def test_the_high_card_draw_says_how() -> None:
    how = FirstDealerMethod.HIGH_CARD.how
    assert "Each player draws a card" in how and "King is high, Ace is low" in how
    assert "tie draw again" in how and "choose the player who won the draw" in how


def test_left_of_the_score_keeper_is_3_13s_own() -> None:
    assert FirstDealerMethod.LEFT_OF_SCOREKEEPER in first_dealer_methods(THREE_13)
    for preset in PRESETS.values():
        methods = first_dealer_methods(preset)
        assert methods[:3] == (FirstDealerMethod.CHOSEN, FirstDealerMethod.RANDOM, FirstDealerMethod.HIGH_CARD)
        if preset.id != "3-13":
            assert FirstDealerMethod.LEFT_OF_SCOREKEEPER not in methods
            assert not can_use_method(preset, "left_of_scorekeeper")
    message = 'Pay Me does not pick the first dealer "left of the score keeper": only 3-13 does'
    with pytest.raises(DealerError, match=exactly(message)):
        verify_method(PAY_ME, FirstDealerMethod.LEFT_OF_SCOREKEEPER)


def test_an_unknown_method_is_quoted() -> None:
    with pytest.raises(DealerError, match=r'^"coin toss" is not a way to pick the first dealer: the ways are chosen'):
        first_dealer(PAY_ME, "coin toss", PLAYERS)


def test_the_table_chooses_by_name_or_seat() -> None:
    assert first_dealer(PAY_ME, "chosen", PLAYERS, chosen="Cy") == 2
    assert first_dealer(PAY_ME, FirstDealerMethod.CHOSEN, PLAYERS, chosen=3) == 3
    assert first_dealer(PAY_ME, "high_card", PLAYERS, chosen=" Bob ") == 1


@pytest.mark.parametrize(
    ("method", "chosen", "message"),
    [
        ("chosen", None, "name the first dealer"),
        ("chosen", "Zed", 'the first dealer "Zed" is not one of the players'),
        ("chosen", 4, 'the first dealer "4" is not a seat at this table (seats are 0 to 3)'),
        ("chosen", True, 'the first dealer "True" is not a seat at this table (seats are 0 to 3)'),
        ("high_card", None, "name the player who won the high-card draw"),
    ],
)
def test_a_missing_or_unknown_dealer_is_refused(method: str, chosen: int | str | None, message: str) -> None:
    with pytest.raises(DealerError, match=exactly(message)):
        first_dealer(PAY_ME, method, PLAYERS, chosen=chosen)


def test_left_of_the_score_keeper_passes_left_and_wraps() -> None:
    assert first_dealer(THREE_13, "left_of_scorekeeper", PLAYERS, scorekeeper="Ann") == 1
    assert first_dealer(THREE_13, "left_of_scorekeeper", PLAYERS, scorekeeper="Dee") == 0
    assert first_dealer(THREE_13, "left_of_scorekeeper", PLAYERS, scorekeeper=2) == 3
    with pytest.raises(DealerError, match=exactly("name the score keeper")):
        first_dealer(THREE_13, "left_of_scorekeeper", PLAYERS)


def test_random_uses_the_rng_given() -> None:
    seats = {first_dealer(PAY_ME, "random", PLAYERS, rng=random.Random(seed)) for seed in range(60)}
    assert seats == {0, 1, 2, 3}
    again = [first_dealer(PAY_ME, "random", PLAYERS, rng=random.Random(5)) for _ in range(3)]
    assert len(set(again)) == 1
    assert 0 <= first_dealer(PAY_ME, "random", PLAYERS) < 4  # the system's randomness


@given(st.integers(1, 10), st.integers(0, 2**32 - 1))
def test_every_method_gives_a_seat_at_the_table(size: int, seed: int) -> None:
    players = [f"P{seat}" for seat in range(size)]
    rng = random.Random(seed)
    keeper = rng.randrange(size)
    assert 0 <= first_dealer(THREE_13, "random", players, rng=rng) < size
    assert first_dealer(THREE_13, "left_of_scorekeeper", players, scorekeeper=keeper) == (keeper + 1) % size


def test_no_players_no_dealer() -> None:
    with pytest.raises(DealerError):
        first_dealer(PAY_ME, "random", [])


# --- the high-card draw ------------------------------------------------------------------------


def test_king_is_high_and_ace_is_low() -> None:
    assert high_card_draw({"Ann": "AS", "Bob": "KD", "Cy": "QH"}) == ("Bob",)
    assert high_card_draw({"Ann": "AS", "Bob": "2D"}) == ("Bob",)
    assert high_card_draw({"Ann": Card(Rank.TEN, Suit.CLUBS), "Bob": "9C"}) == ("Ann",)


def test_a_tie_names_the_players_who_draw_again() -> None:
    assert high_card_draw({"Ann": "JS", "Bob": "JH", "Cy": "3C", "Dee": "JD"}) == ("Ann", "Bob", "Dee")


def test_a_joker_or_a_bad_card_is_refused() -> None:
    with pytest.raises(DealerError, match=exactly('Bob drew "JK": a joker does not count; put it back and draw again')):
        high_card_draw({"Ann": "5S", "Bob": "JK"})
    with pytest.raises(CardError, match='"5X"'):
        high_card_draw({"Ann": "5X"})
    with pytest.raises(DealerError):
        high_card_draw({})


def test_dealer_errors_are_engine_errors() -> None:
    assert issubclass(DealerError, EngineError)


# --- the discard pile -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ("pay-me", "Turn the top card of the stock face up to start the discard pile."),
        ("pay-me-family", "Turn the top card of the stock face up to start the discard pile."),
        ("three-thirteen", "The dealer turns the last card dealt face up to start the discard pile."),
        (
            "3-13",
            "Start the discard pile staggered so that two cards show; "
            "taking the lower one costs the second-discard fee when the game has a pot.",
        ),
        ("play-or-pay", "There is no discard pile: the whole deck is dealt."),
    ],
)
def test_each_game_says_how_to_start_the_discard_pile(variant: str, words: str) -> None:
    assert discard_pile_text(PRESETS[variant]) == words


@pytest.mark.parametrize("variant", [variant for variant in RUMMY_PRESETS if PRESETS[variant].full_cycle_deals])
def test_every_round_carries_the_discard_pile(variant: str) -> None:
    rules = rule_set(variant, {"full_cycle": True})
    assert {info.discard_pile for info in schedule(rules)} == {PRESETS[variant].discard_pile_text}
    assert round_info(rules, 23).as_json()["discard_pile"] == PRESETS[variant].discard_pile_text
