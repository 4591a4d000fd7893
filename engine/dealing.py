"""Who deals first, and how to start the discard pile (RULES.md section 5).

Seats are numbered from 0 in clockwise order; "left" is the next seat, and the deal passes left
every round (`engine.schedule.dealer_seat`).

>>> from engine.rules import PRESETS
>>> [method.value for method in first_dealer_methods(PRESETS["3-13"])]
['chosen', 'random', 'high_card', 'left_of_scorekeeper']
>>> first_dealer(PRESETS["3-13"], "left_of_scorekeeper", ["Ann", "Bob", "Cy"], scorekeeper="Cy")
0
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import Enum

from engine.cards import Card, Rank
from engine.errors import EngineError
from engine.rules import PRESETS, Preset

__all__ = [
    "DealerError",
    "FirstDealerMethod",
    "can_use_method",
    "discard_pile_text",
    "first_dealer",
    "first_dealer_methods",
    "high_card_draw",
    "verify_method",
]


class DealerError(EngineError):
    """A way of picking the first dealer that the game does not offer, or a player it cannot use."""


class FirstDealerMethod(Enum):
    """How the table picks the first dealer; `label` and `how` say it in words."""

    CHOSEN = "chosen"
    RANDOM = "random"
    HIGH_CARD = "high_card"
    LEFT_OF_SCOREKEEPER = "left_of_scorekeeper"

    @property
    def label(self) -> str:
        """The method's name, as a form offers it.

        >>> FirstDealerMethod.HIGH_CARD.label
        'High-card draw'
        """
        return _LABELS[self]

    @property
    def how(self) -> str:
        """What the table does, in words, with a deck of Ace to King."""
        return _HOW[self].format(low="Ace")

    def how_in(self, preset: Preset) -> str:
        """What the table does, in words, with the preset's deck: its lowest rank is low in the draw.

        >>> from engine.rules import PRESETS
        >>> FirstDealerMethod.HIGH_CARD.how_in(PRESETS["five-crowns"])[:50]
        'Each player draws a card: King is high, Three is l'
        """
        return _HOW[self].format(low=preset.deck.lowest_rank.word)

    @classmethod
    def parse(cls, text: object) -> FirstDealerMethod:
        """A method from its value (``high_card``) or its label, or DealerError quoting the text.

        >>> FirstDealerMethod.parse(" High_Card "), FirstDealerMethod.parse("at random")
        (<FirstDealerMethod.HIGH_CARD: 'high_card'>, <FirstDealerMethod.RANDOM: 'random'>)
        >>> FirstDealerMethod.parse("coin")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        engine.dealing.DealerError: "coin" is not a way to pick the first dealer: the ways are chosen by the table, ...
        """
        if isinstance(text, FirstDealerMethod):
            return text
        wanted = str(text).strip().lower()
        for method in cls:
            if wanted in (method.value, method.label.lower()):
                return method
        ways = ", ".join(method.label.lower() for method in cls)
        raise DealerError(f'"{text}" is not a way to pick the first dealer: the ways are {ways}')

    def __str__(self) -> str:
        return self.value


_LABELS = {
    FirstDealerMethod.CHOSEN: "Chosen by the table",
    FirstDealerMethod.RANDOM: "At random",
    FirstDealerMethod.HIGH_CARD: "High-card draw",
    FirstDealerMethod.LEFT_OF_SCOREKEEPER: "Left of the score keeper",
}

_HOW = {
    FirstDealerMethod.CHOSEN: "The table agrees who deals first.",
    FirstDealerMethod.RANDOM: "The companion picks a player at random.",
    FirstDealerMethod.HIGH_CARD: "Each player draws a card: King is high, {low} is low, and players who tie draw "
    "again. Players then pick their seats in the order of their cards, highest first, and the highest card "
    "deals first. List the players as they then sit, clockwise, and choose the player who won the draw.",
    FirstDealerMethod.LEFT_OF_SCOREKEEPER: "The player to the left of the score keeper deals first.",
}


def first_dealer_methods(preset: Preset) -> tuple[FirstDealerMethod, ...]:
    """The ways a game of the preset may pick its first dealer; left of the score keeper is 3-13's own.

    >>> from engine.rules import PRESETS
    >>> [method.label for method in first_dealer_methods(PRESETS["pay-me"])]
    ['Chosen by the table', 'At random', 'High-card draw']
    """
    return tuple(
        method
        for method in FirstDealerMethod
        if method is not FirstDealerMethod.LEFT_OF_SCOREKEEPER or preset.left_of_scorekeeper_deals
    )


def verify_method(preset: Preset, method: FirstDealerMethod | str) -> FirstDealerMethod:
    """The method, when the preset offers it, or DealerError.

    >>> from engine.rules import PRESETS
    >>> verify_method(PRESETS["pay-me"], "left_of_scorekeeper")
    Traceback (most recent call last):
    ...
    engine.dealing.DealerError: Pay Me does not pick the first dealer "left of the score keeper": only 3-13 does
    """
    chosen = FirstDealerMethod.parse(method)
    if chosen not in first_dealer_methods(preset):
        offering = " and ".join(other.name for other in PRESETS.values() if chosen in first_dealer_methods(other))
        raise DealerError(
            f'{preset.name} does not pick the first dealer "{chosen.label.lower()}": only {offering} does'
        )
    return chosen


def can_use_method(preset: Preset, method: FirstDealerMethod | str) -> bool:
    """Whether the preset offers the method.

    >>> from engine.rules import PRESETS
    >>> can_use_method(PRESETS["3-13"], "left_of_scorekeeper"), can_use_method(PRESETS["pay-me"], "random")
    (True, True)
    """
    try:
        verify_method(preset, method)
    except DealerError:
        return False
    return True


def _seat(players: Sequence[str], who: int | str | None, role: str) -> int:
    if who is None:
        raise DealerError(f"name the {role}")
    if isinstance(who, str):
        if who.strip() not in players:
            raise DealerError(f'the {role} "{who}" is not one of the players')
        return list(players).index(who.strip())
    if isinstance(who, bool) or not 0 <= who < len(players):
        raise DealerError(f'the {role} "{who}" is not a seat at this table (seats are 0 to {len(players) - 1})')
    return who


def first_dealer(
    preset: Preset,
    method: FirstDealerMethod | str,
    players: Sequence[str],
    *,
    chosen: int | str | None = None,
    scorekeeper: int | str | None = None,
    rng: random.Random | None = None,
) -> int:
    """The seat of the first dealer.

    - chosen: the player the table chose (`chosen`, a name or a seat);
    - random: a seat drawn with `rng` (the system's randomness by default);
    - high_card: the player who won the draw, as the table reports it (`chosen`; see `high_card_draw`);
    - left_of_scorekeeper (3-13): the seat left of `scorekeeper`.

    >>> from engine.rules import PRESETS
    >>> first_dealer(PRESETS["pay-me"], "random", ["Ann", "Bob", "Cy", "Dee"], rng=random.Random(7))
    2
    >>> first_dealer(PRESETS["pay-me"], "high_card", ["Ann", "Bob", "Cy"])
    Traceback (most recent call last):
    ...
    engine.dealing.DealerError: name the player who won the high-card draw
    """
    way = verify_method(preset, method)
    if not players:
        raise DealerError("a first dealer needs players at the table")
    if way is FirstDealerMethod.RANDOM:
        return (rng or random.SystemRandom()).randrange(len(players))
    if way is FirstDealerMethod.LEFT_OF_SCOREKEEPER:
        return (_seat(players, scorekeeper, "score keeper") + 1) % len(players)
    role = "player who won the high-card draw" if way is FirstDealerMethod.HIGH_CARD else "first dealer"
    return _seat(players, chosen, role)


def high_card_draw(draws: Mapping[str, Card | str]) -> tuple[str, ...]:
    """Who won a high-card draw: the players holding the highest card, King high and Ace low.

    One name is the winner; several have tied and draw again.

    >>> high_card_draw({"Ann": "KH", "Bob": "AS", "Cy": "10D"})
    ('Ann',)
    >>> high_card_draw({"Ann": "QH", "Bob": "QS", "Cy": "AD"})
    ('Ann', 'Bob')
    """
    if not draws:
        raise DealerError("a high-card draw needs each player's card")
    ranks: dict[str, Rank] = {}
    for name, drawn in draws.items():
        card = Card.parse(drawn) if isinstance(drawn, str) else drawn
        if card.rank is None:
            raise DealerError(f'{name} drew "{card}": a joker does not count; put it back and draw again')
        ranks[name] = card.rank
    best = max(ranks.values())
    return tuple(name for name, rank in ranks.items() if rank == best)


def discard_pile_text(preset: Preset) -> str:
    """How to start the discard pile, in words, for the preset.

    >>> from engine.rules import PRESETS
    >>> discard_pile_text(PRESETS["three-thirteen"])
    'The dealer turns the last card dealt face up to start the discard pile.'
    """
    return preset.discard_pile_text
