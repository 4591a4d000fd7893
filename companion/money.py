"""Money at the table: the 3-13 pot (RULES.md section 6) and Play or Pay chips (section 7).

Services for the pages and the API, beside `services`. No balance is ever stored: a pot's ledger
is rebuilt from the stored rounds (ante, each round's second discards and knock, the end-of-game
payouts) and a Play or Pay game from its stored events, both through the engine (`engine.pot`,
`engine.play_or_pay`) every time. Undoing or correcting a round, or undoing an event, therefore
keeps every balance consistent.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TypeVar

from companion import services
from companion.extensions import db
from companion.models import Game, GameEvent, utc_now
from engine import play_or_pay as pop
from engine import pot as pots
from engine.cards import Card, Rank, Suit
from engine.errors import EngineError
from engine.rules import PRESETS, Preset

PLAY_OR_PAY = "play-or-pay"
POT_KEYS = ("pot", "ante", "second_discard", "knock", "booby_cap")
AMOUNT_KEYS = POT_KEYS[1:]
SIMPLE_KEYS = ("ante",)
AMOUNT_TITLES = {
    "ante": "Ante, each player (cents)",
    "second_discard": "Second discard (cents)",
    "knock": "Knock payout (cents)",
    "booby_cap": "Booby prize cap (cents)",
}
MAX_CENTS = 100_000
MAX_PICKUPS = 99
DEFAULT_CHIPS = pop.DEFAULT_CHIPS
MAX_CHIPS = pop.MAX_CHIPS
EVENT_KINDS = ("play", "pay", "settle")
EVENT_FIELDS = {
    "play": ("type", "player", "card", "version"),
    "pay": ("type", "player", "version"),
    "settle": ("type", "winner", "cards_left", "paid", "version"),
}
ROUNDS_REFUSED = "Play or Pay is played in hands, not rounds"
EVENTS_REFUSED = "only a Play or Pay game takes events; this game is played in rounds"

_T = TypeVar("_T")


def _engine(call: Callable[..., _T], *args: Any) -> _T:
    """Call the engine; its errors become InvalidInput with the engine's own sentence."""
    try:
        return call(*args)
    except EngineError as error:
        raise services.InvalidInput(str(error)) from error


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ================================================================ the pot


def has_full_pot(variant: object) -> bool:
    """Whether the preset is played for the full 3-13 pot (ante, second discards, knocks, booby prize)."""
    preset = PRESETS.get(variant) if isinstance(variant, str) else None
    return preset is not None and preset.money == "pot"


def pot_defaults(variant: str) -> dict[str, Any]:
    """The pot options a new game of the preset starts from: on for 3-13, a simple pot offered elsewhere."""
    if has_full_pot(variant):
        settings = pots.PotSettings()
        return {"pot": True, **{key: getattr(settings, key) for key in AMOUNT_KEYS}}
    return {"pot": False, "ante": pots.PotSettings.simple().ante}


def split_options(variant: object, options: object) -> tuple[object, dict[str, Any] | None]:
    """Separate the pot options from the rule options: (rule options, the pot's stored settings or None)."""
    if options is not None and not isinstance(options, dict):
        return options, None  # services refuses it
    given = {key: value for key, value in (options or {}).items() if key in POT_KEYS}
    rule_options = None if options is None else {k: v for k, v in options.items() if k not in POT_KEYS}
    if not isinstance(variant, str) or variant not in PRESETS or variant == PLAY_OR_PAY:
        return rule_options, None
    return rule_options, pot_options(variant, given)


def pot_options(variant: str, given: Mapping[str, object]) -> dict[str, Any] | None:
    """Validated pot settings for a new game, or None when the game has no pot."""
    full = has_full_pot(variant)
    switched_on = given.get("pot", full)
    if not isinstance(switched_on, bool):
        raise services.InvalidInput(f'option "pot" must be true or false, not "{switched_on}"')
    allowed = AMOUNT_KEYS if full else SIMPLE_KEYS
    for key in AMOUNT_KEYS:
        if key not in given:
            continue
        if key not in allowed:
            raise services.InvalidInput(
                f'option "{key}" belongs to the 3-13 pot; this game can have a simple pot: an ante, '
                "and the lowest total takes it all"
            )
        value = given[key]
        if not _whole(value) or not 0 <= value <= MAX_CENTS:  # type: ignore[operator]
            raise services.InvalidInput(
                f'option "{key}" must be a whole number of cents from 0 to {MAX_CENTS}, not "{value}"'
            )
    if not switched_on:
        return None
    stored = {**pot_defaults(variant), **{key: given[key] for key in allowed if key in given}, "pot": True}
    settings_of(stored)  # the engine checks the amounts too
    return stored


def settings_of(stored: Mapping[str, Any]) -> pots.PotSettings:
    """The engine's pot settings for a game's stored pot options."""
    if set(stored) <= {"pot", *SIMPLE_KEYS}:
        return _engine(pots.PotSettings.simple, stored["ante"])
    return _engine(
        pots.PotSettings,
        stored["ante"],
        stored.get("second_discard", 0),
        stored.get("knock", 0),
        pots.PotSettings().booby_share,
        stored.get("booby_cap", 0),
    )


def has_pot(game: Game) -> bool:
    return bool(game.money and game.money.get("pot"))


def state_options(game: Game, rule_options: dict[str, Any]) -> dict[str, Any]:
    """The options of a game's state: the rule options, plus the pot's when it has one."""
    return {**rule_options, **(game.money or {})} if has_pot(game) else rule_options


@dataclass(frozen=True)
class LedgerSection:
    """The ledger entries of one stage (the ante, a round, the end) and the pot after it."""

    title: str
    round: int | None
    entries: tuple[pots.LedgerEntry, ...]
    balance_after: int


@dataclass(frozen=True)
class PotView:
    """A game's pot, rebuilt from its rounds through the engine."""

    options: dict[str, Any]
    simple: bool
    players: tuple[str, ...]
    entries: tuple[pots.LedgerEntry, ...]
    balance: int
    net: dict[str, int]
    sections: tuple[LedgerSection, ...]
    knocks: dict[int, int]
    pickups: dict[int, dict[str, int]]
    paid_out: bool

    def as_json(self) -> dict[str, Any]:
        return pots.ledger_json(self.entries, self.players)

    def amount_rows(self) -> list[tuple[str, int]]:
        titles = {key: title.removesuffix(" (cents)") for key, title in AMOUNT_TITLES.items()}
        return [(titles[key], self.options[key]) for key in AMOUNT_KEYS if key in self.options]


def pot_view(game: Game, totals: Mapping[str, int], finished: bool) -> PotView | None:
    """The game's pot: ante, each stored round's entries, and the payouts once the game is over."""
    if not has_pot(game) or game.money is None:
        return None
    settings = settings_of(game.money)
    players = tuple(game.players)
    pot = _engine(pots.start_pot, players, settings)
    sections = [LedgerSection("Ante", None, pot.entries, pot.balance)]
    pickups: dict[int, dict[str, int]] = {}
    for stored in game.rounds:
        before = len(pot.entries)
        counts = dict(stored.second_discards or {})
        pot = _engine(pots.record_round, pot, stored.number, counts, stored.went_out)
        pickups[stored.number] = counts
        sections.append(LedgerSection(f"Round {stored.number}", stored.number, pot.entries[before:], pot.balance))
    if finished:
        before = len(pot.entries)
        pot = _engine(pots.finish_game, pot, dict(totals))
        sections.append(LedgerSection("End of the game", None, pot.entries[before:], pot.balance))
    knocks = {
        entry.round: -entry.amount
        for entry in pot.entries
        if entry.kind is pots.EntryKind.KNOCK and entry.round is not None
    }
    return PotView(
        options=dict(game.money),
        simple=settings.is_simple,
        players=players,
        entries=pot.entries,
        balance=pot.balance,
        net=pots.net(pot.entries, players),
        sections=tuple(sections),
        knocks=knocks,
        pickups=pickups,
        paid_out=pot.finished,
    )


def verify_second_discards(game: Game, value: object) -> dict[str, int] | None:
    """A round's second-discard pickups by player (zeros left out), or None for a game without a pot."""
    if value is None:
        return {} if has_pot(game) else None
    if not isinstance(value, dict):
        raise services.InvalidInput("second_discards must be an object of counts by player name")
    counts: dict[str, int] = {}
    for name, count in value.items():
        if name not in game.players:
            raise services.InvalidInput(f'"{name}" took a second discard but is not a player in this game')
        if not _whole(count) or not 0 <= count <= MAX_PICKUPS:
            raise services.InvalidInput(
                f'{name} cannot have taken the second discard "{count}" times (a whole number from 0 to {MAX_PICKUPS})'
            )
        if count:
            counts[name] = count
    if not has_pot(game):
        if counts:
            raise services.InvalidInput("this game has no pot, so second discards are not counted")
        return None
    if counts and game.money is not None and settings_of(game.money).is_simple:
        raise services.InvalidInput("this game has a simple pot: second discards cost nothing and are not counted")
    return {name: counts[name] for name in game.players if name in counts}


def verify_rounds(game: Game) -> None:
    """Refuse round writes on a Play or Pay game."""
    if game.variant == PLAY_OR_PAY:
        raise services.InvalidInput(ROUNDS_REFUSED)


# ================================================================ Play or Pay


def is_play_or_pay(game: Game) -> bool:
    return game.variant == PLAY_OR_PAY


def starting_chips(game: Game) -> int:
    """The stack each player of a Play or Pay game bought at the start."""
    return int((game.money or {}).get("chips", DEFAULT_CHIPS))


def create_play_or_pay(players: object, options: object, first_dealer: object) -> tuple[Game, str]:
    """Start a Play or Pay game: every player buys the starting stack of chips."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise services.InvalidInput("options must be an object; Play or Pay has one option, chips")
    unknown = sorted(set(options) - {"chips"})
    if unknown:
        raise services.InvalidInput(f'unknown option "{unknown[0]}"; Play or Pay has one option, chips')
    chips = options.get("chips", DEFAULT_CHIPS)
    if not _whole(chips) or not 1 <= chips <= MAX_CHIPS:
        raise services.InvalidInput(
            f'option "chips" must be a whole number of chips from 1 to {MAX_CHIPS}, not "{chips}"'
        )
    names = services.clean_players(players, PRESETS[PLAY_OR_PAY])
    _engine(pop.verify_players, names)
    _engine(pop.buy_in_entries, names, chips)
    seat = services._seat_of(first_dealer, names)
    key = secrets.token_urlsafe(24)
    game = Game(
        id=secrets.token_urlsafe(12),
        variant=PLAY_OR_PAY,
        options={},
        money={"chips": chips},
        players=names,
        first_dealer=seat,
        edit_key_hash=services._hash_key(key),
        finished=False,
    )
    db.session.add(game)
    services._commit()
    return game, key


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


@dataclass(frozen=True)
class RulesView:
    """The Play or Pay rules page, with a game's (or the query's) starting chips; every fact from the engine."""

    preset: Preset
    rules: tuple[pop.RuleLine, ...]
    deal: tuple[pop.DealRow, ...]
    chips_option: pop.ChipsOption
    chips: int
    players: int | None
    companion: tuple[pop.RuleLine, ...]

    @property
    def chips_changed(self) -> bool:
        return self.chips != self.chips_option.default


def rules_view(chips: object = None, players: int | None = None) -> RulesView:
    """The rules page of Play or Pay; `chips` is the starting stack (a number, or the query's text)."""
    stack = pop.DEFAULT_CHIPS
    if isinstance(chips, str):
        text = chips.strip()
        if text:
            stack = _engine(pop.verify_chips, int(text) if text.isascii() and text.isdecimal() else text[:20])
    elif chips is not None:
        stack = _engine(pop.verify_chips, chips)
    return RulesView(
        preset=PRESETS[PLAY_OR_PAY],
        rules=pop.RULES_IN_SHORT,
        deal=pop.deal_table(),
        chips_option=pop.CHIPS_OPTION,
        chips=stack,
        players=players,
        companion=pop.COMPANION_RULES,
    )


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
        raise services.InvalidInput(EVENTS_REFUSED)
    players = tuple(game.players)
    stack = starting_chips(game)
    ledger = list(_engine(pop.buy_in_entries, players, stack))
    hand = _engine(pop.start_hand, players, game.first_dealer, 1)
    hands: list[pop.HandState] = []
    hand_events = 0
    events = [(event.kind, event.data) for event in game.events]
    if extra is not None:
        events.append(extra)
    for kind, data in events:
        hand = _engine(_apply, hand, kind, data)
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
        raise services.InvalidInput(f"{field} must be a player's name")
    name = value.strip()
    if name not in players:
        raise services.InvalidInput(f'"{name}" is not a player at this table')
    return name


def _counts(players: Sequence[str], value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise services.InvalidInput(f"{field} must be an object of counts by player name")
    for name in value:
        if name not in players:
            raise services.InvalidInput(f'{field} names "{name}", who is not a player at this table')
    return dict(value)


def parse_event(game: Game, body: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """An event from a request body: its kind and the data stored for it."""
    kind = body.get("type")
    if kind not in EVENT_KINDS:
        raise services.InvalidInput('type must be "play", "pay" or "settle"')
    fields = EVENT_FIELDS[str(kind)]
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise services.InvalidInput(f'unknown field "{unknown[0]}"; a {kind} event has {", ".join(fields)}')
    players = tuple(game.players)
    if kind == "pay":
        return "pay", {"player": _player(players, body.get("player"), "player")}
    if kind == "play":
        player = _player(players, body.get("player"), "player")
        card = body.get("card")
        if not isinstance(card, str):
            raise services.InvalidInput('card must be a card such as "7H"')
        return "play", {"player": player, "card": str(_engine(Card.parse, card))}
    winner = _player(players, body.get("winner"), "winner")
    cards_left = _counts(players, body.get("cards_left"), "cards_left")
    cards_left.setdefault(winner, 0)
    missing = [name for name in players if name not in cards_left]
    if missing:
        raise services.InvalidInput(f"cards_left needs every player's cards; {missing[0]} is missing")
    paid = _counts(players, body.get("paid", {}), "paid")
    return "settle", {
        "winner": winner,
        "cards_left": {name: cards_left[name] for name in players},
        "paid": {name: paid[name] for name in players if name in paid},
    }


def add_event(game: Game, kind: str, data: dict[str, Any], expected_version: object = None) -> Table:
    """Record an event after the engine accepts it; nothing is stored when it is refused."""
    services._check_version(game, expected_version)
    after = table(game, (kind, data))
    game.events.append(GameEvent(number=len(game.events) + 1, kind=kind, data=data))
    game.updated_at = utc_now()
    services._commit()
    return after


def undo_last_event(game: Game, expected_version: object = None) -> None:
    """Take back the last event (a card, a chip, or a quick-mode hand)."""
    services._check_version(game, expected_version)
    table(game)  # refuses a game played in rounds
    if not game.events:
        raise services.NotFound("there is no event to undo yet")
    game.events.remove(game.events[-1])
    game.updated_at = utc_now()
    services._commit()


def summary(game: Game) -> services.GameSummary:
    """A Play or Pay line of the games list: the hands settled so far."""
    return services.GameSummary(
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
    """The API state of any game: rounds and totals (with the pot) for rummy, hands and chips for Play or Pay."""
    if is_play_or_pay(game):
        return table(game).as_json()
    return services.build_view(game).as_json()


def format_cents(amount: int) -> str:
    return pots.format_cents(amount)


def format_chips(balance: int) -> str:
    return pop.format_chips(balance)


def card_symbol(card: object) -> str:
    """A card as the pages show it (10♥); the text itself if it is not a card."""
    try:
        return Card.parse(str(card)).symbol
    except EngineError:
        return str(card)
