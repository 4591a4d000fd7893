"""A Play or Pay game: its events replayed in order into a `GameState` (hands, ledger, flags)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.errors import EngineError
from engine.play_or_pay import seating
from engine.play_or_pay.chips import (
    ChipEntry,
    ChipKind,
    buy_in_entries,
    chip_balances,
    chip_results,
    chips_bought,
    live_balances,
    verify_chips,
    verify_purchase_chips,
)
from engine.play_or_pay.errors import EventError, NothingToUndo, PlayOrPayError, PurchaseError
from engine.play_or_pay.events import Event, JoinEvent, LeaveEvent, PayEvent, PlayEvent, PurchaseEvent, SettleEvent
from engine.play_or_pay.hand import Flag, HandState, next_hand, pay, play, settle, start_hand
from engine.play_or_pay.table import DEFAULT_CHIPS, verify_players


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
    left: tuple[str, ...] = ()  # players who left the table between hands (issue 27)
    founders: tuple[str, ...] = ()  # the players the game started with, for replaying it

    @property
    def everyone(self) -> tuple[str, ...]:
        """The players at the table now, then those who left: the ledger names them all."""
        return self.players + self.left

    @property
    def flags(self) -> tuple[Flag, ...]:
        """Every flag of the game so far, the hand being played included."""
        return tuple(flag for hand in (*self.hands, self.hand) for flag in hand.flags)

    @property
    def balances(self) -> dict[str, int]:
        """Chips each player holds now: the ledger, less what they paid in the hand being played."""
        return live_balances(self.ledger, self.hand, self.everyone)

    @property
    def settled_balances(self) -> dict[str, int]:
        """Chips each player holds after the settled hands."""
        return chip_balances(self.ledger, self.everyone)

    @property
    def bought(self) -> dict[str, int]:
        """Chips each player bought: the starting stack and every purchase."""
        return chips_bought(self.ledger, self.everyone)

    @property
    def results(self) -> dict[str, int]:
        """Each player's result (D17): chips held minus chips bought, over the settled hands; they sum to 0."""
        return chip_results(self.ledger, self.everyone)

    @property
    def between_hands(self) -> bool:
        """Whether no card or chip has been reported in the current hand, so chips may be bought."""
        return not self.hand.played and not any(self.hand.paid)


def start_game(players: Sequence[str], stack: int = DEFAULT_CHIPS, first_dealer: int = 0) -> GameState:
    """A new game: every player buys the starting stack, and the first hand is dealt.

    >>> game = start_game(["Ann", "Bob", "Cy"], 10, first_dealer=2)
    >>> game.balances, game.hand.to_act
    ({'Ann': 10, 'Bob': 10, 'Cy': 10}, 'Ann')
    """
    seated = verify_players(players)
    chips = verify_chips(stack)
    return GameState(
        seated, chips, first_dealer, start_hand(seated, first_dealer), buy_in_entries(seated, chips), founders=seated
    )


def verify_purchase(state: GameState, player: str, chips: object) -> None:
    """Raise PurchaseError unless the player may buy the chips now: before the first hand or between hands.

    >>> from engine.cards import Card
    >>> game = apply_event(start_game(["Ann", "Bob", "Cy"]), PlayEvent("Bob", Card.parse("7H")))
    >>> verify_purchase(game, "Ann", 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.play_or_pay.errors.PurchaseError: Ann cannot buy "10" chips now: hand 1 is being played; chips are bought ...
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
    engine.play_or_pay.errors.PlayOrPayError: hand 1 has 1 card or chip recorded; entering the hand in quick mode ...
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
    if isinstance(event, JoinEvent):
        return seating.join(state, event.player)
    if isinstance(event, LeaveEvent):
        return seating.leave(state, event.player)
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
    engine.play_or_pay.errors.IllegalPlay: Bob cannot pay: no card is needed, so Bob leads a new sequence
    """
    apply_event(state, event)


def can_apply(state: GameState, event: Event) -> bool:
    """Whether the game can take the event now.

    >>> from engine.cards import Card
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
    engine.play_or_pay.errors.NothingToUndo: there is no event to undo yet
    """
    if not state.events:
        raise NothingToUndo("there is no event to undo yet")
    return replay(state.founders or state.players, state.stack, state.first_dealer, state.events[:-1])
