"""Play or Pay (RULES.md section 7): a game of hands followed card by card (or settled in quick mode), and chips.

No balance is ever stored: a game is rebuilt from its stored events through the engine
(`engine.play_or_pay`) every time, so undoing an event keeps every balance consistent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from companion.errors import InvalidInput, NotFound
from companion.models import Game, GameEvent, utc_now
from companion.services.store import (
    HANDS_KIND,
    PRESETS,
    GameSummary,
    check_version,
    clean_players,
    commit,
    engine_call,
    is_whole,
    preset_kind,
    seat_of,
    store_new_game,
)
from engine import play_or_pay as pop
from engine.cards import Card, Rank, Suit
from engine.errors import EngineError

KIND = HANDS_KIND
PLAY_OR_PAY = "play-or-pay"
DEFAULT_CHIPS = pop.DEFAULT_CHIPS
MAX_CHIPS = pop.MAX_CHIPS
CHIPS_KEY = pop.CHIPS_OPTION.key
EVENT_KINDS = ("play", "pay", "settle")
EVENT_FIELDS = {
    "play": ("type", "player", "card", "version"),
    "pay": ("type", "player", "version"),
    "settle": ("type", "winner", "cards_left", "paid", "version"),
}
EVENTS_REFUSED = "only a Play or Pay game takes events; this game is played in rounds"


def is_play_or_pay(game: object) -> bool:
    """Whether a game (or a stand-in with its variant) is a Play or Pay game."""
    return preset_kind(getattr(game, "variant", None)) == KIND


def starting_chips(game: Game) -> int:
    """The stack each player of a Play or Pay game bought at the start."""
    return int((game.money or {}).get("chips", DEFAULT_CHIPS))


def create_play_or_pay(players: object, options: object, first_dealer: object) -> tuple[Game, str]:
    """Start a Play or Pay game: every player buys the starting stack of chips."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidInput("options must be an object; Play or Pay has one option, chips")
    unknown = sorted(set(options) - {"chips"})
    if unknown:
        raise InvalidInput(f'unknown option "{unknown[0]}"; Play or Pay has one option, chips')
    chips = options.get("chips", DEFAULT_CHIPS)
    if not is_whole(chips) or not 1 <= chips <= MAX_CHIPS:
        raise InvalidInput(
            f'option "chips" must be a whole number of chips from 1 to {MAX_CHIPS}, not "{chips}"'
        )
    names = clean_players(players, PRESETS[PLAY_OR_PAY])
    engine_call(pop.verify_players, names)
    engine_call(pop.buy_in_entries, names, chips)
    seat = seat_of(first_dealer, names)
    return store_new_game(PLAY_OR_PAY, {}, names, seat, {"chips": chips})


@dataclass(frozen=True)
class PlayerRow:
    """One line of the hand screen's table."""

    name: str
    dealt: int
    cards_left: int
    paid: int
    chips: int
    is_dealer: bool
    to_act: bool


@dataclass(frozen=True)
class Table:
    """A Play or Pay game rebuilt from its events: the hand being played, the hands settled, the chips."""

    id: str
    players: tuple[str, ...]
    stack: int
    first_dealer: int
    hand: pop.HandState
    hands: tuple[pop.HandState, ...]
    ledger: tuple[pop.ChipEntry, ...]
    events: int
    hand_events: int
    version: int
    created_at: datetime

    @property
    def name(self) -> str:
        return PRESETS[PLAY_OR_PAY].name

    @property
    def balances(self) -> dict[str, int]:
        """Chips each player holds now: the ledger, less what they paid in the hand being played."""
        return pop.live_balances(self.ledger, self.hand)

    @property
    def settled_balances(self) -> dict[str, int]:
        return pop.chip_balances(self.ledger, self.players)

    @property
    def dealt(self) -> tuple[int, ...]:
        return pop.deal_counts(self.players, self.hand.dealer)

    @property
    def flags(self) -> tuple[pop.Flag, ...]:
        return tuple(flag for hand in (*self.hands, self.hand) for flag in hand.flags)

    @property
    def last_hand(self) -> pop.HandState | None:
        return self.hands[-1] if self.hands else None

    @property
    def sequence_over(self) -> bool:
        """Whether a sequence has just ended this hand, so the player to act leads the next one."""
        return self.hand.is_lead and bool(self.hand.played)

    @property
    def lead_suits(self) -> tuple[Suit, ...]:
        """The suits a lead may be in: those not yet played this hand."""
        return tuple(suit for suit in Suit if suit not in self.hand.suits_played)

    @property
    def ranks(self) -> tuple[Rank, ...]:
        return tuple(Rank)

    def rows(self) -> list[PlayerRow]:
        balances = self.balances
        return [
            PlayerRow(
                name=name,
                dealt=self.dealt[seat],
                cards_left=self.hand.cards_left[seat],
                paid=self.hand.paid[seat],
                chips=balances[name],
                is_dealer=seat == self.hand.dealer,
                to_act=seat == self.hand.turn,
            )
            for seat, name in enumerate(self.players)
        ]

    def hand_json(self) -> dict[str, Any]:
        hand = self.hand
        return {
            "number": hand.hand,
            "dealer": self.players[hand.dealer],
            "turn": hand.to_act,
            "lead": hand.is_lead,
            "needed": None if hand.needed is None else str(hand.needed),
            "sequence_start": None if hand.sequence_start is None else str(hand.sequence_start),
            "suits_played": [suit.value for suit in hand.suits_played],
            "played": [str(card) for card in hand.played],
            "dealt": dict(zip(self.players, self.dealt, strict=True)),
            "cards_left": dict(zip(self.players, hand.cards_left, strict=True)),
            "paid": dict(zip(self.players, hand.paid, strict=True)),
            "pot": hand.pot,
        }

    def as_json(self) -> dict[str, Any]:
        """The game state of the API contract for Play or Pay."""
        return {
            "id": self.id,
            "variant": PLAY_OR_PAY,
            "options": {"chips": self.stack},
            "players": list(self.players),
            "first_dealer": self.players[self.first_dealer],
            "chips": self.balances,
            "hand": self.hand_json(),
            "hands": [hand_json(hand) for hand in self.hands],
            "flags": [flag_json(flag, self.players) for flag in self.flags],
            "ledger": [entry.as_json() for entry in self.ledger],
            "events": self.events,
            "finished": False,
            "version": self.version,
        }


def hand_json(hand: pop.HandState) -> dict[str, Any]:
    """A settled hand: its winner, and each player's chips won (+) or paid (-) in it."""
    return {
        "number": hand.hand,
        "dealer": hand.players[hand.dealer],
        "winner": None if hand.winner is None else hand.players[hand.winner],
        "quick": not hand.played,
        "payments": pop.chip_balances(hand.settlement, hand.players),
        "pot": hand.pot,
        "entries": [entry.as_json() for entry in hand.settlement],
    }


def flag_json(flag: pop.Flag, players: Sequence[str]) -> dict[str, Any]:
    return {"hand": flag.hand, "player": players[flag.seat], "card": str(flag.card), "message": flag.message}


def _apply(hand: pop.HandState, kind: str, data: Mapping[str, Any]) -> pop.HandState:
    """The hand after one event, through the engine (IllegalPlay or PlayOrPayError when refused)."""
    players = hand.players
    if kind == "play":
        return pop.play(hand, players.index(data["player"]), data["card"])
    if kind == "pay":
        return pop.pay(hand, players.index(data["player"]))
    if hand.played or any(hand.paid):
        raise pop.PlayOrPayError(
            f"hand {hand.hand} is being followed card by card, so it cannot be entered in quick mode; "
            "finish it, or undo its events first"
        )
    cards_left = {name: data["cards_left"][name] for name in players}
    paid = dict(data.get("paid") or {})
    entries = pop.settle_quick(hand.hand, hand.dealer, data["winner"], cards_left, paid)
    winner = players.index(data["winner"])
    collected = sum(entry.amount for entry in entries if entry.kind is pop.ChipKind.POT)
    return replace(
        hand,
        cards_left=tuple(cards_left[name] for name in players),
        paid=tuple(paid.get(name, 0) for name in players),
        finished=True,
        winner=winner,
        turn=winner,
        needed=None,
        pot=collected,
        settlement=entries,
    )


def table(game: Game, extra: tuple[str, dict[str, Any]] | None = None) -> Table:
    """Rebuild a Play or Pay game by replaying its events (and `extra`, a new one, if given)."""
    if not is_play_or_pay(game):
        raise InvalidInput(EVENTS_REFUSED)
    players = tuple(game.players)
    stack = starting_chips(game)
    ledger = list(engine_call(pop.buy_in_entries, players, stack))
    hand = engine_call(pop.start_hand, players, game.first_dealer, 1)
    hands: list[pop.HandState] = []
    hand_events = 0
    events = [(event.kind, event.data) for event in game.events]
    if extra is not None:
        events.append(extra)
    for kind, data in events:
        hand = engine_call(_apply, hand, kind, data)
        hand_events += 1
        if hand.finished:
            ledger.extend(hand.settlement)
            hands.append(hand)
            hand = pop.next_hand(hand)
            hand_events = 0
    return Table(
        id=game.id,
        players=players,
        stack=stack,
        first_dealer=game.first_dealer,
        hand=hand,
        hands=tuple(hands),
        ledger=tuple(ledger),
        events=len(events),
        hand_events=hand_events,
        version=game.version,
        created_at=game.created_at,
    )


def _player(players: Sequence[str], value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be a player's name")
    name = value.strip()
    if name not in players:
        raise InvalidInput(f'"{name}" is not a player at this table')
    return name


def _counts(players: Sequence[str], value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInput(f"{field} must be an object of counts by player name")
    for name in value:
        if name not in players:
            raise InvalidInput(f'{field} names "{name}", who is not a player at this table')
    return dict(value)


def parse_event(game: Game, body: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """An event from a request body: its kind and the data stored for it."""
    kind = body.get("type")
    if kind not in EVENT_KINDS:
        raise InvalidInput('type must be "play", "pay" or "settle"')
    fields = EVENT_FIELDS[str(kind)]
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise InvalidInput(f'unknown field "{unknown[0]}"; a {kind} event has {", ".join(fields)}')
    players = tuple(game.players)
    if kind == "pay":
        return "pay", {"player": _player(players, body.get("player"), "player")}
    if kind == "play":
        player = _player(players, body.get("player"), "player")
        card = body.get("card")
        if not isinstance(card, str):
            raise InvalidInput('card must be a card such as "7H"')
        return "play", {"player": player, "card": str(engine_call(Card.parse, card))}
    winner = _player(players, body.get("winner"), "winner")
    cards_left = _counts(players, body.get("cards_left"), "cards_left")
    cards_left.setdefault(winner, 0)
    missing = [name for name in players if name not in cards_left]
    if missing:
        raise InvalidInput(f"cards_left needs every player's cards; {missing[0]} is missing")
    paid = _counts(players, body.get("paid", {}), "paid")
    return "settle", {
        "winner": winner,
        "cards_left": {name: cards_left[name] for name in players},
        "paid": {name: paid[name] for name in players if name in paid},
    }


def add_event(game: Game, kind: str, data: dict[str, Any], expected_version: object = None) -> Table:
    """Record an event after the engine accepts it; nothing is stored when it is refused."""
    check_version(game, expected_version)
    after = table(game, (kind, data))
    game.events.append(GameEvent(number=len(game.events) + 1, kind=kind, data=data))
    game.updated_at = utc_now()
    commit()
    return after


def undo_last_event(game: Game, expected_version: object = None) -> None:
    """Take back the last event (a card, a chip, or a quick-mode hand)."""
    check_version(game, expected_version)
    table(game)  # refuses a game played in rounds
    if not game.events:
        raise NotFound("there is no event to undo yet")
    game.events.remove(game.events[-1])
    game.updated_at = utc_now()
    commit()


def summary(game: Game) -> GameSummary:
    """A Play or Pay line of the games list: the hands settled so far."""
    return GameSummary(
        id=game.id,
        name=PRESETS[PLAY_OR_PAY].name,
        variant=PLAY_OR_PAY,
        players=tuple(game.players),
        rounds_played=len(table(game).hands),
        total_rounds=0,
        finished=False,
        created_at=game.created_at,
    )


def state_json(game: Game) -> dict[str, Any]:
    """The API state of a Play or Pay game: hands and chips."""
    return table(game).as_json()


def format_chips(balance: int) -> str:
    return pop.format_chips(balance)


def card_symbol(card: object) -> str:
    """A card as the pages show it (10♥); the text itself if it is not a card."""
    try:
        return Card.parse(str(card)).symbol
    except EngineError:
        return str(card)
