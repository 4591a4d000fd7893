"""The money of games played in rounds: the 3-13 pot (RULES.md section 6) and the simple pot of other presets.

No balance is ever stored: a pot's ledger is rebuilt from the stored rounds (ante, each round's
second discards and knock, the end-of-game payouts) through the engine (`engine.pot`) every time.
Undoing or correcting a round therefore keeps every balance consistent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidInput
from companion.models import Game
from companion.services import seating
from companion.services.store import PRESETS, ROUNDS_KIND, engine_call, is_whole, preset_kind
from engine import pot as pots

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
EntryKind = pots.EntryKind


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
    if not isinstance(variant, str) or preset_kind(variant) != ROUNDS_KIND:
        return rule_options, None
    return rule_options, pot_options(variant, given)


def amount_title(key: str) -> str:
    """A pot amount named in words, for messages: ``Ante, each player``."""
    return AMOUNT_TITLES[key].removesuffix(" (cents)")


def pot_options(variant: str, given: Mapping[str, object]) -> dict[str, Any] | None:
    """Validated pot settings for a new game, or None when the game has no pot."""
    full = has_full_pot(variant)
    switched_on = given.get("pot", full)
    if not isinstance(switched_on, bool):
        raise InvalidInput(f'Play for a pot: true or false, not "{switched_on}"')
    allowed = AMOUNT_KEYS if full else SIMPLE_KEYS
    for key in AMOUNT_KEYS:
        if key not in given:
            continue
        if key not in allowed:
            raise InvalidInput(
                f"{amount_title(key)} belongs to the 3-13 pot; this game can have a simple pot: an ante, "
                "and the lowest total takes it all"
            )
        value = given[key]
        if not is_whole(value) or not 0 <= value <= MAX_CENTS:  # type: ignore[operator]
            raise InvalidInput(f'{amount_title(key)}: a whole number of cents from 0 to {MAX_CENTS}, not "{value}"')
    if not switched_on:
        return None
    stored = {**pot_defaults(variant), **{key: given[key] for key in allowed if key in given}, "pot": True}
    settings_of(stored)  # the engine checks the amounts too
    return stored


def settings_of(stored: Mapping[str, Any]) -> pots.PotSettings:
    """The engine's pot settings for a game's stored pot options."""
    if set(stored) <= {"pot", *SIMPLE_KEYS}:
        return engine_call(pots.PotSettings.simple, stored["ante"])
    return engine_call(
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
    end_explanation: tuple[str, ...] = ()
    """Once the game is over: the booby prize's and the payout's arithmetic, one sentence each."""

    left: tuple[str, ...] = ()  # players who left the table: their money stays theirs

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
    players = seating.everyone(game)
    pot = engine_call(pots.start_pot, seating.players_of_round(game, 1), settings)
    sections = [LedgerSection("Ante", None, pot.entries, pot.balance)]
    pickups: dict[int, dict[str, int]] = {}
    for stored in game.rounds:
        pot = _reseat(game, pot, stored.number, sections)
        before = len(pot.entries)
        counts = dict(stored.second_discards or {})
        pot = engine_call(pots.record_round, pot, stored.number, counts, stored.went_out)
        pickups[stored.number] = counts
        sections.append(LedgerSection(f"Round {stored.number}", stored.number, pot.entries[before:], pot.balance))
    explanation: tuple[str, ...] = ()
    if not finished:
        pot = _reseat(game, pot, len(game.rounds) + 1, sections)
    if finished:
        before = len(pot.entries)
        explanation = engine_call(pots.explain_end, pot.balance, dict(totals), pot.players, settings)
        pot = engine_call(pots.finish_game, pot, dict(totals))
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
        left=pot.left,
        sections=tuple(sections),
        knocks=knocks,
        pickups=pickups,
        paid_out=pot.finished,
        end_explanation=explanation if not settings.is_simple else (),
    )


def _reseat(game: Game, pot: pots.Pot, number: int, sections: list[LedgerSection]) -> pots.Pot:
    """The pot with the players of round `number`: a late player's ante is collected before it."""
    players = tuple(seating.players_of_round(game, number))
    if players == pot.players:
        return pot
    before = len(pot.entries)
    pot = engine_call(pots.reseat, pot, players)
    if len(pot.entries) > before:
        sections.append(LedgerSection(f"Late ante (round {number})", None, pot.entries[before:], pot.balance))
    return pot


def verify_second_discards(game: Game, value: object, number: int | None = None) -> dict[str, int] | None:
    """A round's second-discard pickups by player (zeros left out), or None for a game without a pot.
    `number` is the round's (the next one when None): its players are those who can take one."""
    players = seating.players_of_round(game, number) if number is not None else list(game.players)
    if value is None:
        return {} if has_pot(game) else None
    if not isinstance(value, dict):
        raise InvalidInput("second_discards must be an object of counts by player name")
    counts: dict[str, int] = {}
    for name, count in value.items():
        if name not in players:
            raise InvalidInput(f'"{name}" took a second discard but is not a player in this game')
        if not is_whole(count) or not 0 <= count <= MAX_PICKUPS:
            raise InvalidInput(
                f'{name} cannot have taken the second discard "{count}" times (a whole number from 0 to {MAX_PICKUPS})'
            )
        if count:
            counts[name] = count
    if not has_pot(game):
        if counts:
            raise InvalidInput("this game has no pot, so second discards are not counted")
        return None
    if counts and game.money is not None and settings_of(game.money).is_simple:
        raise InvalidInput("this game has a simple pot: second discards cost nothing and are not counted")
    return {name: counts[name] for name in players if name in counts}


def format_cents(amount: int) -> str:
    return pots.format_cents(amount)
