"""What a Play or Pay table reports, one event at a time: `Event.parse` reads one from JSON, `to_json` writes it."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from engine.cards import Card, verify_in_deck
from engine.deck import STANDARD
from engine.play_or_pay.chips import verify_purchase_chips
from engine.play_or_pay.errors import EventError
from engine.play_or_pay.table import _whole


class EventKind(Enum):
    """What a table can report: a card played, a chip paid, a hand entered after the fact, chips bought."""

    PLAY = "play"
    PAY = "pay"
    SETTLE = "settle"
    PURCHASE = "purchase"
    JOIN = "join"
    LEAVE = "leave"


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
    engine.play_or_pay.errors.EventError: type must be "play", "pay", "settle" or "purchase", not "fold"
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
        played = Card.parse(card)
        verify_in_deck((played,), STANDARD, "Play or Pay")  # one 52-card deck: no stars
        return cls(player, played)

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
    engine.play_or_pay.errors.PurchaseError: a purchase must be a whole number of chips from 1 to 10000, not "0"
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


@dataclass(frozen=True)
class JoinEvent(Event):
    """A late player sat down between hands (issue 27), left of the dealer of the hand about to be dealt.

    >>> Event.parse({"type": "join", "player": " Eve "}, ["Ann", "Bob", "Cy"])
    JoinEvent(player='Eve')
    """

    player: str
    kind: ClassVar[EventKind] = EventKind.JOIN
    fields: ClassVar[tuple[str, ...]] = ("player",)

    @classmethod
    def from_fields(cls, data: Mapping[str, object], players: tuple[str, ...]) -> JoinEvent:
        value = data.get("player")
        if not isinstance(value, str) or not value.strip():
            raise EventError(f'player must be the new player\'s name, not "{value}"')
        return cls(value.strip())

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind.value, "player": self.player}


@dataclass(frozen=True)
class LeaveEvent(Event):
    """A player left the table between hands (issue 27); their chips and result stay theirs.

    >>> Event.parse({"type": "leave", "player": "Zed"}, ["Ann", "Bob", "Cy"])
    Traceback (most recent call last):
    ...
    engine.play_or_pay.errors.EventError: "Zed" is not a player at this table
    """

    player: str
    kind: ClassVar[EventKind] = EventKind.LEAVE
    fields: ClassVar[tuple[str, ...]] = ("player",)

    @classmethod
    def from_fields(cls, data: Mapping[str, object], players: tuple[str, ...]) -> LeaveEvent:
        return cls(_named_player(players, data.get("player"), "player"))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind.value, "player": self.player}


_EVENT_CLASSES: dict[EventKind, type[Event]] = {
    EventKind.PLAY: PlayEvent,
    EventKind.PAY: PayEvent,
    EventKind.SETTLE: SettleEvent,
    EventKind.PURCHASE: PurchaseEvent,
    EventKind.JOIN: JoinEvent,
    EventKind.LEAVE: LeaveEvent,
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
