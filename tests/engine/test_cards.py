"""Card notation (RULES.md section 1)."""

from __future__ import annotations

import contextlib

import pytest

from engine.cards import (
    Card,
    MeldCard,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    parse_meld,
    split_tokens,
    verify_in_play,
)
from engine.errors import CardError, DeckError, EngineError


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("AS", Rank.ACE, Suit.SPADES),
        ("2H", Rank.TWO, Suit.HEARTS),
        ("9D", Rank.NINE, Suit.DIAMONDS),
        ("10C", Rank.TEN, Suit.CLUBS),
        ("TC", Rank.TEN, Suit.CLUBS),
        ("JS", Rank.JACK, Suit.SPADES),
        ("QH", Rank.QUEEN, Suit.HEARTS),
        ("KD", Rank.KING, Suit.DIAMONDS),
        ("K♦", Rank.KING, Suit.DIAMONDS),
        ("A♠", Rank.ACE, Suit.SPADES),
        ("7♣", Rank.SEVEN, Suit.CLUBS),
        ("10♥", Rank.TEN, Suit.HEARTS),
    ],
)
def test_ascii_and_symbol_cards(token: str, rank: Rank, suit: Suit) -> None:
    card = Card.parse(token)
    assert card.rank is rank
    assert card.suit is suit
    assert not card.is_joker


@pytest.mark.parametrize("token", ["10h", "TH", "10♥", "th", "t♥", "10H", "Th", "tH"])
def test_ten_and_case_all_read_as_the_same_card(token: str) -> None:
    assert Card.parse(token) == Card(Rank.TEN, Suit.HEARTS)
    assert str(Card.parse(token)) == "10H"


def test_lowercase_face_cards() -> None:
    assert Card.parse("qs") == Card.parse("QS") == Card.parse("q♠")
    assert Card.parse("ah") == Card(Rank.ACE, Suit.HEARTS)


@pytest.mark.parametrize("token", ["JK", "jk", "Joker", "JOKER", "joker", "*", "🃏"])
def test_joker_spellings(token: str) -> None:
    card = Card.parse(token)
    assert card.is_joker
    assert card == Card.JOKER
    assert str(card) == "JK"


def test_canonical_output_and_symbols() -> None:
    assert format_cards(parse_cards("t♥ q♠ joker 2c")) == "10H QS JK 2C"
    assert Card.parse("th").symbol == "10♥"
    assert Card.JOKER.symbol == "🃏"
    assert Suit.HEARTS.is_red and Suit.DIAMONDS.is_red
    assert not Suit.SPADES.is_red and not Suit.CLUBS.is_red


def test_emoji_variation_selector_after_suit_symbol() -> None:
    assert Card.parse("7♥\ufe0f") == Card(Rank.SEVEN, Suit.HEARTS)


def test_spaces_and_commas_separate_cards() -> None:
    assert split_tokens(" 7H,8H ,  9H\t10H,,JK ") == ["7H", "8H", "9H", "10H", "JK"]
    assert [str(card) for card in parse_cards("7h,8h 9h")] == ["7H", "8H", "9H"]


@pytest.mark.parametrize("token", ["7X", "1H", "11H", "0H", "H", "10", "JKH", "♥7", "ZZ", "AA", "7HH", "10♥♥", "22H"])
def test_not_a_card(token: str) -> None:
    with pytest.raises(CardError, match=f'"{token}" is not a card'):
        Card.parse(token)


def test_error_names_token_and_position_in_a_hand() -> None:
    with pytest.raises(CardError) as caught:
        parse_cards("9C JK 7X QC")
    assert str(caught.value) == '"7X" at position 3 is not a card'


def test_error_names_token_and_position_in_a_meld() -> None:
    with pytest.raises(CardError) as caught:
        parse_meld("9C, JK, 7X")
    assert str(caught.value) == '"7X" at position 3 is not a card'


def test_position_counts_tokens_not_characters() -> None:
    with pytest.raises(CardError, match='"QQ" at position 1 is not a card'):
        parse_cards("QQ 10H")
    with pytest.raises(CardError, match='"10X" at position 4 is not a card'):
        parse_cards("10H,  10S 10D 10X")


def test_card_errors_are_engine_errors_not_crashes() -> None:
    for text in ["", "=", "JK=", "=7H", "7H==7H", "🂡", "10 H"]:
        with contextlib.suppress(EngineError):
            parse_meld(text)


def test_empty_input_is_no_cards() -> None:
    assert parse_cards("") == ()
    assert parse_cards(" , ,") == ()


def test_wild_role_notation() -> None:
    held = MeldCard.parse("JK=7H")
    assert held.card.is_joker
    assert held.role == Card(Rank.SEVEN, Suit.HEARTS)
    assert str(held) == "JK=7H"
    two = MeldCard.parse("2c=8h")
    assert two.card == Card(Rank.TWO, Suit.CLUBS)
    assert two.role == Card(Rank.EIGHT, Suit.HEARTS)
    assert str(two) == "2C=8H"
    assert str(MeldCard.parse("joker=t♥")) == "JK=10H"


def test_meld_keeps_roles_and_plain_cards() -> None:
    meld = parse_meld("9C JK 2D=JC QC")
    assert [str(held) for held in meld] == ["9C", "JK", "2D=JC", "QC"]
    assert meld[1].role is None
    assert meld[2].role == Card(Rank.JACK, Suit.CLUBS)


@pytest.mark.parametrize("text", ["JK=JK", "JK=7X", "2C=", "JK=*"])
def test_bad_wild_role(text: str) -> None:
    with pytest.raises(CardError):
        MeldCard.parse(text)


def test_bad_role_in_a_meld_names_its_position() -> None:
    with pytest.raises(CardError, match='"JK=7X" at position 2 is not a card'):
        parse_meld("9C JK=7X JC")


def test_hand_takes_plain_cards_not_roles() -> None:
    with pytest.raises(CardError, match='"JK=7H" at position 2'):
        parse_cards("7C JK=7H")


def test_two_copies_allowed_with_two_decks() -> None:
    verify_in_play(parse_cards("7H 7H 7H"), decks=3, jokers=6)
    verify_in_play(parse_cards("7H 7H"), decks=2, jokers=4)
    verify_in_play(parse_cards("JK JK"), decks=1, jokers=2)


def test_more_copies_than_decks_is_an_error() -> None:
    with pytest.raises(DeckError, match='"7H" appears 2 times'):
        verify_in_play(parse_cards("7H 7H"), decks=1, jokers=2)
    with pytest.raises(DeckError, match='"7H" appears 4 times'):
        verify_in_play(parse_cards("7H 7H 7H 7H"), decks=3, jokers=6)


def test_more_jokers_than_in_play_is_an_error() -> None:
    with pytest.raises(DeckError, match="JK"):
        verify_in_play(parse_cards("JK JK JK"), decks=1, jokers=2)


def test_jokers_in_a_game_without_jokers() -> None:
    with pytest.raises(DeckError, match="no jokers"):
        verify_in_play(parse_cards("JK 7H"), decks=2, jokers=0)


def test_rank_tokens_and_words() -> None:
    assert [rank.token for rank in Rank] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert Rank.parse("t") is Rank.TEN
    assert Rank.SIX.plural == "Sixes"
    assert Rank.KING.plural == "Kings"
    with pytest.raises(CardError):
        Rank.parse("1")


def test_card_needs_rank_and_suit_or_neither() -> None:
    with pytest.raises(CardError):
        Card(Rank.ACE, None)
    with pytest.raises(CardError):
        Card(None, Suit.HEARTS)
