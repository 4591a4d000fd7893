"""Play or Pay (RULES.md section 7): dealing, a hand followed card by card, settling, and a chip ledger.

Players hold real cards, so the companion trusts what is reported; it knows only which cards
have been played, how many cards each player still holds, and who paid for which card.
Seats are numbered from 0 in clockwise order; "left" is the next seat.

A game is the events its table reports, replayed in order: cards played, chips paid, hands
entered after the fact and chips bought (D17). `Event.parse` reads one from JSON and `to_json`
writes it back; `apply_event`, `replay` and `undo_last_event` give the `GameState` after them.

>>> hand = start_hand(["Ann", "Bob", "Cy"], dealer=0)
>>> hand.cards_left, hand.turn
((17, 18, 17), 1)
>>> hand = play(hand, 1, "QH")
>>> str(hand.needed), hand.turn
('KH', 2)
>>> hand = pay(hand, 2)
>>> hand = play(hand, 0, "KH")
>>> str(hand.needed), hand.pot, hand.paid
('AH', 1, (0, 0, 1))
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, ClassVar, TypeGuard

from engine.cards import Card, Rank, Suit
from engine.errors import CardError, EngineError
from engine.rules import DECISIONS

__all__ = [
    "CHIPS_OPTION",
    "COMPANION_RULES",
    "DECK_SIZE",
    "DEFAULT_CHIPS",
    "MAX_CHIPS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULES_IN_SHORT",
    "ChipEntry",
    "ChipKind",
    "ChipsOption",
    "DealRow",
    "Event",
    "EventError",
    "EventKind",
    "Flag",
    "GameState",
    "HandState",
    "IllegalPlay",
    "NothingToUndo",
    "PayEvent",
    "PlayEvent",
    "PlayOrPayError",
    "PurchaseError",
    "PurchaseEvent",
    "RuleLine",
    "SettleEvent",
    "apply_event",
    "buy_in_entries",
    "can_apply",
    "can_next_hand",
    "can_pay",
    "can_play",
    "can_purchase",
    "can_settle_quick",
    "chip_balances",
    "chip_results",
    "chips_bought",
    "deal_counts",
    "deal_table",
    "finish_hand",
    "format_chips",
    "live_balances",
    "next_card",
    "next_hand",
    "pay",
    "play",
    "purchase",
    "replaced_events",
    "replay",
    "settle",
    "settle_quick",
    "settlement_entries",
    "start_game",
    "start_hand",
    "undo_last_event",
    "verify_chips",
    "verify_event",
    "verify_next_hand",
    "verify_pay",
    "verify_play",
    "verify_players",
    "verify_purchase",
    "verify_purchase_chips",
    "verify_quick_settlement",
    "verify_replaces",
]

MIN_PLAYERS = 3
MAX_PLAYERS = 10
DECK_SIZE = 52
DEFAULT_CHIPS = 20
MAX_CHIPS = 10_000


class PlayOrPayError(EngineError):
    """A table, a seat, a buy-in or a quick settlement that Play or Pay cannot take."""


class EventError(PlayOrPayError):
    """An event that is not well formed: an unknown type or field, a missing player, card or count."""


class PurchaseError(PlayOrPayError):
    """A chip purchase the table cannot make: a bad number of chips, or in the middle of a hand."""


class NothingToUndo(PlayOrPayError):
    """An undo asked for before any event was recorded."""


class IllegalPlay(PlayOrPayError):
    """A reported play or payment that breaks a rule; `code` is stable, the message is for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# --- chips ------------------------------------------------------------------------------------


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
    engine.play_or_pay.PlayOrPayError: a buy-in must be a whole number of chips from 1, not "0"
    """
    if _not_whole(stack) or stack < 1:
        raise PlayOrPayError(f'a buy-in must be a whole number of chips from 1, not "{stack}"')
    return tuple(ChipEntry(hand, name, ChipKind.BUY_IN, stack) for name in players)


def chip_balances(entries: Sequence[ChipEntry], players: Sequence[str]) -> dict[str, int]:
    """Each player's chips, from the ledger; a negative balance is owed.

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


def live_balances(entries: Sequence[ChipEntry], hand: HandState) -> dict[str, int]:
    """Balances during a hand: the ledger, less the chips paid so far in a hand not yet settled.

    >>> hand = pay(play(start_hand(["Ann", "Bob", "Cy"]), 1, "2C"), 2)
    >>> live_balances(buy_in_entries(["Ann", "Bob", "Cy"], 10), hand)
    {'Ann': 10, 'Bob': 10, 'Cy': 9}
    """
    balances = chip_balances(entries, hand.players)
    if hand.finished:
        return balances
    return {name: balances[name] - paid for name, paid in zip(hand.players, hand.paid, strict=True)}


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
    engine.play_or_pay.PlayOrPayError: Starting chips: a whole number of chips from 1 to 10000, not "0"
    """
    if not _whole(stack) or not CHIPS_OPTION.minimum <= stack <= CHIPS_OPTION.maximum:
        raise PlayOrPayError(
            f"{CHIPS_OPTION.title}: a whole number of chips from {CHIPS_OPTION.minimum} to {CHIPS_OPTION.maximum}, "
            f'not "{stack}"'
        )
    return stack


# --- the deal ---------------------------------------------------------------------------------


def _not_whole(value: object) -> bool:
    return not _whole(value)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def verify_players(players: Sequence[str]) -> tuple[str, ...]:
    """The players in seat order, or PlayOrPayError for a bad name or table size.

    >>> verify_players(["Ann", "Bob"])
    Traceback (most recent call last):
    ...
    engine.play_or_pay.PlayOrPayError: Play or Pay needs 3 to 10 players, not 2 ("Ann, Bob")
    """
    seated: list[str] = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise PlayOrPayError(f'"{name}" is not a player name')
        if name in seated:
            raise PlayOrPayError(f'"{name}" sits at the table twice')
        seated.append(name)
    if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS:
        raise PlayOrPayError(
            f'Play or Pay needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seated)} ("{", ".join(seated)}")'
        )
    return tuple(seated)


def _table_size(players: int | Sequence[str]) -> int:
    if not isinstance(players, int):
        return len(verify_players(players))
    if isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PlayOrPayError(f'Play or Pay needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not "{players}"')
    return players


def _verify_seat(seat: object, size: int, what: str = "seat") -> int:
    if not _whole(seat) or not 0 <= seat < size:
        raise PlayOrPayError(f'"{seat}" is not a {what} at this table (seats are 0 to {size - 1})')
    return seat


def deal_counts(players: int | Sequence[str], dealer_seat: int) -> tuple[int, ...]:
    """How many cards each seat is dealt: the first 52 mod n players left of the dealer get one more.

    >>> deal_counts(5, dealer_seat=3)
    (11, 10, 10, 10, 11)
    >>> deal_counts(["Ann", "Bob", "Cy", "Dee"], 0)
    (13, 13, 13, 13)
    """
    size = _table_size(players)
    dealer = _verify_seat(dealer_seat, size, "dealer seat")
    base, extra = divmod(DECK_SIZE, size)
    return tuple(base + (1 if (seat - dealer - 1) % size < extra else 0) for seat in range(size))


@dataclass(frozen=True)
class DealRow:
    """How a table of `players` is dealt: `extra` of them (52 mod n), the first from the dealer's
    left, hold `most` cards; the other `rest` hold `cards`."""

    players: int
    cards: int
    extra: int

    @property
    def most(self) -> int:
        """The cards the first `extra` players from the dealer's left hold."""
        return self.cards + 1 if self.extra else self.cards

    @property
    def rest(self) -> int:
        """How many players hold `cards`."""
        return self.players - self.extra


def deal_table() -> tuple[DealRow, ...]:
    """The deal for every table size, from `deal_counts`.

    >>> [(row.players, row.cards, row.extra, row.most, row.rest) for row in deal_table()[:3]]
    [(3, 17, 1, 18, 2), (4, 13, 0, 13, 4), (5, 10, 2, 11, 3)]
    """
    rows: list[DealRow] = []
    for size in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        counts = deal_counts(size, dealer_seat=0)
        cards = min(counts)
        rows.append(DealRow(size, cards, sum(1 for count in counts if count > cards)))
    return tuple(rows)


def next_card(card: Card) -> Card:
    """The card that follows in a sequence: the next rank of the suit, King wrapping to Ace.

    >>> str(next_card(Card.parse("KS"))), str(next_card(Card.parse("AS")))
    ('AS', '2S')
    """
    if card.rank is None or card.suit is None:
        raise IllegalPlay("joker", '"JK" is not in a Play or Pay deck: the game uses no jokers')
    return Card(Rank(card.rank % 13 + 1), card.suit)


# --- a hand, followed card by card --------------------------------------------------------------


@dataclass(frozen=True)
class Flag:
    """A player played a card they had earlier paid for: the one cheat the companion can see."""

    hand: int
    seat: int
    card: Card
    message: str

    def as_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "seat": self.seat, "card": str(self.card), "message": self.message}


@dataclass(frozen=True)
class HandState:
    """One hand of Play or Pay as the companion follows it.

    `needed` is None when the player to act (`turn`) leads a new sequence. `pot` counts the chips
    paid this hand; once the hand is settled it is what the winner collected, `settlement` holds
    the chip entries and `turn` is the winner's seat.
    """

    players: tuple[str, ...]
    hand: int
    dealer: int
    cards_left: tuple[int, ...]
    turn: int
    paid: tuple[int, ...]
    needed: Card | None = None
    sequence_start: Card | None = None
    suits_played: tuple[Suit, ...] = ()
    played: tuple[Card, ...] = ()
    pot: int = 0
    paid_for: tuple[tuple[int, Card], ...] = ()
    flags: tuple[Flag, ...] = ()
    finished: bool = False
    winner: int | None = None
    settlement: tuple[ChipEntry, ...] = ()

    @property
    def to_act(self) -> str:
        """The name of the player whose turn it is."""
        return self.players[self.turn]

    @property
    def is_lead(self) -> bool:
        """Whether the player to act starts a new sequence."""
        return self.needed is None and not self.finished

    def as_json(self) -> dict[str, Any]:
        """The hand as the web API sends it.

        >>> data = start_hand(["Ann", "Bob", "Cy"]).as_json()
        >>> data["turn"], data["needed"], data["cards_left"], data["finished"]
        (1, None, [17, 18, 17], False)
        """
        return {
            "hand": self.hand,
            "players": list(self.players),
            "dealer": self.dealer,
            "turn": self.turn,
            "needed": _text(self.needed),
            "sequence_start": _text(self.sequence_start),
            "suits_played": [suit.value for suit in self.suits_played],
            "played": [str(card) for card in self.played],
            "cards_left": list(self.cards_left),
            "pot": self.pot,
            "paid": list(self.paid),
            "paid_for": [{"seat": seat, "card": str(card)} for seat, card in self.paid_for],
            "flags": [flag.as_json() for flag in self.flags],
            "finished": self.finished,
            "winner": self.winner,
            "settlement": [entry.as_json() for entry in self.settlement],
        }


def _text(card: Card | None) -> str | None:
    return None if card is None else str(card)


def start_hand(players: Sequence[str], dealer: int = 0, hand: int = 1) -> HandState:
    """A hand just dealt: the player left of the dealer leads with any card.

    >>> start_hand(["Ann", "Bob", "Cy", "Dee", "Eve"], dealer=4).to_act
    'Ann'
    """
    seated = verify_players(players)
    _verify_seat(dealer, len(seated), "dealer seat")
    if _not_whole(hand) or hand < 1:
        raise PlayOrPayError(f'"{hand}" is not a hand number')
    counts = deal_counts(len(seated), dealer)
    return HandState(seated, hand, dealer, counts, (dealer + 1) % len(seated), (0,) * len(seated))


def verify_next_hand(state: HandState) -> None:
    """Raise IllegalPlay while the hand is still being played.

    >>> verify_next_hand(start_hand(["Ann", "Bob", "Cy"], hand=3))
    Traceback (most recent call last):
    ...
    engine.play_or_pay.IllegalPlay: hand 3 cannot be followed by the next one: it is not over yet
    """
    if not state.finished:
        raise IllegalPlay("hand_not_over", f"hand {state.hand} cannot be followed by the next one: it is not over yet")


def can_next_hand(state: HandState) -> bool:
    """Whether the next hand can be dealt.

    >>> can_next_hand(start_hand(["Ann", "Bob", "Cy"]))
    False
    """
    return state.finished


def next_hand(state: HandState) -> HandState:
    """The next hand, dealt by the player left of this hand's dealer.

    >>> finished = replace(start_hand(["Ann", "Bob", "Cy"]), finished=True, winner=1)
    >>> following = next_hand(finished)
    >>> following.hand, following.dealer, following.to_act
    (2, 1, 'Cy')
    """
    verify_next_hand(state)
    return start_hand(state.players, (state.dealer + 1) % len(state.players), state.hand + 1)


def _card(card: Card | str) -> Card:
    return Card.parse(card) if isinstance(card, str) else card


def _verify_acting(state: HandState, seat: int, action: str) -> str:
    """The acting player's name, when the hand is live, the seat is theirs to act and they hold cards."""
    _verify_seat(seat, len(state.players))
    name = state.players[seat]
    if state.finished:
        winner = state.players[state.winner] if state.winner is not None else "someone"
        raise IllegalPlay("hand_over", f"{name} cannot {action}: hand {state.hand} is over and {winner} won it")
    if state.cards_left[seat] < 1:
        raise IllegalPlay("no_cards_left", f"{name} cannot {action}: {name} has no cards left")
    if seat != state.turn:
        raise IllegalPlay("out_of_turn", f"{name} cannot {action}: it is {state.to_act}'s turn")
    return name


def verify_play(state: HandState, seat: int, card: Card | str) -> None:
    """Raise IllegalPlay with the reason when the seat may not play the card now.

    >>> hand = play(start_hand(["Ann", "Bob", "Cy"]), 1, "9D")
    >>> verify_play(hand, 2, "JD")
    Traceback (most recent call last):
    ...
    engine.play_or_pay.IllegalPlay: Cy cannot play "JD": the card needed is 10D
    """
    card = _card(card)
    name = _verify_acting(state, seat, f'play "{card}"')
    if card.suit is None:
        raise IllegalPlay("joker", f'{name} cannot play "{card}": Play or Pay uses no jokers')
    if card in state.played:
        raise IllegalPlay("already_played", f'{name} cannot play "{card}": it has already been played this hand')
    if state.needed is None and card.suit in state.suits_played:
        raise IllegalPlay(
            "suit_played", f'{name} cannot lead "{card}": {card.suit.word} have already been played this hand'
        )
    if state.needed is not None and card != state.needed:
        raise IllegalPlay("not_needed", f'{name} cannot play "{card}": the card needed is {state.needed}')


def can_play(state: HandState, seat: int, card: Card | str) -> bool:
    """Whether the seat may play the card now.

    >>> can_play(start_hand(["Ann", "Bob", "Cy"]), 2, "7H")
    False
    """
    try:
        verify_play(state, seat, card)
    except (PlayOrPayError, CardError):
        return False
    return True


def play(state: HandState, seat: int, card: Card | str) -> HandState:
    """The hand after the seat plays the card: a lead, or the card needed; a last card settles the hand.

    >>> hand = play(start_hand(["Ann", "Bob", "Cy"]), 1, "7H")
    >>> hand.sequence_start == hand.played[0], [suit.word for suit in hand.suits_played]
    (True, ['hearts'])
    """
    card = _card(card)
    verify_play(state, seat, card)
    lead = state.needed is None
    moved = replace(
        state,
        cards_left=_changed(state.cards_left, seat, -1),
        played=(*state.played, card),
        suits_played=(*state.suits_played, card.suit) if lead and card.suit else state.suits_played,
        sequence_start=card if lead else state.sequence_start,
        flags=state.flags + _flags_for(state, seat, card),
    )
    if moved.cards_left[seat] == 0:
        return finish_hand(moved, seat)
    if moved.sequence_start is not None and next_card(card) == moved.sequence_start:
        return replace(moved, needed=None, sequence_start=None, turn=seat)
    return replace(moved, needed=next_card(card), turn=(seat + 1) % len(state.players))


def _changed(counts: tuple[int, ...], seat: int, by: int) -> tuple[int, ...]:
    return tuple(count + by if index == seat else count for index, count in enumerate(counts))


def _flags_for(state: HandState, seat: int, card: Card) -> tuple[Flag, ...]:
    if (seat, card) not in state.paid_for:
        return ()
    name = state.players[seat]
    message = f"{name} played {card} after paying a chip when {card} was needed, so {name} held it then"
    return (Flag(state.hand, seat, card, message),)


def verify_pay(state: HandState, seat: int) -> None:
    """Raise IllegalPlay with the reason when the seat may not pay now.

    >>> verify_pay(start_hand(["Ann", "Bob", "Cy"]), 1)
    Traceback (most recent call last):
    ...
    engine.play_or_pay.IllegalPlay: Bob cannot pay: no card is needed, so Bob leads a new sequence
    """
    name = _verify_acting(state, seat, "pay")
    if state.needed is None:
        raise IllegalPlay("must_lead", f"{name} cannot pay: no card is needed, so {name} leads a new sequence")


def can_pay(state: HandState, seat: int) -> bool:
    """Whether the seat may pay now instead of playing.

    >>> can_pay(play(start_hand(["Ann", "Bob", "Cy"]), 1, "7H"), 2)
    True
    """
    try:
        verify_pay(state, seat)
    except (PlayOrPayError, CardError):
        return False
    return True


def pay(state: HandState, seat: int) -> HandState:
    """The hand after the seat pays a chip to the pot for the card needed; play passes left.

    >>> hand = pay(play(start_hand(["Ann", "Bob", "Cy"]), 1, "7H"), 2)
    >>> hand.pot, hand.to_act, [(seat, str(card)) for seat, card in hand.paid_for]
    (1, 'Ann', [(2, '8H')])
    """
    verify_pay(state, seat)
    assert state.needed is not None  # checked by verify_pay
    return replace(
        state,
        pot=state.pot + 1,
        paid=_changed(state.paid, seat, 1),
        paid_for=(*state.paid_for, (seat, state.needed)),
        turn=(seat + 1) % len(state.players),
    )


# --- settling a hand --------------------------------------------------------------------------


def settlement_entries(
    hand: int, players: Sequence[str], winner: int, cards_left: Sequence[int], paid: Sequence[int]
) -> tuple[ChipEntry, ...]:
    """The chips a finished hand moves, by seat: what each paid during play, each loser's cards, the pot.

    >>> entries = settlement_entries(1, ["Ann", "Bob", "Cy"], 0, [0, 3, 1], [1, 2, 0])
    >>> [(entry.player, entry.kind.value, entry.amount) for entry in entries]
    [('Ann', 'pay', -1), ('Bob', 'pay', -2), ('Bob', 'cards_left', -3), ('Cy', 'cards_left', -1), ('Ann', 'pot', 7)]
    """
    entries: list[ChipEntry] = []
    for seat, name in enumerate(players):
        if paid[seat]:
            entries.append(ChipEntry(hand, name, ChipKind.PAY, -paid[seat]))
        if seat != winner and cards_left[seat]:
            entries.append(ChipEntry(hand, name, ChipKind.CARDS_LEFT, -cards_left[seat]))
    pot = -sum(entry.amount for entry in entries)
    if pot:
        entries.append(ChipEntry(hand, players[winner], ChipKind.POT, pot))
    return tuple(entries)


def finish_hand(state: HandState, winner: int) -> HandState:
    """The hand over, won by the seat `winner`: the chips it moves are in `settlement`, the pot in `pot`.

    `play` calls it when a player plays their last card; `settle` when a hand is entered after the fact.

    >>> over = finish_hand(replace(start_hand(["Ann", "Bob", "Cy"]), cards_left=(0, 2, 1)), 0)
    >>> over.finished, over.winner, over.pot, [entry.amount for entry in over.settlement]
    (True, 0, 3, [-2, -1, 3])
    """
    _verify_seat(winner, len(state.players), "winner's seat")
    entries = settlement_entries(state.hand, state.players, winner, state.cards_left, state.paid)
    collected = sum(entry.amount for entry in entries if entry.kind is ChipKind.POT)
    return replace(state, finished=True, winner=winner, turn=winner, needed=None, pot=collected, settlement=entries)


_settled = finish_hand  # the old private name, until the app uses `settle`


def verify_quick_settlement(
    hand_number: int,
    dealer: int | str,
    winner: str,
    cards_left: Mapping[str, int],
    paid: Mapping[str, int],
) -> tuple[ChipEntry, ...]:
    """The chip entries of a hand entered after the fact, or PlayOrPayError naming the bad input.

    `cards_left` names every player, in seat order; `paid` may leave out players who paid nothing.

    >>> verify_quick_settlement(1, "Ann", "Bob", {"Ann": 3, "Bob": 1, "Cy": 4}, {})
    Traceback (most recent call last):
    ...
    engine.play_or_pay.PlayOrPayError: Bob won the hand, so Bob has 0 cards left, not "1"
    """
    players = verify_players(list(cards_left))
    if _not_whole(hand_number) or hand_number < 1:
        raise PlayOrPayError(f'"{hand_number}" is not a hand number')
    dealer_seat = players.index(dealer) if dealer in players else _verify_seat(dealer, len(players), "dealer seat")
    if winner not in players:
        raise PlayOrPayError(f'the winner "{winner}" is not a player at this table')
    dealt = deal_counts(len(players), dealer_seat)
    held = tuple(
        _verify_cards_left(name, cards_left[name], dealt[seat], name == winner) for seat, name in enumerate(players)
    )
    chips = tuple(_verify_paid(name, paid.get(name, 0)) for name in players)
    for name in paid:
        if name not in players:
            raise PlayOrPayError(f'"{name}" paid chips but is not a player at this table')
    return settlement_entries(hand_number, players, players.index(winner), held, chips)


def _verify_cards_left(name: str, count: object, dealt: int, won: bool) -> int:
    if not _whole(count) or not 0 <= count <= dealt:
        raise PlayOrPayError(f'{name} was dealt {dealt} cards, so cannot hold "{count}" at the end')
    if won and count != 0:
        raise PlayOrPayError(f'{name} won the hand, so {name} has 0 cards left, not "{count}"')
    if not won and count == 0:
        raise PlayOrPayError(f'{name} did not win the hand, so {name} still holds cards, not "{count}"')
    return count


def _verify_paid(name: str, count: object) -> int:
    if not _whole(count) or count < 0:
        raise PlayOrPayError(f'{name} cannot have paid "{count}" chips during play')
    return count


def can_settle_quick(
    hand_number: int, dealer: int | str, winner: str, cards_left: Mapping[str, int], paid: Mapping[str, int]
) -> bool:
    """Whether a hand entered after the fact can be settled.

    >>> can_settle_quick(1, 0, "Ann", {"Ann": 0, "Bob": 2, "Cy": 5}, {"Bob": 1})
    True
    """
    try:
        verify_quick_settlement(hand_number, dealer, winner, cards_left, paid)
    except PlayOrPayError:
        return False
    return True


def settle_quick(
    hand_number: int, dealer: int | str, winner: str, cards_left: Mapping[str, int], paid: Mapping[str, int]
) -> tuple[ChipEntry, ...]:
    """Quick mode: the table enters the winner, each player's cards left and chips paid; returns the chips moved.

    `dealer` is a seat number or a player's name.

    >>> entries = settle_quick(3, "Cy", "Ann", {"Ann": 0, "Bob": 2, "Cy": 5}, {"Bob": 1, "Ann": 2})
    >>> [(entry.player, entry.kind.value, entry.amount) for entry in entries]
    [('Ann', 'pay', -2), ('Bob', 'pay', -1), ('Bob', 'cards_left', -2), ('Cy', 'cards_left', -5), ('Ann', 'pot', 10)]
    """
    return verify_quick_settlement(hand_number, dealer, winner, cards_left, paid)


def settle(hand: HandState, winner: str, cards_left: Mapping[str, int], paid: Mapping[str, int]) -> HandState:
    """Quick mode on a hand not yet begun: the table enters who won, each player's cards left and chips paid.

    >>> over = settle(start_hand(["Ann", "Bob", "Cy"]), "Cy", {"Ann": 2, "Bob": 1, "Cy": 0}, {"Ann": 1})
    >>> over.finished, over.to_act, over.pot, over.paid
    (True, 'Cy', 4, (1, 0, 0))
    >>> settle(play(start_hand(["Ann", "Bob", "Cy"]), 1, "7H"), "Cy", {"Ann": 2, "Bob": 1, "Cy": 0}, {})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.play_or_pay.PlayOrPayError: hand 1 is being followed card by card, so it cannot be entered in quick mode; ...
    """
    if hand.finished:
        raise PlayOrPayError(f"hand {hand.hand} is over already, so it cannot be entered in quick mode")
    if hand.played or any(hand.paid):
        raise PlayOrPayError(
            f"hand {hand.hand} is being followed card by card, so it cannot be entered in quick mode; "
            "finish it, or undo its events first"
        )
    in_seat_order = {name: cards_left[name] for name in hand.players if name in cards_left}
    for name in cards_left:
        if name not in hand.players:
            raise PlayOrPayError(f'cards_left names "{name}", who is not a player at this table')
    if len(in_seat_order) < len(hand.players):
        missing = next(name for name in hand.players if name not in cards_left)
        raise PlayOrPayError(f"cards_left needs every player's cards; {missing} is missing")
    entries = verify_quick_settlement(hand.hand, hand.dealer, winner, in_seat_order, paid)
    seated = replace(
        hand,
        cards_left=tuple(in_seat_order[name] for name in hand.players),
        paid=tuple(paid.get(name, 0) for name in hand.players),
    )
    over = finish_hand(seated, hand.players.index(winner))
    assert over.settlement == entries  # one rule of settling, two ways in
    return over


# --- events: what a table reports, one at a time ----------------------------------------------------


class EventKind(Enum):
    """What a table can report: a card played, a chip paid, a hand entered after the fact, chips bought."""

    PLAY = "play"
    PAY = "pay"
    SETTLE = "settle"
    PURCHASE = "purchase"


@dataclass(frozen=True)
class Event:
    """One thing a table reports. `Event.parse` reads one from JSON, `to_json` writes it back.

    >>> event = Event.parse({"type": "play", "player": "Bob", "card": "10h"}, ["Ann", "Bob", "Cy"])
    >>> event
    PlayEvent(player='Bob', card=Card(rank=<Rank.TEN: 10>, suit=<Suit.HEARTS: 'H'>))
    >>> event.to_json()
    {'type': 'play', 'player': 'Bob', 'card': '10H'}
    >>> Event.parse({"type": "fold"}, ["Ann", "Bob", "Cy"])
    Traceback (most recent call last):
    ...
    engine.play_or_pay.EventError: type must be "play", "pay", "settle" or "purchase", not "fold"
    """

    kind: ClassVar[EventKind]
    fields: ClassVar[tuple[str, ...]]

    @staticmethod
    def parse(data: Mapping[str, object], players: Sequence[str], extra_fields: Collection[str] = ()) -> Event:
        """The event a JSON object describes, or EventError (CardError for a bad card) quoting the bad input.

        `extra_fields` are fields the caller reads itself (such as a version): allowed, and ignored here.
        """
        if not isinstance(data, Mapping):
            raise EventError(f'an event must be an object with a type, not "{data}"')
        given = data.get("type")
        kind = next((kind for kind in EventKind if kind.value == given), None)
        if kind is None:
            raise EventError(f'type must be "play", "pay", "settle" or "purchase", not "{given}"')
        event_class = _EVENT_CLASSES[kind]
        allowed = ("type", *event_class.fields, *extra_fields)
        unknown = sorted(str(name) for name in data if name not in allowed)
        if unknown:
            raise EventError(f'unknown field "{unknown[0]}"; a {kind.value} event has {", ".join(allowed)}')
        return event_class.from_fields(data, tuple(players))

    @classmethod
    def from_fields(cls, data: Mapping[str, object], players: tuple[str, ...]) -> Event:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The event as JSON: its type and its fields."""
        raise NotImplementedError


@dataclass(frozen=True)
class PlayEvent(Event):
    """A player played a card."""

    player: str
    card: Card
    kind: ClassVar[EventKind] = EventKind.PLAY
    fields: ClassVar[tuple[str, ...]] = ("player", "card")

    @classmethod
    def from_fields(cls, data: Mapping[str, object], players: tuple[str, ...]) -> PlayEvent:
        player = _named_player(players, data.get("player"), "player")
        card = data.get("card")
        if not isinstance(card, str):
            raise EventError(f'card must be a card such as "7H", not "{card}"')
        return cls(player, Card.parse(card))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind.value, "player": self.player, "card": str(self.card)}


@dataclass(frozen=True)
class PayEvent(Event):
    """A player paid a chip instead of playing the card needed.

    >>> PayEvent("Ann").to_json()
    {'type': 'pay', 'player': 'Ann'}
    """

    player: str
    kind: ClassVar[EventKind] = EventKind.PAY
    fields: ClassVar[tuple[str, ...]] = ("player",)

    @classmethod
    def from_fields(cls, data: Mapping[str, object], players: tuple[str, ...]) -> PayEvent:
        return cls(_named_player(players, data.get("player"), "player"))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind.value, "player": self.player}


@dataclass(frozen=True)
class SettleEvent(Event):
    """A hand entered after the fact (quick mode): the winner, every player's cards left, chips paid.

    `cards_left` names every player in seat order (the winner with 0); `paid` those the table entered.
    `replaces` is how many cards and chips already recorded in the hand the table agreed to replace
    (quick mode used midway); it must be all of them (`replaced_events`).

    >>> data = {"type": "settle", "winner": "Ann", "cards_left": {"Cy": 4, "Bob": 1}}
    >>> event = Event.parse(data, ["Ann", "Bob", "Cy"])
    >>> event.to_json()
    {'type': 'settle', 'winner': 'Ann', 'cards_left': {'Ann': 0, 'Bob': 1, 'Cy': 4}, 'paid': {}}
    >>> Event.parse({**data, "replaces": 2}, ["Ann", "Bob", "Cy"]).to_json()["replaces"]
    2
    """

    winner: str
    cards_left: tuple[tuple[str, int], ...]
    paid: tuple[tuple[str, int], ...] = ()
    replaces: int = 0
    kind: ClassVar[EventKind] = EventKind.SETTLE
    fields: ClassVar[tuple[str, ...]] = ("winner", "cards_left", "paid", "replaces")

    @classmethod
    def from_fields(cls, data: Mapping[str, object], players: tuple[str, ...]) -> SettleEvent:
        winner = _named_player(players, data.get("winner"), "winner")
        cards_left = {winner: 0, **_counts_by_player(players, data.get("cards_left"), "cards_left")}
        missing = [name for name in players if name not in cards_left]
        if missing:
            raise EventError(f"cards_left needs every player's cards; {missing[0]} is missing")
        paid = _counts_by_player(players, data.get("paid", {}), "paid")
        replaces = data.get("replaces", 0)
        if not _whole(replaces) or replaces < 0:
            raise EventError(f'replaces must be the number of events the hand entered replaces, not "{replaces}"')
        return cls(
            winner,
            tuple((name, cards_left[name]) for name in players),
            tuple((name, paid[name]) for name in players if name in paid),
            replaces,
        )

    def to_json(self) -> dict[str, Any]:
        data = {
            "type": self.kind.value,
            "winner": self.winner,
            "cards_left": dict(self.cards_left),
            "paid": dict(self.paid),
        }
        return {**data, "replaces": self.replaces} if self.replaces else data


@dataclass(frozen=True)
class PurchaseEvent(Event):
    """A player bought chips from the table, before the first hand or between hands (D17).

    >>> Event.parse({"type": "purchase", "player": "Cy", "chips": 0}, ["Ann", "Bob", "Cy"])
    Traceback (most recent call last):
    ...
    engine.play_or_pay.PurchaseError: a purchase must be a whole number of chips from 1 to 10000, not "0"
    """

    player: str
    chips: int
    kind: ClassVar[EventKind] = EventKind.PURCHASE
    fields: ClassVar[tuple[str, ...]] = ("player", "chips")

    @classmethod
    def from_fields(cls, data: Mapping[str, object], players: tuple[str, ...]) -> PurchaseEvent:
        return cls(_named_player(players, data.get("player"), "player"), verify_purchase_chips(data.get("chips")))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind.value, "player": self.player, "chips": self.chips}


_EVENT_CLASSES: dict[EventKind, type[Event]] = {
    EventKind.PLAY: PlayEvent,
    EventKind.PAY: PayEvent,
    EventKind.SETTLE: SettleEvent,
    EventKind.PURCHASE: PurchaseEvent,
}


def _named_player(players: Sequence[str], value: object, field_name: str) -> str:
    if not isinstance(value, str):
        raise EventError(f'{field_name} must be a player\'s name, not "{value}"')
    name = value.strip()
    if name not in players:
        raise EventError(f'"{name}" is not a player at this table')
    return name


def _counts_by_player(players: Sequence[str], value: object, field_name: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise EventError(f'{field_name} must be an object of counts by player name, not "{value}"')
    counts: dict[str, int] = {}
    for name, count in value.items():
        if name not in players:
            raise EventError(f'{field_name} names "{name}", who is not a player at this table')
        if not _whole(count):
            raise EventError(f'{field_name} must count whole numbers; {name} has "{count}"')
        counts[name] = count
    return counts


def verify_purchase_chips(chips: object) -> int:
    """A number of chips a player may buy at once, or PurchaseError.

    >>> verify_purchase_chips(50)
    50
    """
    if not _whole(chips) or not 1 <= chips <= MAX_CHIPS:
        raise PurchaseError(f'a purchase must be a whole number of chips from 1 to {MAX_CHIPS}, not "{chips}"')
    return chips


# --- a game: the events replayed --------------------------------------------------------------------


@dataclass(frozen=True)
class GameState:
    """A Play or Pay game rebuilt from its events.

    `hand` is the hand being played (or about to be dealt), `hands` those settled, `ledger` every chip
    movement of the settled hands, the starting stacks and the purchases. `hand_events` counts the
    cards and chips reported in the current hand; purchases happen between hands and do not count.
    """

    players: tuple[str, ...]
    stack: int
    first_dealer: int
    hand: HandState
    ledger: tuple[ChipEntry, ...]
    hands: tuple[HandState, ...] = ()
    events: tuple[Event, ...] = ()
    hand_events: int = 0

    @property
    def flags(self) -> tuple[Flag, ...]:
        """Every flag of the game so far, the hand being played included."""
        return tuple(flag for hand in (*self.hands, self.hand) for flag in hand.flags)

    @property
    def balances(self) -> dict[str, int]:
        """Chips each player holds now: the ledger, less what they paid in the hand being played."""
        return live_balances(self.ledger, self.hand)

    @property
    def settled_balances(self) -> dict[str, int]:
        """Chips each player holds after the settled hands."""
        return chip_balances(self.ledger, self.players)

    @property
    def bought(self) -> dict[str, int]:
        """Chips each player bought: the starting stack and every purchase."""
        return chips_bought(self.ledger, self.players)

    @property
    def results(self) -> dict[str, int]:
        """Each player's result (D17): chips held minus chips bought, over the settled hands; they sum to 0."""
        return chip_results(self.ledger, self.players)

    @property
    def between_hands(self) -> bool:
        """Whether no card or chip has been reported in the current hand, so chips may be bought."""
        return not self.hand.played and not any(self.hand.paid)


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

    >>> entries = buy_in_entries(["Ann", "Bob", "Cy"], 5) + settle_quick(1, 0, "Bob", {"Ann": 9, "Bob": 0, "Cy": 2}, {})
    >>> chip_results(entries, ["Ann", "Bob", "Cy"])
    {'Ann': -9, 'Bob': 11, 'Cy': -2}
    """
    held = chip_balances(entries, players)
    bought = chips_bought(entries, players)
    return {name: held[name] - bought[name] for name in players}


def start_game(players: Sequence[str], stack: int = DEFAULT_CHIPS, first_dealer: int = 0) -> GameState:
    """A new game: every player buys the starting stack, and the first hand is dealt.

    >>> game = start_game(["Ann", "Bob", "Cy"], 10, first_dealer=2)
    >>> game.balances, game.hand.to_act
    ({'Ann': 10, 'Bob': 10, 'Cy': 10}, 'Ann')
    """
    seated = verify_players(players)
    chips = verify_chips(stack)
    return GameState(seated, chips, first_dealer, start_hand(seated, first_dealer), buy_in_entries(seated, chips))


def verify_purchase(state: GameState, player: str, chips: object) -> None:
    """Raise PurchaseError unless the player may buy the chips now: before the first hand or between hands.

    >>> game = apply_event(start_game(["Ann", "Bob", "Cy"]), PlayEvent("Bob", Card.parse("7H")))
    >>> verify_purchase(game, "Ann", 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.play_or_pay.PurchaseError: Ann cannot buy "10" chips now: hand 1 is being played; chips are bought ...
    """
    if player not in state.players:
        raise PurchaseError(f'"{player}" is not a player at this table')
    verify_purchase_chips(chips)
    if not state.between_hands:
        raise PurchaseError(
            f'{player} cannot buy "{chips}" chips now: hand {state.hand.hand} is being played; '
            "chips are bought before the first hand or between hands"
        )


def can_purchase(state: GameState, player: str, chips: object) -> bool:
    """Whether the player may buy the chips now.

    >>> can_purchase(start_game(["Ann", "Bob", "Cy"]), "Cy", 5)
    True
    """
    try:
        verify_purchase(state, player, chips)
    except PlayOrPayError:
        return False
    return True


def purchase(state: GameState, player: str, chips: int) -> GameState:
    """The game after the player buys chips: a ledger entry for the hand about to be played.

    >>> game = purchase(start_game(["Ann", "Bob", "Cy"], 20), "Cy", 15)
    >>> game.balances, game.bought["Cy"], game.results["Cy"], game.ledger[-1].as_json()
    ({'Ann': 20, 'Bob': 20, 'Cy': 35}, 35, 0, {'hand': 1, 'player': 'Cy', 'kind': 'purchase', 'amount': 15})
    """
    return apply_event(state, PurchaseEvent(player, chips))


def _seat(state: GameState, player: str) -> int:
    if player not in state.players:
        raise EventError(f'"{player}" is not a player at this table')
    return state.players.index(player)


def _hand_after(hand: HandState, state: GameState, event: Event) -> HandState:
    if isinstance(event, PlayEvent):
        return play(hand, _seat(state, event.player), event.card)
    if isinstance(event, PayEvent):
        return pay(hand, _seat(state, event.player))
    if isinstance(event, SettleEvent):
        _seat(state, event.winner)
        return settle(replaced_events(state, event.replaces), event.winner, dict(event.cards_left), dict(event.paid))
    raise EventError(f'"{event}" is not a Play or Pay event')


def verify_replaces(state: GameState, replaces: object) -> int:
    """Raise PlayOrPayError unless `replaces` counts every card and chip recorded in the hand being played.

    Quick mode used midway replaces them all, and only after the table has agreed to it.

    >>> game = replay(["Ann", "Bob", "Cy"], 20, 0, [{"type": "play", "player": "Bob", "card": "7H"}])
    >>> verify_replaces(game, 1)
    1
    >>> verify_replaces(game, 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.play_or_pay.PlayOrPayError: hand 1 has 1 card or chip recorded; entering the hand in quick mode ...
    """
    recorded = state.hand_events
    if replaces == recorded:
        return recorded
    if not recorded:
        raise PlayOrPayError(f"hand {state.hand.hand} has no cards or chips recorded, so there is nothing to replace")
    what, them = ("1 card or chip", "it") if recorded == 1 else (f"{recorded} cards and chips", "them")
    if not replaces:
        raise PlayOrPayError(
            f"hand {state.hand.hand} has {what} recorded; entering the hand in quick mode replaces {them}, "
            f"so confirm replacing {them} first"
        )
    raise PlayOrPayError(
        f'hand {state.hand.hand} has {what} recorded, not "{replaces}"; another phone may have recorded more, '
        "so look at the hand again"
    )


def replaced_events(state: GameState, replaces: object) -> HandState:
    """The hand quick mode settles: as dealt when `replaces` (checked by verify_replaces) drops its events.

    >>> game = replay(["Ann", "Bob", "Cy"], 20, 0, [{"type": "play", "player": "Bob", "card": "7H"}])
    >>> replaced_events(game, 1) == start_hand(["Ann", "Bob", "Cy"])
    True
    """
    if not verify_replaces(state, replaces):
        return state.hand
    return start_hand(state.players, state.hand.dealer, state.hand.hand)


def apply_event(state: GameState, event: Event) -> GameState:
    """The game after one event; a hand that ends is settled into the ledger and the next one dealt.

    Raises IllegalPlay, PurchaseError or PlayOrPayError with the reason when the event is refused.

    >>> game = apply_event(start_game(["Ann", "Bob", "Cy"]), SettleEvent("Ann", (("Ann", 0), ("Bob", 3), ("Cy", 1))))
    >>> game.results, game.hand.hand, len(game.events)
    ({'Ann': 4, 'Bob': -3, 'Cy': -1}, 2, 1)
    """
    return replace(_applied(state, event), events=(*state.events, event))


def _applied(state: GameState, event: Event) -> GameState:
    """The game after the event, its list of events left as it was (`replay` sets it once, at the end)."""
    if isinstance(event, PurchaseEvent):
        verify_purchase(state, event.player, event.chips)
        entry = ChipEntry(state.hand.hand, event.player, ChipKind.PURCHASE, event.chips)
        return replace(state, ledger=(*state.ledger, entry))
    hand = _hand_after(state.hand, state, event)
    if not hand.finished:
        return replace(state, hand=hand, hand_events=state.hand_events + 1)
    return replace(
        state,
        hand=next_hand(hand),
        hands=(*state.hands, hand),
        ledger=state.ledger + hand.settlement,
        hand_events=0,
    )


def verify_event(state: GameState, event: Event) -> None:
    """Raise the reason (an EngineError) when the game cannot take the event now.

    >>> verify_event(start_game(["Ann", "Bob", "Cy"]), PayEvent("Bob"))
    Traceback (most recent call last):
    ...
    engine.play_or_pay.IllegalPlay: Bob cannot pay: no card is needed, so Bob leads a new sequence
    """
    apply_event(state, event)


def can_apply(state: GameState, event: Event) -> bool:
    """Whether the game can take the event now.

    >>> can_apply(start_game(["Ann", "Bob", "Cy"]), PlayEvent("Bob", Card.parse("2C")))
    True
    """
    try:
        verify_event(state, event)
    except EngineError:
        return False
    return True


def replay(
    players: Sequence[str],
    stack: int,
    first_dealer: int,
    events: Iterable[Event | Mapping[str, object]],
) -> GameState:
    """A game rebuilt from its events in order; each may be an Event or its JSON.

    >>> game = replay(["Ann", "Bob", "Cy"], 20, 0, [{"type": "purchase", "player": "Ann", "chips": 5},
    ...     {"type": "play", "player": "Bob", "card": "7H"}, {"type": "pay", "player": "Cy"}])
    >>> game.balances, game.hand.needed, game.hand_events
    ({'Ann': 25, 'Bob': 20, 'Cy': 19}, Card(rank=<Rank.EIGHT: 8>, suit=<Suit.HEARTS: 'H'>), 2)
    """
    state = start_game(players, stack, first_dealer)
    applied: list[Event] = []
    for event in events:
        parsed = event if isinstance(event, Event) else Event.parse(event, state.players)
        state = _applied(state, parsed)
        applied.append(parsed)
    return replace(state, events=tuple(applied))


def undo_last_event(state: GameState) -> GameState:
    """The game without its last event (a card, a chip, a quick-mode hand or a purchase).

    >>> game = purchase(start_game(["Ann", "Bob", "Cy"]), "Bob", 5)
    >>> undo_last_event(game) == start_game(["Ann", "Bob", "Cy"])
    True
    >>> undo_last_event(start_game(["Ann", "Bob", "Cy"]))
    Traceback (most recent call last):
    ...
    engine.play_or_pay.NothingToUndo: there is no event to undo yet
    """
    if not state.events:
        raise NothingToUndo("there is no event to undo yet")
    return replay(state.players, state.stack, state.first_dealer, state.events[:-1])


# --- the rules in words (the rules page) --------------------------------------------------------


@dataclass(frozen=True)
class RuleLine:
    """One rule of RULES.md section 7, as the rules page shows it."""

    title: str
    text: str


RULES_IN_SHORT: tuple[RuleLine, ...] = (
    RuleLine("Players", f"{MIN_PLAYERS} to {MAX_PLAYERS}."),
    RuleLine("Cards", f"One {DECK_SIZE}-card deck without jokers; no card is wild."),
    RuleLine(
        "The deal",
        "The whole deck is dealt, one card at a time, starting left of the dealer, "
        f"so the first {DECK_SIZE} mod n players from the dealer's left hold one card more.",
    ),
    RuleLine(
        "Chips",
        "Each player starts with the same stack of chips; chips may stand for money, and then players may "
        "buy more before the first hand or between hands. A balance may go below zero and is then shown as owed.",
    ),
    RuleLine(
        "Play or pay",
        "The player left of the dealer starts a sequence with any card. Each next player must play "
        "the next card of that suit (… Q, K, A, 2, …: King wraps to Ace) or pay 1 chip to the pot; "
        "play passes left.",
    ),
    RuleLine(
        "End of a sequence",
        "A sequence ends when the thirteenth card of its suit, the card just below the one that started it, "
        "is played. Whoever played it starts a new sequence with a card of a suit not yet played this hand.",
    ),
    RuleLine(
        "Going out",
        "The first player out of cards wins the hand: every other player pays 1 chip per card still held "
        "into the pot, and the winner collects the whole pot.",
    ),
    RuleLine("Next hand", "The deal passes left."),
)

COMPANION_RULES: tuple[RuleLine, ...] = (
    RuleLine(
        "Card by card",
        "The companion shows the card needed and whose turn it is, records “played” or “paid”, "
        "knows how many cards each player still holds, and settles the hand by itself when someone "
        "plays their last card.",
    ),
    RuleLine(
        "Quick mode",
        "A hand can instead be entered once it is over: who went out, each player's cards left "
        "and the chips each paid during play.",
    ),
    RuleLine(
        "Trusting the table",
        "The companion cannot see anyone's cards, so it takes what the table reports. "
        f"When every player has paid for the card needed, paying goes round again: all {DECK_SIZE} cards "
        "are dealt, so someone holds it.",
    ),
    RuleLine(
        "Flags",
        "A player who paid a chip for a card and later plays that same card in the hand is flagged: "
        "paying said they did not hold it. The flag is shown on the hand page; it moves no chips, "
        "the table decides what to do about it.",
    ),
    RuleLine(f"{DECISIONS['D17'].id} — {DECISIONS['D17'].title}", DECISIONS["D17"].text),
)
