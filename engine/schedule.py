"""Rounds: cards dealt, wild cards and multiplier; dealer and first player (RULES.md 3, 5).

>>> from engine.rules import rule_set
>>> rules = rule_set("pay-me")
>>> first = round_info(rules, 1)
>>> first.cards, first.wild_tokens, first.multiplier
(3, ('JK', '2', '3'), 1)
>>> [info.cards for info in schedule(rule_set("pay-me", {"full_cycle": True}))][10:14]
[13, 14, 13, 12]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.cards import Card, Rank
from engine.errors import RoundError, VariantError
from engine.rules import RuleSet


@dataclass(frozen=True)
class RoundInfo:
    """One round of a game: what to deal, which cards are wild, and how to start the discard pile.

    >>> from engine.rules import rule_set
    >>> round_info(rule_set("three-thirteen"), 2).discard_pile
    'The dealer turns the last card dealt face up to start the discard pile.'
    """

    number: int
    cards: int
    round_rank: Rank | None
    jokers_wild: bool
    wild_ranks: frozenset[Rank]
    multiplier: int
    discard_pile: str = ""  # how to start the discard pile, in words (RULES.md 5)

    def is_wild(self, card: Card) -> bool:
        """Whether a card is wild this round (D1: a wild card is always wild)."""
        if card.rank is None:
            return self.jokers_wild
        return card.rank in self.wild_ranks

    @property
    def wild_tokens(self) -> tuple[str, ...]:
        """The wild cards as RULES.md section 8 lists them: ``JK`` then rank tokens."""
        tokens = ["JK"] if self.jokers_wild else []
        return tuple(tokens + [rank.token for rank in self._ordered_ranks])

    @property
    def wild_words(self) -> str:
        """The wild cards in words: ``Jokers, 2s and Kings``."""
        words = ["Jokers"] if self.jokers_wild else []
        words += [rank.plural if rank is not Rank.TWO else "2s" for rank in self._ordered_ranks]
        if not words:
            return "No wild cards"
        if len(words) == 1:
            return words[0]
        return ", ".join(words[:-1]) + " and " + words[-1]

    @property
    def _ordered_ranks(self) -> list[Rank]:
        return sorted(self.wild_ranks, key=lambda rank: (rank is not Rank.TWO, rank is self.round_rank))

    def as_json(self) -> dict[str, object]:
        return {
            "round": self.number,
            "cards": self.cards,
            "wild": list(self.wild_tokens),
            "multiplier": self.multiplier,
            "discard_pile": self.discard_pile,
        }


def _cards_dealt(rules: RuleSet) -> list[int]:
    rising = list(range(3, 14))
    if not rules.options.full_cycle:
        return rising
    return [*rising, 14, *rising[::-1]]


def _round_rank(cards: int) -> Rank:
    return Rank.ACE if cards == 14 else Rank(cards)


@cache
def schedule(rules: RuleSet) -> tuple[RoundInfo, ...]:
    """Every round of the game, in order (D2 for the full cycle)."""
    if rules.preset.kind != "rummy":
        raise VariantError(f'"{rules.preset.id}" is played in hands, not rounds')
    return tuple(_make_round(rules, number, cards) for number, cards in enumerate(_cards_dealt(rules), start=1))


def _make_round(rules: RuleSet, number: int, cards: int) -> RoundInfo:
    preset = rules.preset
    round_rank = _round_rank(cards) if preset.wild_round_rank else None
    wild_ranks = set()
    if preset.wild_twos:
        wild_ranks.add(Rank.TWO)
    if round_rank is not None:
        wild_ranks.add(round_rank)
    return RoundInfo(
        number=number,
        cards=cards,
        round_rank=round_rank,
        jokers_wild=preset.wild_jokers,
        wild_ranks=frozenset(wild_ranks),
        multiplier=2 if number in rules.options.double_rounds else 1,
        discard_pile=preset.discard_pile_text,
    )


def round_info(rules: RuleSet, number: int) -> RoundInfo:
    """One round; raise RoundError quoting the number when the game has no such round."""
    rounds = schedule(rules)
    if not 1 <= number <= len(rounds):
        raise RoundError(f"round {number} does not exist: {rules.preset.name} has rounds 1 to {len(rounds)}")
    return rounds[number - 1]


def dealer_seat(first_dealer: int, round_number: int, players: int) -> int:
    """The seat (0-based) that deals a round; the deal passes left every round.

    >>> [dealer_seat(2, number, 4) for number in (1, 2, 3)]
    [2, 3, 0]
    """
    return (first_dealer + round_number - 1) % players


def first_player_seat(first_dealer: int, round_number: int, players: int) -> int:
    """The seat (0-based) that plays first: the one left of the dealer.

    >>> first_player_seat(3, 1, 4)
    0
    """
    return (dealer_seat(first_dealer, round_number, players) + 1) % players
