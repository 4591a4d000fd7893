"""One hand of Play or Pay, followed card by card (`play`, `pay`) or entered after the fact (`settle`).

Each move is `verify_x` (raises the reason), `can_x` (a bool) and `x` (the hand after it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card, Suit, verify_in_deck
from engine.deck import STANDARD
from engine.errors import CardError
from engine.play_or_pay.chips import ChipEntry, ChipKind
from engine.play_or_pay.errors import IllegalPlay, PlayOrPayError
from engine.play_or_pay.table import _not_whole, _verify_seat, _whole, deal_counts, next_card, verify_players


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
    engine.play_or_pay.errors.IllegalPlay: hand 3 cannot be followed by the next one: it is not over yet
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
    played = Card.parse(card) if isinstance(card, str) else card
    verify_in_deck((played,), STANDARD, "Play or Pay")  # one 52-card deck: no stars
    return played


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
    engine.play_or_pay.errors.IllegalPlay: Cy cannot play "JD": the card needed is 10D
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
    engine.play_or_pay.errors.IllegalPlay: Bob cannot pay: no card is needed, so Bob leads a new sequence
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
    engine.play_or_pay.errors.PlayOrPayError: Bob won the hand, so Bob has 0 cards left, not "1"
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
    engine.play_or_pay.errors.PlayOrPayError: hand 1 is being followed card by card, so it cannot be entered ...
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
