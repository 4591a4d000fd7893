"""Card notation (RULES.md section 1): parsing and formatting cards and melds.

>>> Card.parse("10h"), Card.parse("T♥"), str(Card.parse("t♥"))
(Card(rank=<Rank.TEN: 10>, suit=<Suit.HEARTS: 'H'>), Card(rank=<Rank.TEN: 10>, suit=<Suit.HEARTS: 'H'>), '10H')
>>> [str(card) for card in parse_cards("JK, 7h 🃏 *")]
['JK', '7H', 'JK', 'JK']
>>> str(MeldCard.parse("jk=7h"))
'JK=7H'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

from engine.deck import (
    FIVE_CROWNS,
    JOKER_CODE,
    RANKS_BY_TOKEN,
    STANDARD,
    SUITS_BY_TOKEN,
    Deck,
    Rank,
    Suit,
    code_of,
    sort_key,
)
from engine.errors import CardError, DeckError

__all__ = [
    "Card",
    "MeldCard",
    "Rank",
    "Suit",
    "format_cards",
    "parse_cards",
    "parse_meld",
    "split_tokens",
    "symbols_in",
    "verify_in_deck",
    "verify_in_play",
]


_RANKS_BY_TOKEN = RANKS_BY_TOKEN
_SUITS_BY_TOKEN = SUITS_BY_TOKEN
_JOKER_TOKENS = {"JK", "JOKER", "*", "🃏"}
_T = TypeVar("_T")
_SEPARATORS = re.compile(r"[\s,]+")
# Emoji presentation selectors sometimes follow a suit symbol typed on a phone.
_INVISIBLE = str.maketrans("", "", "\ufe0f\ufe0e\u200d")


@dataclass(frozen=True)
class Card:
    """A playing card, or a joker when both rank and suit are None.

    >>> Card.parse("q♠").symbol
    'Q♠'
    >>> Card.JOKER.is_joker
    True
    """

    rank: Rank | None
    suit: Suit | None
    code: int = field(init=False, repr=False, compare=False)

    JOKER: ClassVar[Card]

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise CardError("a card needs both a rank and a suit, or neither for a joker")
        code = JOKER_CODE if self.rank is None or self.suit is None else code_of(self.rank, self.suit)
        object.__setattr__(self, "code", code)

    def __hash__(self) -> int:
        return self.code

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card token; raise CardError quoting it when it is not a card."""
        card = _parse_token(text)
        if card is None:
            raise CardError(f'"{text}" is not a card')
        return card

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.token + self.suit.value

    def __repr__(self) -> str:
        if self.rank is None:
            return "Card.JOKER"
        return f"Card(rank={self.rank!r}, suit={self.suit!r})"

    @property
    def symbol(self) -> str:
        """The card as the pages show it: ``10♥``, ``🃏``."""
        if self.rank is None or self.suit is None:
            return "🃏"
        return self.rank.token + self.suit.symbol

    @property
    def sort_key(self) -> tuple[int, int]:
        """Suit then rank, jokers last."""
        return sort_key(self.rank, self.suit)


def _parse_token(text: str) -> Card | None:
    token = text.translate(_INVISIBLE).strip().upper()
    if token in _JOKER_TOKENS:
        return Card.JOKER
    if len(token) < 2:
        return None
    suit = _SUITS_BY_TOKEN.get(token[-1])
    rank = _RANKS_BY_TOKEN.get(token[:-1])
    if suit is None or rank is None:
        return None
    return Card(rank, suit)


Card.JOKER = Card(None, None)
# Every card by its canonical token, as format_cards writes it: most hands come in that form.
_FACES = {*STANDARD.faces(), *FIVE_CROWNS.faces()}
_BY_TOKEN = {str(card): card for card in (Card.JOKER, *(Card(rank, suit) for rank, suit in _FACES))}


@dataclass(frozen=True)
class MeldCard:
    """A card as written in a meld, with the card it stands for when it is a wild (``JK=7H``).

    >>> MeldCard.parse("2c=8h").role
    Card(rank=<Rank.EIGHT: 8>, suit=<Suit.HEARTS: 'H'>)
    >>> str(MeldCard.parse("9c"))
    '9C'
    """

    card: Card
    role: Card | None = None

    @classmethod
    def parse(cls, text: str) -> MeldCard:
        """Read ``CARD`` or ``CARD=ROLE``; a role must be a card, not a joker."""
        card_text, equals, role_text = text.partition("=")
        card = Card.parse(card_text) if card_text.strip() else None
        if card is None:
            raise CardError(f'"{text}" is not a card')
        if not equals:
            return cls(card)
        role = _parse_token(role_text)
        if role is None or role.is_joker:
            raise CardError(f'"{text}" does not say which card the wild stands for')
        return cls(card, role)

    def __str__(self) -> str:
        return str(self.card) if self.role is None else f"{self.card}={self.role}"

    @property
    def symbol(self) -> str:
        return self.card.symbol if self.role is None else f"{self.card.symbol} as {self.role.symbol}"


_CARD_CODE = r"(?:10|[2-9JQKA])[SHDCR]"
_TOKENS_IN_TEXT = re.compile(rf"\b(?:JK|{_CARD_CODE})(?:={_CARD_CODE})?\b")
_SUIT_LISTS = re.compile(r"\(([SHDCR](?:, [SHDCR])*)\)")


def symbols_in(text: str) -> str:
    """A sentence with its card codes written as cards, for people (the pages; the API keeps codes).

    >>> symbols_in("JH QS KD mixes suits (H, S, D); a run must be all one suit.")
    'J♥ Q♠ K♦ mixes suits (♥, ♠, ♦); a run must be all one suit.'
    >>> symbols_in("JK=7H 8H 9H: a run has at most 14 cards.")
    '🃏 as 7♥ 8♥ 9♥: a run has at most 14 cards.'
    """
    with_cards = _TOKENS_IN_TEXT.sub(lambda found: MeldCard.parse(found.group()).symbol, text)
    return _SUIT_LISTS.sub(
        lambda found: "(" + ", ".join(Suit(code).symbol for code in found.group(1).split(", ")) + ")", with_cards
    )


def split_tokens(text: str) -> list[str]:
    """Split card notation on spaces and commas."""
    return [token for token in _SEPARATORS.split(text.strip()) if token]


def parse_meld(text: str) -> tuple[MeldCard, ...]:
    """Read a meld as written; wild roles (``JK=7H``) are allowed.

    >>> [str(card) for card in parse_meld("9C JK 2D=JC QC")]
    ['9C', 'JK', '2D=JC', 'QC']
    >>> parse_meld("9C 7X")
    Traceback (most recent call last):
    ...
    engine.errors.CardError: "7X" at position 2 is not a card
    """
    return tuple(_parse_each(text, MeldCard.parse))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a hand: cards only, without wild roles.

    >>> [card.symbol for card in parse_cards("10h T♠, jk")]
    ['10♥', '10♠', '🃏']
    """
    try:  # cards written as format_cards writes them, between spaces: one lookup each
        return tuple([_BY_TOKEN[token] for token in text.split()])
    except KeyError:  # other spellings, commas, roles: token by token
        pass
    cards = []
    for position, token in enumerate(split_tokens(text), start=1):
        if "=" in token:
            raise CardError(f'"{token}" at position {position}: a hand takes plain cards, not wild roles')
        cards.append(_parse_at(token, position, Card.parse))
    return tuple(cards)


def _parse_each(text: str, parse: Callable[[str], _T]) -> list[_T]:
    return [_parse_at(token, position, parse) for position, token in enumerate(split_tokens(text), start=1)]


def _parse_at(token: str, position: int, parse: Callable[[str], _T]) -> _T:
    try:
        return parse(token)
    except CardError:
        raise CardError(f'"{token}" at position {position} is not a card') from None


def format_cards(cards: Iterable[Card | MeldCard]) -> str:
    """Canonical notation, space separated.

    >>> format_cards(parse_cards("t♥ joker"))
    '10H JK'
    """
    return " ".join(str(card) for card in cards)


def verify_in_play(
    cards: Iterable[Card], decks: int, jokers: int, deck: Deck = STANDARD, game: str = "this game"
) -> None:
    """Raise DeckError when the cards could not all come from the decks in play, and CardError
    naming a card the game's deck does not hold (`deck`: the 52-card deck unless a preset says
    otherwise, so a star card is refused outside Five Crowns; verify_in_deck).

    >>> verify_in_play(parse_cards("7H 7H"), decks=1, jokers=2)
    Traceback (most recent call last):
    ...
    engine.errors.DeckError: "7H" appears 2 times, but 1 deck holds only 1
    """
    counts = Counter(cards)
    verify_in_deck(counts, deck, game)
    for card, count in counts.items():
        limit = jokers if card.is_joker else decks
        if count <= limit:
            continue
        if card.is_joker and jokers == 0:
            raise DeckError(f'"{card}" cannot be played: this game uses no jokers')
        holder = f"{decks} deck{'s' if decks != 1 else ''} {'hold' if decks != 1 else 'holds'}"
        if card.is_joker:
            raise DeckError(f'"JK" appears {count} times, but only {jokers} jokers are in play')
        raise DeckError(f'"{card}" appears {count} times, but {holder} only {limit}')


def verify_in_deck(cards: Iterable[Card], deck: Deck, game: str) -> None:
    """Raise CardError naming the first card the game's deck does not hold (RULES.md 10.1): an ace
    or a 2 in Five Crowns, a star card in any other game.

    >>> verify_in_deck(parse_cards("7★ KR JK"), FIVE_CROWNS, "Five Crowns")
    >>> verify_in_deck(parse_cards("9C 7★"), STANDARD, "Pay Me")
    Traceback (most recent call last):
    ...
    engine.errors.CardError: "7R" is not a card of Pay Me: its deck has no stars
    >>> verify_in_deck(parse_cards("5H 2S"), FIVE_CROWNS, "Five Crowns")
    Traceback (most recent call last):
    ...
    engine.errors.CardError: "2S" is not a card of Five Crowns: its deck runs from 3 to K
    """
    for card in cards:
        if card.rank is None or card.suit is None or deck.holds(card.rank, card.suit):
            continue
        if card.suit not in deck.suits:
            raise CardError(f'"{card}" is not a card of {game}: its deck has no {card.suit.word}')
        low, high = deck.lowest_rank.token, deck.highest_rank.token
        raise CardError(f'"{card}" is not a card of {game}: its deck runs from {low} to {high}')
