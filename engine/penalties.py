"""Penalty points for cards left in hand (RULES.md 3, D4).

>>> from engine.schedule import round_info
>>> from engine.rules import rule_set
>>> from engine.cards import parse_cards
>>> rules = rule_set("3-13")
>>> hand_penalty(parse_cards("AH 7C JK"), rules, round_info(rules, 10))
44
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache

from engine.cards import Card, Rank
from engine.rules import HandScoring, Options, PenaltyTable, RuleSet
from engine.schedule import RoundInfo

JOKER_WITHOUT_VALUE = 15  # D15: a joker left in hand under a table of face values


@dataclass(frozen=True)
class CardPoints:
    """A penalty table as data: each rank's points (Ace first, King last), a joker's, and a wild
    card's (None: a wild card scores by its own rank)."""

    ranks: tuple[int, ...]
    joker: int
    wild: int | None = None

    def of(self, card: Card, wild: bool) -> int:
        if card.rank is None:
            return self.joker
        if wild and self.wild is not None:
            return self.wild
        return self.ranks[card.rank - 1]


_TIERS = (5,) * 7 + (10,) * 6  # A-7 score 5, 8-K 10
_FACES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_ACE_15 = (15, *_FACES[1:])
_COURT_VALUES = (*range(1, 11), 11, 12, 13)  # Five Crowns: face values, J 11, Q 12, K 13 (no aces or 2s in its deck)

POINTS: dict[PenaltyTable, CardPoints] = {
    PenaltyTable.PAY_ME: CardPoints(_TIERS, joker=15, wild=15),
    PenaltyTable.PAY_ME_FAMILY: CardPoints(_TIERS, joker=10),  # D4: the round's rank by its own tier
    # Face values give a joker none; it appears only when a table picks this table for a joker game (D15).
    PenaltyTable.THREE_THIRTEEN: CardPoints(_FACES, joker=JOKER_WITHOUT_VALUE),
    PenaltyTable.THREE_13: CardPoints(_ACE_15, joker=0, wild=0),
    PenaltyTable.CONTRACT_RUMMY: CardPoints(_ACE_15, joker=15),  # every card in full; a wild 2 scores 2
    PenaltyTable.FIVE_CROWNS: CardPoints(_COURT_VALUES, joker=50, wild=20),  # RULES.md 10.5
}


def base_penalty(card: Card, table: PenaltyTable, wild: bool) -> int:
    """A card's points in a table, before any round multiplier.

    >>> base_penalty(Card.parse("8H"), PenaltyTable.PAY_ME, wild=False)
    10
    >>> base_penalty(Card.parse("8H"), PenaltyTable.PAY_ME, wild=True)
    15
    >>> base_penalty(Card.JOKER, PenaltyTable.THREE_THIRTEEN, wild=True)
    15
    """
    return POINTS[table].of(card, wild)


@cache
def points_for(rules: RuleSet) -> CardPoints:
    """The game's penalty table, with an ace's and a joker's points as the options set them where
    the preset takes those options (Contract Rummy)."""
    points = POINTS[rules.options.penalty_table]
    keys = rules.preset.option_keys
    if "ace_points" in keys:
        points = replace(points, ranks=(rules.options.ace_points, *points.ranks[1:]))
    if "joker_points" in keys:
        points = replace(points, joker=rules.options.joker_points)
    return points


def card_penalty(card: Card, rules: RuleSet, info: RoundInfo) -> int:
    """A card's points in a round, multiplier applied.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me-family")
    >>> card_penalty(Card.parse("5H"), rules, round_info(rules, 3))
    5
    """
    return _points(card, rules, info) * info.multiplier


def _points(card: Card, rules: RuleSet, info: RoundInfo) -> int:
    return points_for(rules).of(card, info.is_wild(card))


def held_points(card: Card, options: Options) -> int:
    """A card held at the end of a Contract Rummy deal (RULES.md 9): 2-10 face value, J, Q, K 10,
    an ace and a joker as the options say (15 each by default). A wild 2 still scores 2.

    >>> [held_points(Card.parse(token), Options()) for token in ("2H", "10S", "KD", "AC", "JK")]
    [2, 10, 10, 15, 15]
    """
    if card.rank is None:
        return options.joker_points
    if card.rank is Rank.ACE:
        return options.ace_points
    return POINTS[PenaltyTable.CONTRACT_RUMMY].of(card, wild=False)


def hand_penalty(cards: Iterable[Card], rules: RuleSet, info: RoundInfo) -> int:
    """The points a list of leftover cards scores in a round, multiplier applied."""
    points = points_for(rules)
    return sum(points.of(card, info.is_wild(card)) for card in cards) * info.multiplier


@dataclass(frozen=True)
class HeldInFull:
    """A hand scored card by card, nothing melded: what ``best`` answers where held cards count in full."""

    cards: tuple[Card, ...]
    penalty: int

    def as_json(self) -> dict[str, object]:
        return {"penalty": self.penalty, "melds": [], "unmelded": [str(card) for card in self.cards]}


def held_in_full(cards: Iterable[Card], rules: RuleSet, info: RoundInfo) -> HeldInFull:
    """Every card held counts in full, multiplier applied (Contract Rummy, RULES.md 9).

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> from engine.cards import parse_cards
    >>> rules = rule_set("contract-rummy", {"ace_points": 20})
    >>> held_in_full(parse_cards("AH AS 5C 5D 5H JK"), rules, round_info(rules, 1)).penalty
    70
    """
    held = tuple(cards)
    return HeldInFull(held, hand_penalty(held, rules, info))


def scores_in_full(rules: RuleSet) -> bool:
    """Whether the preset scores every card held in full, with no arrangement into melds."""
    return rules.preset.hand_scoring is HandScoring.IN_FULL


def largest_hand(rules: RuleSet, info: RoundInfo) -> int:
    """The most cards a player can hold when a round ends: the cards dealt, plus two for each buy
    where the preset has buys (Contract Rummy: the discard and a card from the stock, RULES.md 9)."""
    buys = rules.options.buys_per_deal if "buys_per_deal" in rules.preset.option_keys else 0
    return info.cards + 2 * buys


def max_points(rules: RuleSet, info: RoundInfo, players: int | None = None) -> int:
    """The most points one player can be left holding in a round, multiplier applied: the largest
    hand made of the dearest cards the decks in play hold (3-13's wilds score 0; in Contract Rummy
    every held card counts). Without a player count, the preset's largest table of decks is assumed.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me")
    >>> max_points(rules, round_info(rules, 1))
    45
    >>> rules = rule_set("3-13")
    >>> max_points(rules, round_info(rules, 11), players=4)  # 8 aces at 15, 5 tens or faces, doubled
    340
    >>> rules = rule_set("five-crowns")
    >>> max_points(rules, round_info(rules, 11))  # 6 jokers at 50, 7 wild Kings at 20
    440
    """
    row = rules.preset.table_for(players) if players is not None else rules.preset.largest_table
    points = points_for(rules)
    deck = rules.preset.deck
    copies = [(points.of(Card.JOKER, info.is_wild(Card.JOKER)), row.jokers)] if row.jokers else []
    for rank in deck.ranks:
        card = Card(rank, deck.suits[0])
        copies.append((points.of(card, info.is_wild(card)), len(deck.suits) * row.decks))
    left = largest_hand(rules, info)
    total = 0
    for value, count in sorted(copies, reverse=True):
        taken = min(count, left)
        total += value * taken
        left -= taken
    return total * info.multiplier


def penalty_rows(rules: RuleSet, info: RoundInfo) -> list[tuple[str, int]]:
    """The penalty table of a round as (card group, points) rows, for the rules pages."""
    rows: list[tuple[str, int]] = []
    deck = rules.preset.deck
    for rank in deck.ranks:
        card = Card(rank, deck.suits[0])
        rows.append((rank.token + (" (wild)" if info.is_wild(card) else ""), card_penalty(card, rules, info)))
    if info.jokers_wild:
        rows.append(("Joker", card_penalty(Card.JOKER, rules, info)))
    return rows
