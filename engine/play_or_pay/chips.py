"""Play or Pay's chip ledger: the entries chips move by, the starting stack, balances and results (D17).

A balance is the sum of a player's entries; results are chips held minus chips bought, and sum to 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from engine.play_or_pay.errors import PlayOrPayError, PurchaseError
from engine.play_or_pay.table import DEFAULT_CHIPS, MAX_CHIPS, _not_whole, _whole

if TYPE_CHECKING:
    from engine.play_or_pay.hand import HandState


class ChipKind(Enum):
    """Why chips moved."""

    BUY_IN = "buy_in"
    PURCHASE = "purchase"
    PAY = "pay"
    CARDS_LEFT = "cards_left"
    POT = "pot"


@dataclass(frozen=True)
class ChipEntry:
    """One movement of chips: `amount` is the change to the player's stack.

    Buy-ins, purchases and the pot a winner collects are positive; payments into the pot are negative.
    `hand` is None for the starting stacks; a purchase carries the number of the hand it was bought before.
    """

    hand: int | None
    player: str
    kind: ChipKind
    amount: int

    def as_json(self) -> dict[str, Any]:
        """The entry as the web API sends it.

        >>> ChipEntry(2, "Ann", ChipKind.POT, 14).as_json()
        {'hand': 2, 'player': 'Ann', 'kind': 'pot', 'amount': 14}
        """
        return {"hand": self.hand, "player": self.player, "kind": self.kind.value, "amount": self.amount}


def buy_in_entries(players: Sequence[str], stack: int, hand: int | None = None) -> tuple[ChipEntry, ...]:
    """Each player buys `stack` chips (the table's starting stack, or a later top-up before `hand`).

    >>> [entry.amount for entry in buy_in_entries(["Ann", "Bob", "Cy"], 20)]
    [20, 20, 20]
    >>> buy_in_entries(["Ann", "Bob", "Cy"], 0)
    Traceback (most recent call last):
    ...
    engine.play_or_pay.errors.PlayOrPayError: a buy-in must be a whole number of chips from 1, not "0"
    """
    if _not_whole(stack) or stack < 1:
        raise PlayOrPayError(f'a buy-in must be a whole number of chips from 1, not "{stack}"')
    return tuple(ChipEntry(hand, name, ChipKind.BUY_IN, stack) for name in players)


def chip_balances(entries: Sequence[ChipEntry], players: Sequence[str]) -> dict[str, int]:
    """Each player's chips, from the ledger; a negative balance is owed.

    >>> from engine.play_or_pay import settle_quick
    >>> entries = buy_in_entries(["Ann", "Bob", "Cy"], 5) + settle_quick(1, 0, "Bob", {"Ann": 9, "Bob": 0, "Cy": 2}, {})
    >>> chip_balances(entries, ["Ann", "Bob", "Cy"])
    {'Ann': -4, 'Bob': 16, 'Cy': 3}
    """
    balances = dict.fromkeys(players, 0)
    for entry in entries:
        if entry.player not in balances:
            raise PlayOrPayError(f'the chip ledger names "{entry.player}", who is not a player at this table')
        balances[entry.player] += entry.amount
    return balances


def live_balances(entries: Sequence[ChipEntry], hand: HandState, players: Sequence[str] = ()) -> dict[str, int]:
    """Balances during a hand: the ledger, less the chips paid so far in a hand not yet settled.

    >>> from engine.play_or_pay import pay, play, start_hand
    >>> hand = pay(play(start_hand(["Ann", "Bob", "Cy"]), 1, "2C"), 2)
    >>> live_balances(buy_in_entries(["Ann", "Bob", "Cy"], 10), hand)
    {'Ann': 10, 'Bob': 10, 'Cy': 9}
    """
    balances = chip_balances(entries, players or hand.players)  # `players`: those who left too
    if hand.finished:
        return balances
    paid_now = dict(zip(hand.players, hand.paid, strict=True))
    return {name: balance - paid_now.get(name, 0) for name, balance in balances.items()}


def format_chips(balance: int) -> str:
    """A balance as the table reads it; below zero it is shown as owed.

    >>> format_chips(12), format_chips(1), format_chips(-3)
    ('12 chips', '1 chip', 'owes 3 chips')
    """
    count = abs(balance)
    chips = f"{count} chip{'' if count == 1 else 's'}"
    return f"owes {chips}" if balance < 0 else chips


@dataclass(frozen=True)
class ChipsOption:
    """The one option a Play or Pay table sets: each player's starting stack of chips."""

    key: str
    title: str
    default: int
    minimum: int
    maximum: int
    effect: str


CHIPS_OPTION = ChipsOption(
    key="chips",
    title="Starting chips",
    default=DEFAULT_CHIPS,
    minimum=1,
    maximum=MAX_CHIPS,
    effect="Each player buys this many chips before the first hand, and every balance starts there. "
    "It changes no rule of play: every chip paid goes into the pot and on to the hand's winner, "
    "so chips only move between players, and a player who runs out goes below zero (owes). "
    "Players may buy more chips before the first hand or between hands.",
)


def verify_chips(stack: object) -> int:
    """A starting stack the table may choose, or PlayOrPayError.

    >>> verify_chips(30)
    30
    >>> verify_chips(0)
    Traceback (most recent call last):
    ...
    engine.play_or_pay.errors.PlayOrPayError: Starting chips: a whole number of chips from 1 to 10000, not "0"
    """
    if not _whole(stack) or not CHIPS_OPTION.minimum <= stack <= CHIPS_OPTION.maximum:
        raise PlayOrPayError(
            f"{CHIPS_OPTION.title}: a whole number of chips from {CHIPS_OPTION.minimum} to {CHIPS_OPTION.maximum}, "
            f'not "{stack}"'
        )
    return stack


def chips_bought(entries: Sequence[ChipEntry], players: Sequence[str]) -> dict[str, int]:
    """Chips each player bought from the table: buy-ins and purchases.

    >>> entries = (*buy_in_entries(["Ann", "Bob", "Cy"], 5), ChipEntry(2, "Cy", ChipKind.PURCHASE, 10))
    >>> chips_bought(entries, ["Ann", "Bob", "Cy"])
    {'Ann': 5, 'Bob': 5, 'Cy': 15}
    """
    bought_kinds = (ChipKind.BUY_IN, ChipKind.PURCHASE)
    return chip_balances([entry for entry in entries if entry.kind in bought_kinds], players)


def chip_results(entries: Sequence[ChipEntry], players: Sequence[str]) -> dict[str, int]:
    """Each player's result (D17): chips held minus chips bought. Chips only move between players, so they sum to 0.

    >>> from engine.play_or_pay import settle_quick
    >>> entries = buy_in_entries(["Ann", "Bob", "Cy"], 5) + settle_quick(1, 0, "Bob", {"Ann": 9, "Bob": 0, "Cy": 2}, {})
    >>> chip_results(entries, ["Ann", "Bob", "Cy"])
    {'Ann': -9, 'Bob': 11, 'Cy': -2}
    """
    held = chip_balances(entries, players)
    bought = chips_bought(entries, players)
    return {name: held[name] - bought[name] for name in players}


def verify_purchase_chips(chips: object) -> int:
    """A number of chips a player may buy at once, or PurchaseError.

    >>> verify_purchase_chips(50)
    50
    """
    if not _whole(chips) or not 1 <= chips <= MAX_CHIPS:
        raise PurchaseError(f'a purchase must be a whole number of chips from 1 to {MAX_CHIPS}, not "{chips}"')
    return chips
