"""The cut joker (RULES.md 11.1): which cards are wild in one deal of pool rummy, and what cards score.

>>> from engine.rules import rule_set
>>> deal = deal_by_cut(rule_set("pool-101"), "7H")
>>> deal.wild_rank, deal.info.wild_tokens
(<Rank.SEVEN: 7>, ('JK', '7'))
>>> deal_by_cut(rule_set("pool-101"), "JK").wild_rank
<Rank.ACE: 1>
>>> [points(deal, card) for card in parse_cards("AS 7C 10D JK 5H")]
[10, 0, 10, 0, 5]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.cards import Card, Rank, parse_cards, verify_in_play
from engine.errors import CardError
from engine.pool.errors import CutError
from engine.rules import PrintedJokerCut, RuleSet
from engine.schedule import RoundInfo

__all__ = ["DECKS", "HAND_CARDS", "PoolDeal", "deal_by_cut", "deal_by_wild", "points", "pool_deal"]

DECKS = 2  # D-PR1: two 52-card decks for 2-6 players
HAND_CARDS = 13


@dataclass(frozen=True)
class PoolDeal:
    """One deal's wild cards under a rule set: the printed jokers, and the rank cut (or the aces)."""

    rules: RuleSet
    wild_rank: Rank | None
    cut: Card | None  # the card cut, where one was given
    info: RoundInfo  # the deal as the meld code reads it

    @property
    def jokers(self) -> int:
        """Printed jokers in play: one set per deck."""
        return self.rules.options.jokers_per_deck * DECKS

    def is_wild(self, card: Card) -> bool:
        return self.info.is_wild(card)

    def verify_cards(self, cards: list[Card] | tuple[Card, ...]) -> None:
        """Raise DeckError when the cards could not all come from the two decks (D-PR20)."""
        verify_in_play(cards, DECKS, self.jokers)


@cache
def _info(jokers: bool, wild_rank: Rank | None) -> RoundInfo:
    """One RoundInfo per wild rank, so the meld code's caches keyed by identity keep hitting."""
    ranks = frozenset() if wild_rank is None else frozenset({wild_rank})
    return RoundInfo(0, HAND_CARDS, wild_rank, jokers, ranks, 1)


def pool_deal(rules: RuleSet, wild_rank: Rank | None, cut: Card | None = None) -> PoolDeal:
    """The deal with `wild_rank` wild besides the printed jokers."""
    return PoolDeal(rules, wild_rank, cut, _info(rules.options.jokers_per_deck > 0, wild_rank))


def deal_by_cut(rules: RuleSet, text: str) -> PoolDeal:
    """The deal whose cut card is `text` (D-PR2, D-PR3): its rank is wild; a printed joker cut makes
    the aces wild, or nothing more with ``printed_joker_cut=jokers_only``."""
    _verify_cut_joker(rules, "--cut")
    try:
        cards = parse_cards(text)
    except CardError:
        raise CutError(f'the cut card "{text}" is not a card') from None
    if len(cards) != 1:
        raise CutError(f'the cut is one card, not "{text}"')
    card = cards[0]
    if card.rank is not None:
        return pool_deal(rules, card.rank, card)
    if rules.options.jokers_per_deck == 0:
        raise CutError(f'the cut card "{text}" is not in the deck: this game plays without printed jokers')
    aces = rules.options.printed_joker_cut is PrintedJokerCut.ACES
    return pool_deal(rules, Rank.ACE if aces else None, card)


def deal_by_wild(rules: RuleSet, text: str) -> PoolDeal:
    """The deal whose wild rank is `text` (``7``, ``A``), or ``none`` for printed jokers only."""
    _verify_cut_joker(rules, "--wild")
    if text.strip().lower() == "none":
        return pool_deal(rules, None)
    try:
        return pool_deal(rules, Rank.parse(text))
    except CardError:
        raise CutError(f'the wild rank "{text}" is not a rank: A, 2 to 10, J, Q, K or none') from None


def _verify_cut_joker(rules: RuleSet, flag: str) -> None:
    if not rules.options.cut_joker:
        raise CutError(f"{flag} is not allowed: with the cut joker off, only the printed jokers are wild")


def points(deal: PoolDeal, card: Card) -> int:
    """A card's points (RULES.md 11.3): A, K, Q, J 10; 2-10 face value; jokers and wild cards 0."""
    if deal.is_wild(card) or card.rank is None:
        return 0
    return 10 if card.rank in (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING) else int(card.rank)
