"""Play or Pay (RULES.md section 7): dealing, a hand followed card by card, settling, and a chip ledger.

Players hold real cards, so the companion trusts what is reported; it knows only which cards
have been played, how many cards each player still holds, and who paid for which card.
Seats are numbered from 0 in clockwise order; "left" is the next seat.

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, TypeGuard

from engine.cards import Card, Rank, Suit
from engine.errors import CardError, EngineError

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
    "Flag",
    "HandState",
    "IllegalPlay",
    "PlayOrPayError",
    "RuleLine",
    "buy_in_entries",
    "can_next_hand",
    "can_pay",
    "can_play",
    "can_settle_quick",
    "chip_balances",
    "deal_counts",
    "deal_table",
    "format_chips",
    "live_balances",
    "next_card",
    "next_hand",
    "pay",
    "play",
    "settle_quick",
    "settlement_entries",
    "start_hand",
    "verify_chips",
    "verify_next_hand",
    "verify_pay",
    "verify_play",
    "verify_players",
    "verify_quick_settlement",
]

MIN_PLAYERS = 3
MAX_PLAYERS = 10
DECK_SIZE = 52
DEFAULT_CHIPS = 20
MAX_CHIPS = 10_000


class PlayOrPayError(EngineError):
    """A table, a seat, a buy-in or a quick settlement that Play or Pay cannot take."""


class IllegalPlay(PlayOrPayError):
    """A reported play or payment that breaks a rule; `code` is stable, the message is for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# --- chips ------------------------------------------------------------------------------------


class ChipKind(Enum):
    """Why chips moved."""

    BUY_IN = "buy_in"
    PAY = "pay"
    CARDS_LEFT = "cards_left"
    POT = "pot"


@dataclass(frozen=True)
class ChipEntry:
    """One movement of chips: `amount` is the change to the player's stack.

    Buy-ins and the pot a winner collects are positive; payments into the pot are negative.
    `hand` is None for buy-ins made before the first hand.
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
    "so chips only move between players, and a player who runs out goes below zero (owes).",
)


def verify_chips(stack: object) -> int:
    """A starting stack the table may choose, or PlayOrPayError.

    >>> verify_chips(30)
    30
    >>> verify_chips(0)
    Traceback (most recent call last):
    ...
    engine.play_or_pay.PlayOrPayError: the starting chips must be a whole number from 1 to 10000, not "0"
    """
    if not _whole(stack) or not CHIPS_OPTION.minimum <= stack <= CHIPS_OPTION.maximum:
        raise PlayOrPayError(
            f"the starting chips must be a whole number from {CHIPS_OPTION.minimum} to {CHIPS_OPTION.maximum}, "
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
        return _settled(moved, seat)
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


def _settled(state: HandState, winner: int) -> HandState:
    entries = settlement_entries(state.hand, state.players, winner, state.cards_left, state.paid)
    collected = sum(entry.amount for entry in entries if entry.kind is ChipKind.POT)
    return replace(state, finished=True, winner=winner, turn=winner, needed=None, pot=collected, settlement=entries)


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
        "Each player starts with the same stack of chips; chips may stand for money. "
        "A balance may go below zero and is then shown as owed.",
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
)
