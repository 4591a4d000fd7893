"""The declarer's split made faster (issue 11 §5): each quick path answers as the code it
shortcuts, kept here as the reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Rank, Suit, _parse_at, parse_cards, split_tokens
from engine.errors import CardError

CARDS = [Card(rank, suit) for rank in Rank for suit in Suit] + [Card.JOKER]


def parse_cards_before(text: str) -> tuple[Card, ...]:
    """parse_cards before canonical tokens were looked up whole."""
    cards = []
    for position, token in enumerate(split_tokens(text), start=1):
        if "=" in token:
            raise CardError(f'"{token}" at position {position}: a hand takes plain cards, not wild roles')
        cards.append(_parse_at(token, position, Card.parse))
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
