"""Play or Pay (RULES.md section 7): a game of hands followed card by card (or settled in quick mode), and chips.

No balance is ever stored: a game is rebuilt from its stored events through the engine
(`engine.play_or_pay`) every time, so undoing an event keeps every balance consistent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from companion.errors import InvalidInput, NotFound
from companion.models import Game, GameEvent, utc_now
from companion.services import seating
from companion.services.store import (
    HANDS_KIND,
    POOL_KIND,
    PRESETS,
    GameSummary,
    check_version,
    choose_first_dealer,
    clean_players,
    commit,
    engine_call,
    is_whole,
    preset_kind,
    require_version,
    store_new_game,
)
from engine import play_or_pay as pop
from engine.cards import Card, Rank, Suit
from engine.deck import STANDARD_SUITS
from engine.errors import EngineError

KIND = HANDS_KIND
PLAY_OR_PAY = "play-or-pay"
DEFAULT_CHIPS = pop.DEFAULT_CHIPS
MAX_CHIPS = pop.MAX_CHIPS
CHIPS_KEY = pop.CHIPS_OPTION.key
EVENT_KINDS = ("play", "pay", "settle", "purchase")
STORED_KINDS = (*EVENT_KINDS, "join", "leave")
"""Events a game stores: those of play, and the players who join or leave (issue 27, through the players' route)."""
EVENTS_REFUSED = "only a Play or Pay game takes events; this game is played in rounds"
POOL_EVENTS_REFUSED = "only a Play or Pay game takes events; a pool rummy game takes deals, rejoins and a split"


def events_refused(game: object) -> str:
    """The sentence refusing Play or Pay's events on a game of another kind."""
    return POOL_EVENTS_REFUSED if preset_kind(getattr(game, "variant", None)) == POOL_KIND else EVENTS_REFUSED


ENDED = "the table has ended this game; undo to take the ending back first"


def is_play_or_pay(game: object) -> bool:
    """Whether a game (or a stand-in with its variant) is a Play or Pay game."""
    return preset_kind(getattr(game, "variant", None)) == KIND


def starting_chips(game: Game) -> int:
    """The stack each player of a Play or Pay game bought at the start."""
    return int((game.money or {}).get("chips", DEFAULT_CHIPS))


def create_play_or_pay(
    players: object,
    options: object,
    first_dealer: object,
    first_dealer_method: object = None,
    scorekeeper: object = None,
) -> tuple[Game, str]:
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
        raise InvalidInput(f'Starting chips: a whole number of chips from 1 to {MAX_CHIPS}, not "{chips}"')
    names = clean_players(players, PRESETS[PLAY_OR_PAY])
    engine_call(pop.verify_players, names)
    engine_call(pop.buy_in_entries, names, chips)
    seat, dealt_by = choose_first_dealer(PRESETS[PLAY_OR_PAY], names, first_dealer, first_dealer_method, scorekeeper)
    return store_new_game(PLAY_OR_PAY, {}, names, seat, {"chips": chips}, dealt_by)


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
class ResultRow:
    """A player's result at the end (D17): chips held minus chips bought."""

    name: str
    held: int
    bought: int
    result: int


@dataclass(frozen=True)
class Table:
    """A Play or Pay game as the pages and the API show it: the engine's game state (the hand being
    played, the hands settled, the chips), with the stored game's id, version and date."""

    id: str
    state: pop.GameState
    version: int
    created_at: datetime
    finished: bool = False
    player_changes: tuple[dict[str, Any], ...] = ()  # joins, leaves and renames (issue 27), in order

    @property
    def player_history(self) -> tuple[tuple[dict[str, Any], str], ...]:
        """The changes of players, the latest first, each with its words."""
        return tuple((change, seating.change_words(change)) for change in reversed(self.player_changes))

    @property
    def last_player_change(self) -> str | None:
        """The last change of players that stands, in words (the one an undo takes back)."""
        standing = [change for change in self.player_changes if not change.get("undone_at")]
        return seating.change_words(standing[-1]) if standing else None

    @property
    def name(self) -> str:
        return PRESETS[PLAY_OR_PAY].name

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    @property
    def stack(self) -> int:
        return self.state.stack

    @property
    def first_dealer(self) -> int:
        return self.state.first_dealer

    @property
    def hand(self) -> pop.HandState:
        return self.state.hand

    @property
    def hands(self) -> tuple[pop.HandState, ...]:
        return self.state.hands

    @property
    def ledger(self) -> tuple[pop.ChipEntry, ...]:
        return self.state.ledger

    @property
    def events(self) -> int:
        return len(self.state.events)

    @property
    def hand_events(self) -> int:
        return self.state.hand_events

    @property
    def balances(self) -> dict[str, int]:
        """Chips each player holds now: the ledger, less what they paid in the hand being played."""
        return self.state.balances

    @property
    def settled_balances(self) -> dict[str, int]:
        return self.state.settled_balances

    @property
    def dealt(self) -> tuple[int, ...]:
        return pop.deal_counts(self.players, self.hand.dealer)

    @property
    def flags(self) -> tuple[pop.Flag, ...]:
        return self.state.flags

    @property
    def bought(self) -> dict[str, int]:
        """Chips each player bought: the starting stack and every purchase (D17)."""
        return self.state.bought

    @property
    def results(self) -> dict[str, int]:
        """Each player's result (D17), from the engine: chips held minus chips bought; they sum to 0."""
        return self.state.results

    @property
    def between_hands(self) -> bool:
        """Whether no card or chip is reported in the hand being played, so chips may be bought."""
        return self.state.between_hands

    def result_rows(self) -> list[ResultRow]:
        """Each player's chips held, chips bought and result, for the final page and the sheet."""
        held = self.settled_balances
        return [ResultRow(name, held[name], self.bought[name], self.results[name]) for name in self.state.everyone]

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
        return tuple(suit for suit in STANDARD_SUITS if suit not in self.hand.suits_played)

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
            "first_dealer": (self.state.founders or self.players)[self.first_dealer],
            "chips": self.balances,
            "hand": self.hand_json(),
            "hands": [hand_json(hand) for hand in self.hands],
            "flags": [flag_json(flag, hand.players) for hand in (*self.hands, self.hand) for flag in hand.flags],
            "ledger": [entry.as_json() for entry in self.ledger],
            "events": self.events,
            "finished": self.finished,
            "bought": self.bought,
            "results": self.results,
            "version": self.version,
            **({"left": list(self.state.left)} if self.player_changes else {}),
            **({"player_changes": [changes_json(item) for item in self.player_changes]} if self.player_changes else {}),
        }


def changes_json(change: dict[str, Any]) -> dict[str, Any]:
    """A change of players for the API: its fields and its words."""
    return {**change, "words": seating.change_words(change)}


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


def table(game: Game, extra: tuple[str, dict[str, Any]] | None = None) -> Table:
    """Rebuild a Play or Pay game by replaying its events through the engine (and `extra`, a new one, if given)."""
    if not is_play_or_pay(game):
        raise InvalidInput(events_refused(game))
    events = [{"type": event.kind, **event.data} for event in game.events]
    if extra is not None:
        kind, data = extra
        events.append({"type": kind, **data})
    stack = starting_chips(game)
    state = engine_call(pop.replay, tuple(founders(game)), stack, game.first_dealer, events)
    return Table(
        id=game.id,
        state=state,
        version=game.version,
        created_at=game.created_at,
        finished=bool(game.finished),
        player_changes=tuple((game.seating or {}).get("changes", [])),
    )


def founders(game: Game) -> list[str]:
    """The players the game started with: its events are replayed from them (issue 27: `players`
    holds those at the table now, once someone joined or left)."""
    return list((game.seating or {}).get("founders") or game.players)


def parse_event(game: Game, body: Mapping[str, Any], kinds: Sequence[str] = EVENT_KINDS) -> tuple[str, dict[str, Any]]:
    """An event from a request body (engine.play_or_pay.Event.parse): its kind and the data stored for it.

    The app takes the events of play: a card, a chip, a hand in quick mode, and chips bought (D17).
    """
    if body.get("type") not in kinds:
        raise InvalidInput('type must be "play", "pay", "settle" or "purchase"')
    event = engine_call(pop.Event.parse, body, tuple(game.players), ("version",))
    data = event.to_json()
    return str(data.pop("type")), data


def record_event(game: Game, body: Mapping[str, Any], expected_version: object = None) -> Table:
    """Read an event from a request body (parse_event) and record it (add_event)."""
    kind, data = parse_event(game, body)
    return add_event(game, kind, data, expected_version)


def add_event(game: Game, kind: str, data: dict[str, Any], expected_version: object = None) -> Table:
    """Record an event after the engine accepts it; nothing is stored when it is refused."""
    check_version(game, expected_version)
    if game.finished:
        raise InvalidInput(ENDED)
    after = table(game, (kind, data))
    game.events.append(GameEvent(number=len(game.events) + 1, kind=kind, data=data))
    game.updated_at = utc_now()
    commit()
    return after


def undo_last_event(game: Game, expected_version: object = None) -> None:
    """Take back the last event (a card, a chip, a quick-mode hand or a purchase); on an ended game, the ending.

    The version the phone saw is required.
    """
    table(game)  # refuses a game played in rounds
    if game.finished:
        require_version(game, expected_version)
        game.finished = False
        game.updated_at = utc_now()
        commit()
        return
    if not game.events:
        raise NotFound("there is no event to undo yet")
    require_version(game, expected_version)
    last = game.events[-1]
    game.events.remove(last)
    if last.kind in SEAT_KINDS:  # a join or a leave undone: the table as it was, the change marked undone
        forget_seat_change(game, last.number)
    game.updated_at = utc_now()
    commit()


SEAT_KINDS = ("join", "leave")


def forget_seat_change(game: Game, event_number: int) -> None:
    """After the event of a join or a leave is taken back: `players` as the table is now, and the
    change marked undone in the list of changes of players."""
    game.players = list(table(game).players)
    changes = [
        {**change, "undone_at": utc_now().strftime("%Y-%m-%dT%H:%M:%SZ")}
        if change.get("event") == event_number and not change.get("undone_at")
        else change
        for change in (game.seating or {}).get("changes", [])
    ]
    game.seating = {**(game.seating or {}), "changes": changes}


def end_game(game: Game, expected_version: object = None) -> Table:
    """The table ends the game (D17): between hands only, so every chip is settled; the results are final."""
    check_version(game, expected_version)
    now = table(game)
    if game.finished:
        raise InvalidInput("the table has already ended this game")
    if not now.between_hands:
        raise InvalidInput(
            f"hand {now.hand.hand} is being played; settle it or undo its cards and chips before ending the game"
        )
    game.finished = True
    game.updated_at = utc_now()
    commit()
    return table(game)


def balances_after_hands(game: Game) -> list[dict[str, int]]:
    """Each player's chips after each settled hand, from the ledger (chips bought before a hand count in it)."""
    now = table(game)
    return [
        pop.chip_balances(
            [entry for entry in now.ledger if entry.hand is None or entry.hand <= hand.hand], now.state.everyone
        )
        for hand in now.hands
    ]


@dataclass(frozen=True)
class TallyHand:
    """A settled hand as the chip tally prints it: chips each player paid, balances after it, pot, who went out."""

    number: int
    winner: str
    pot: int
    paid: dict[str, int]
    balance: dict[str, int]
    quick: bool
    bought: dict[str, int] = field(default_factory=dict)  # chips bought before this hand, so each row adds up


@dataclass(frozen=True)
class Tally:
    """What a game's chip tally fills in: the starting stack, the date, and the hands played (from the engine)."""

    stack: int
    date: str
    hands: list[TallyHand]
    finished: bool


def tally(game: Game) -> Tally:
    """The hands played so far, for the chip tally (sheet and PDF); paid counts every chip a player put in the pot."""
    now = table(game)
    balances = balances_after_hands(game)
    hands = [
        TallyHand(
            number=hand.hand,
            winner=hand.players[hand.winner] if hand.winner is not None else "",
            pot=hand.pot,
            paid={
                name: -sum(entry.amount for entry in hand.settlement if entry.player == name and entry.amount < 0)
                for name in now.state.everyone
            },
            balance=after,
            quick=not hand.played,
            bought={
                name: sum(
                    entry.amount
                    for entry in now.ledger
                    if entry.kind is pop.ChipKind.PURCHASE and entry.hand == hand.hand and entry.player == name
                )
                for name in now.state.everyone
            },
        )
        for hand, after in zip(now.hands, balances, strict=True)
    ]
    return Tally(now.stack, game.created_at.date().isoformat(), hands, bool(game.finished))


def final_results(game: Game) -> list[ResultRow] | None:
    """Each player's result once the table has ended the game (the sheet shows them); None before."""
    return table(game).result_rows() if game.finished else None


def summary(game: Game) -> GameSummary:
    """A Play or Pay line of the games list: the hands settled so far."""
    return GameSummary(
        id=game.id,
        name=PRESETS[PLAY_OR_PAY].name,
        variant=PLAY_OR_PAY,
        players=tuple(game.players),
        rounds_played=len(table(game).hands),
        total_rounds=0,
        finished=bool(game.finished),
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
