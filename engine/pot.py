"""The 3-13 pot (RULES.md section 6): a ledger of cents paid in and out, balances computed from it.

A positive amount is paid INTO the pot by the player; a negative amount is paid OUT of the pot
to the player. Entries that would move nothing (0 cents) are never written.

>>> pot = start_pot(["Ann", "Bob", "Cy"])
>>> pot.balance
150
>>> pot = record_round(pot, 1, {"Bob": 1}, knocker="Ann")
>>> [(entry.player, entry.kind.value, entry.amount) for entry in pot.entries[3:]]
[('Bob', 'second_discard', 5), ('Ann', 'knock', -15)]
>>> pot = finish_game(pot, {"Ann": 0, "Bob": 20, "Cy": 7})
>>> pot.balance, net(pot.entries, pot.players)
(0, {'Ann': 105, 'Bob': -55, 'Cy': -50})
>>> format_cents(-35)
'-$0.35'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from engine.errors import EngineError

__all__ = [
    "EntryKind",
    "LedgerEntry",
    "Pot",
    "PotError",
    "PotSettings",
    "ante_entries",
    "balance_after_each_round",
    "can_finish_game",
    "can_record_round",
    "end_entries",
    "finish_game",
    "format_cents",
    "ledger_json",
    "net",
    "pot_balance",
    "record_round",
    "reseat",
    "round_entries",
    "split_evenly",
    "start_pot",
    "verify_finish_game",
    "verify_players",
    "verify_reseat",
    "verify_round",
]


class PotError(EngineError):
    """Pot settings, players, pickups or totals that the pot cannot take."""


class EntryKind(Enum):
    """Why money moved."""

    ANTE = "ante"
    SECOND_DISCARD = "second_discard"
    KNOCK = "knock"
    BOOBY = "booby"
    PAYOUT = "payout"


@dataclass(frozen=True)
class PotSettings:
    """What the pot charges and pays, in cents (defaults: seed 003).

    `booby_share` is the divisor of the booby prize: 4 means a quarter of the pot.

    >>> PotSettings().booby_prize(270, players=5)
    50
    >>> PotSettings().booby_prize(100, players=5), PotSettings().booby_prize(100, players=4)
    (25, 0)
    >>> PotSettings(knock=-1)
    Traceback (most recent call last):
    ...
    engine.pot.PotError: the knock payout must be a whole number of cents from 0, not "-1"
    """

    ante: int = 50
    second_discard: int = 5
    knock: int = 15
    booby_share: int = 4
    booby_cap: int = 50
    booby_min_players: int = 5

    def __post_init__(self) -> None:
        _verify_cents("ante", self.ante)
        _verify_cents("second-discard price", self.second_discard)
        _verify_cents("knock payout", self.knock)
        _verify_cents("booby cap", self.booby_cap)
        if _not_whole(self.booby_share) or self.booby_share < 1:
            raise PotError(f'the booby share must be a whole divisor from 1, not "{self.booby_share}"')
        if _not_whole(self.booby_min_players) or self.booby_min_players < 1:
            raise PotError(f'the booby prize needs a whole number of players from 1, not "{self.booby_min_players}"')

    @classmethod
    def simple(cls, ante: int = 50) -> PotSettings:
        """A simple pot for other presets: everyone antes, the lowest total takes it all.

        >>> PotSettings.simple(ante=100).is_simple
        True
        """
        return cls(ante=ante, second_discard=0, knock=0, booby_cap=0)

    @property
    def is_simple(self) -> bool:
        """Whether nothing but the ante goes in and nothing but the final payout comes out."""
        return self.second_discard == 0 and self.knock == 0 and self.booby_cap == 0

    def booby_prize(self, balance: int, players: int) -> int:
        """The booby prize out of a pot of `balance` cents: a share, rounded down, at most the cap."""
        if players < self.booby_min_players:
            return 0
        return min(balance // self.booby_share, self.booby_cap, balance)


def _not_whole(value: object) -> bool:
    return isinstance(value, bool) or not isinstance(value, int)


def _verify_cents(what: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PotError(f'the {what} must be a whole number of cents from 0, not "{value}"')


@dataclass(frozen=True)
class LedgerEntry:
    """One movement of money: into the pot (amount > 0) or out of it to the player (amount < 0).

    `round` is None for the antes and the end-of-game payouts; `player` is always set for the
    entries this module writes, but a ledger may hold table-level entries without one.
    """

    round: int | None
    player: str | None
    kind: EntryKind
    amount: int

    def as_json(self) -> dict[str, Any]:
        """The entry as the web API sends it.

        >>> LedgerEntry(None, "Ann", EntryKind.ANTE, 50).as_json()
        {'round': None, 'player': 'Ann', 'kind': 'ante', 'amount': 50}
        """
        return {"round": self.round, "player": self.player, "kind": self.kind.value, "amount": self.amount}


# --- balances, computed from the ledger -------------------------------------------------------


def pot_balance(entries: Sequence[LedgerEntry]) -> int:
    """The cents in the pot after the entries.

    >>> pot_balance(ante_entries(["Ann", "Bob"]))
    100
    """
    return sum(entry.amount for entry in entries)


def balance_after_each_round(entries: Sequence[LedgerEntry]) -> dict[int, int]:
    """The pot's balance after each round's last entry, by round number, in ledger order.

    A round that moved no money does not appear.

    >>> ledger = ante_entries(["Ann", "Bob"]) + round_entries(100, 1, {"Bob": 2}, "Ann", ["Ann", "Bob"])
    >>> balance_after_each_round(ledger)
    {1: 95}
    """
    balances: dict[int, int] = {}
    running = 0
    for entry in entries:
        running += entry.amount
        if entry.round is not None:
            balances[entry.round] = running
    return balances


def net(entries: Sequence[LedgerEntry], players: Sequence[str]) -> dict[str, int]:
    """Each player's result in cents: money received from the pot minus money paid into it.

    >>> net(ante_entries(["Ann", "Bob"]), ["Ann", "Bob"])
    {'Ann': -50, 'Bob': -50}
    >>> net([LedgerEntry(None, "Zed", EntryKind.ANTE, 50)], ["Ann"])
    Traceback (most recent call last):
    ...
    engine.pot.PotError: the ledger names "Zed", who is not a player in this game
    """
    results = dict.fromkeys(players, 0)
    for entry in entries:
        if entry.player is None:
            continue
        if entry.player not in results:
            raise PotError(f'the ledger names "{entry.player}", who is not a player in this game')
        results[entry.player] -= entry.amount
    return results


def ledger_json(entries: Sequence[LedgerEntry], players: Sequence[str]) -> dict[str, Any]:
    """The pot as the web API sends it: balance, every entry, and each player's net result.

    >>> ledger_json(ante_entries(["Ann"]), ["Ann"])
    {'balance': 50, 'ledger': [{'round': None, 'player': 'Ann', 'kind': 'ante', 'amount': 50}], 'net': {'Ann': -50}}
    """
    return {
        "balance": pot_balance(entries),
        "ledger": [entry.as_json() for entry in entries],
        "net": net(entries, players),
    }


def format_cents(amount: int) -> str:
    """Cents as dollars: ``$0.50``; a negative amount gets a leading minus.

    >>> format_cents(50), format_cents(-35), format_cents(12345), format_cents(0)
    ('$0.50', '-$0.35', '$123.45', '$0.00')
    """
    sign = "-" if amount < 0 else ""
    dollars, cents = divmod(abs(amount), 100)
    return f"{sign}${dollars}.{cents:02d}"


def split_evenly(amount: int, recipients: Sequence[str]) -> dict[str, int]:
    """Split cents as evenly as whole cents allow; leftover cents go one each, in seat order.

    >>> split_evenly(101, ["Bob", "Cy", "Dee"])
    {'Bob': 34, 'Cy': 34, 'Dee': 33}
    """
    share, leftover = divmod(amount, len(recipients))
    return {name: share + (1 if seat < leftover else 0) for seat, name in enumerate(recipients)}


# --- the entries of each stage ----------------------------------------------------------------


def verify_players(players: Sequence[str]) -> tuple[str, ...]:
    """The players in seat order, or PotError when a name is blank or repeated.

    >>> verify_players(["Ann", "Ann"])
    Traceback (most recent call last):
    ...
    engine.pot.PotError: "Ann" sits at the table twice
    """
    seated: list[str] = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise PotError(f'"{name}" is not a player name')
        if name in seated:
            raise PotError(f'"{name}" sits at the table twice')
        seated.append(name)
    if not seated:
        raise PotError("a pot needs at least one player")
    return tuple(seated)


def ante_entries(players: Sequence[str], settings: PotSettings | None = None) -> tuple[LedgerEntry, ...]:
    """Each player pays the ante into the pot when the game starts.

    >>> [entry.amount for entry in ante_entries(["Ann", "Bob"], PotSettings.simple(ante=25))]
    [25, 25]
    """
    ante = (settings or PotSettings()).ante
    return tuple(LedgerEntry(None, name, EntryKind.ANTE, ante) for name in verify_players(players) if ante)


def round_entries(
    balance: int,
    round_number: int,
    pickups: Mapping[str, int],
    knocker: str,
    players: Sequence[str],
    settings: PotSettings | None = None,
) -> tuple[LedgerEntry, ...]:
    """A round's entries on a pot holding `balance`: second-discard pickups in seat order, then the knock.

    The knocker collects the knock payout, or what the pot holds when that is less.

    >>> [(entry.player, entry.amount) for entry in round_entries(10, 4, {"Bob": 1}, "Ann", ["Ann", "Bob"])]
    [('Bob', 5), ('Ann', -15)]
    >>> round_entries(3, 5, {}, "Ann", ["Ann", "Bob"])[0].amount
    -3
    """
    settings = settings or PotSettings()
    seated = verify_players(players)
    _verify_round_input(round_number, pickups, knocker, seated)
    entries = [
        LedgerEntry(round_number, name, EntryKind.SECOND_DISCARD, pickups.get(name, 0) * settings.second_discard)
        for name in seated
        if pickups.get(name, 0) * settings.second_discard
    ]
    after_pickups = balance + sum(entry.amount for entry in entries)
    collected = min(settings.knock, max(after_pickups, 0))
    if collected:
        entries.append(LedgerEntry(round_number, knocker, EntryKind.KNOCK, -collected))
    return tuple(entries)


def _verify_round_input(round_number: int, pickups: Mapping[str, int], knocker: str, seated: tuple[str, ...]) -> None:
    if _not_whole(round_number) or round_number < 1:
        raise PotError(f'"{round_number}" is not a round number')
    if knocker not in seated:
        raise PotError(f'the knocker "{knocker}" is not a player in this game')
    for name, count in pickups.items():
        if name not in seated:
            raise PotError(f'"{name}" took a second discard but is not a player in this game')
        if _not_whole(count) or count < 0:
            raise PotError(f'{name} cannot have taken the second discard "{count}" times')


def end_entries(
    balance: int,
    totals: Mapping[str, int],
    players: Sequence[str],
    settings: PotSettings | None = None,
) -> tuple[LedgerEntry, ...]:
    """The end-of-game entries on a pot holding `balance`: the booby prize, then the payout.

    With at least `booby_min_players` players the highest total gets the booby prize, unless
    every total is equal; ties split each payout in seat order (see `split_evenly`). A player
    can tie for both highest and lowest only when all totals are equal, and then there is no
    booby prize, so nobody is paid twice.

    >>> totals = {"Ann": 10, "Bob": 90, "Cy": 90, "Dee": 40, "Eve": 10}
    >>> [(e.player, e.kind.value, e.amount) for e in end_entries(101, totals, list(totals))]
    [('Bob', 'booby', -13), ('Cy', 'booby', -12), ('Ann', 'payout', -38), ('Eve', 'payout', -38)]
    """
    settings = settings or PotSettings()
    seated = verify_players(players)
    _verify_totals(totals, seated)
    entries = _booby_entries(balance, totals, seated, settings)
    remaining = max(balance + sum(entry.amount for entry in entries), 0)
    lowest = min(totals.values())
    winners = [name for name in seated if totals[name] == lowest]
    return entries + _shares(EntryKind.PAYOUT, remaining, winners)


def pot_rules(settings: PotSettings | None = None) -> tuple[str, ...]:
    """The pot's rules in words, with the amounts of `settings` (RULES.md section 6).

    >>> print(pot_rules()[3])  # doctest: +NORMALIZE_WHITESPACE
    The booby prize: at the end, with 5 or more players, the highest total receives a quarter of the pot
    (rounded down), at most $0.50. If every total is equal there is none.
    """
    settings = settings or PotSettings()
    fraction = {2: "half", 3: "a third", 4: "a quarter"}.get(settings.booby_share, f"1/{settings.booby_share}")
    return (
        f"Each player puts {format_cents(settings.ante)} into the pot when the game starts.",
        f"Taking the second (lower) discard costs {format_cents(settings.second_discard)}, paid into the pot.",
        f"The player who knocks takes {format_cents(settings.knock)} from the pot each round "
        "(what is left, if the pot holds less).",
        f"The booby prize: at the end, with {settings.booby_min_players} or more players, the highest total receives "
        f"{fraction} of the pot (rounded down), at most {format_cents(settings.booby_cap)}. "
        "If every total is equal there is none.",
        "The lowest total then takes the rest of the pot; tied players split it as evenly as whole cents allow.",
    )


def _names_and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _who_gets(kind: str, amount: int, recipients: Sequence[str]) -> str:
    if len(recipients) == 1:
        return f"{recipients[0]} receives {format_cents(amount)}"
    shares = split_evenly(amount, recipients)
    parts = ", ".join(f"{name} {format_cents(share)}" for name, share in shares.items())
    return f"{_names_and(recipients)} share {format_cents(amount)} as evenly as whole cents allow ({parts})"


def explain_end(
    balance: int, totals: Mapping[str, int], players: Sequence[str], settings: PotSettings | None = None
) -> tuple[str, ...]:
    """The arithmetic of `end_entries`, one sentence for the booby prize and one for the payout.

    >>> totals = {"Ann": 5, "Bob": 90, "Cy": 40, "Dee": 40, "Eve": 60}
    >>> for line in explain_end(270, totals, list(totals)):
    ...     print(line)
    Booby prize for the highest total (90): a quarter of the pot ($2.70) is $0.67, at most $0.50: Bob receives $0.50.
    Payout for the lowest total (5): the rest of the pot, $2.70 − $0.50 = $2.20: Ann receives $2.20.
    >>> explain_end(150, {"Ann": 5, "Bob": 9, "Cy": 7}, ["Ann", "Bob", "Cy"])[0]
    'No booby prize: it needs at least 5 players.'
    """
    settings = settings or PotSettings()
    seated = verify_players(players)
    _verify_totals(totals, seated)
    entries = _booby_entries(balance, totals, seated, settings)
    highest, lowest = max(totals.values()), min(totals.values())
    pot = max(balance, 0)
    if len(seated) < settings.booby_min_players:
        booby = f"No booby prize: it needs at least {settings.booby_min_players} players."
    elif highest == lowest:
        booby = "No booby prize: every player has the same total."
    else:
        share = pot // settings.booby_share
        prize = settings.booby_prize(pot, len(seated))
        fraction = {2: "half", 3: "a third", 4: "a quarter"}.get(settings.booby_share, f"1/{settings.booby_share}")
        capped = f", at most {format_cents(settings.booby_cap)}" if share > settings.booby_cap else ""
        who = _who_gets("booby", prize, [name for name in seated if totals[name] == highest])
        booby = (
            f"Booby prize for the highest total ({highest}): {fraction} of the pot ({format_cents(pot)}) "
            f"is {format_cents(share)}{capped}: {who}."
        )
    paid = -sum(entry.amount for entry in entries)
    remaining = max(pot - paid, 0)
    rest = (
        f"the rest of the pot, {format_cents(pot)} − {format_cents(paid)} = {format_cents(remaining)}"
        if paid
        else (f"the whole pot, {format_cents(remaining)}")
    )
    who = _who_gets("payout", remaining, [name for name in seated if totals[name] == lowest])
    return booby, f"Payout for the lowest total ({lowest}): {rest}: {who}."


def _booby_entries(
    balance: int, totals: Mapping[str, int], seated: tuple[str, ...], settings: PotSettings
) -> tuple[LedgerEntry, ...]:
    highest = max(totals.values())
    if highest == min(totals.values()):
        return ()
    prize = settings.booby_prize(max(balance, 0), len(seated))
    return _shares(EntryKind.BOOBY, prize, [name for name in seated if totals[name] == highest])


def _shares(kind: EntryKind, amount: int, recipients: Sequence[str]) -> tuple[LedgerEntry, ...]:
    if amount <= 0:
        return ()
    split = split_evenly(amount, recipients)
    return tuple(LedgerEntry(None, name, kind, -share) for name, share in split.items() if share)


def _verify_totals(totals: Mapping[str, int], seated: tuple[str, ...]) -> None:
    for name in totals:
        if name not in seated:
            raise PotError(f'"{name}" has a total but is not a player in this game')
    for name in seated:
        if name not in totals:
            raise PotError(f"{name} has no total")
        if _not_whole(totals[name]):
            raise PotError(f'{name}\'s total must be a whole number, not "{totals[name]}"')


# --- the pot of a game, as a value ------------------------------------------------------------


@dataclass(frozen=True)
class Pot:
    """A game's pot: its players, its settings and its ledger; the balance is always computed."""

    players: tuple[str, ...]
    settings: PotSettings
    entries: tuple[LedgerEntry, ...]
    rounds_recorded: int = 0
    finished: bool = False
    left: tuple[str, ...] = ()  # players who left the table: their money stays in the ledger

    @property
    def balance(self) -> int:
        return pot_balance(self.entries)

    @property
    def everyone(self) -> tuple[str, ...]:
        """The players at the table now, then those who left."""
        return self.players + self.left

    def as_json(self) -> dict[str, Any]:
        """The pot as the web API sends it (see `ledger_json`).

        >>> start_pot(["Ann", "Bob"]).as_json()["net"]
        {'Ann': -50, 'Bob': -50}
        """
        return ledger_json(self.entries, self.everyone)


def verify_reseat(pot: Pot, players: Sequence[str]) -> tuple[str, ...]:
    """The new players of a pot between rounds, in seat order, or PotError: a player who left
    cannot come back, and the game must not be over.

    >>> verify_reseat(reseat(start_pot(["Ann", "Bob", "Cy"]), ["Ann", "Bob"]), ["Ann", "Bob", "Cy"])
    Traceback (most recent call last):
    ...
    engine.pot.PotError: "Cy" left this game and cannot sit down again
    """
    seated = verify_players(players)
    if pot.finished:
        raise PotError(f"the players cannot change to {', '.join(seated)}: the game is over and the pot is paid out")
    for name in seated:
        if name in pot.left:
            raise PotError(f'"{name}" left this game and cannot sit down again')
    return seated


def reseat(pot: Pot, players: Sequence[str]) -> Pot:
    """The pot after the players changed between rounds: a newcomer pays the ante as everyone did,
    and a player who is no longer seated has left (what they paid and won stays theirs).

    >>> pot = reseat(start_pot(["Ann", "Bob"]), ["Bob", "Eve"])
    >>> pot.balance, pot.players, pot.left, net(pot.entries, pot.everyone)
    (150, ('Bob', 'Eve'), ('Ann',), {'Bob': -50, 'Eve': -50, 'Ann': -50})
    """
    seated = verify_reseat(pot, players)
    newcomers = [name for name in seated if name not in pot.players]
    going = tuple(name for name in pot.players if name not in seated)
    entries = ante_entries(newcomers, pot.settings) if newcomers else ()
    return replace(pot, players=seated, entries=pot.entries + entries, left=pot.left + going)


def start_pot(players: Sequence[str], settings: PotSettings | None = None) -> Pot:
    """A new game's pot: every player has paid the ante.

    >>> start_pot(["Ann", "Bob"], PotSettings.simple(ante=100)).balance
    200
    """
    settings = settings or PotSettings()
    seated = verify_players(players)
    return Pot(seated, settings, ante_entries(seated, settings))


def verify_round(pot: Pot, round_number: int, pickups: Mapping[str, int], knocker: str) -> tuple[LedgerEntry, ...]:
    """The next round's entries, or PotError when the game is over or the round is not the next one.

    >>> verify_round(start_pot(["Ann", "Bob"]), 2, {}, "Ann")
    Traceback (most recent call last):
    ...
    engine.pot.PotError: round "2" cannot be recorded: the next round is 1
    """
    if pot.finished:
        raise PotError(f'round "{round_number}" cannot be recorded: the game is over and the pot is paid out')
    if round_number != pot.rounds_recorded + 1:
        raise PotError(f'round "{round_number}" cannot be recorded: the next round is {pot.rounds_recorded + 1}')
    return round_entries(pot.balance, round_number, pickups, knocker, pot.players, pot.settings)


def can_record_round(pot: Pot, round_number: int, pickups: Mapping[str, int], knocker: str) -> bool:
    """Whether the round can be recorded.

    >>> can_record_round(start_pot(["Ann", "Bob"]), 1, {"Ann": 1}, "Bob")
    True
    """
    try:
        verify_round(pot, round_number, pickups, knocker)
    except PotError:
        return False
    return True


def record_round(pot: Pot, round_number: int, pickups: Mapping[str, int], knocker: str) -> Pot:
    """The pot after a round: pickups paid in (`pickups` counts each player's), the knocker paid.

    >>> record_round(start_pot(["Ann", "Bob"]), 1, {"Ann": 2}, "Bob").balance
    95
    """
    entries = verify_round(pot, round_number, pickups, knocker)
    return replace(pot, entries=pot.entries + entries, rounds_recorded=round_number)


def verify_finish_game(pot: Pot, totals: Mapping[str, int]) -> tuple[LedgerEntry, ...]:
    """The end-of-game entries, or PotError when the game is already over or a total is missing.

    >>> verify_finish_game(start_pot(["Ann", "Bob"]), {"Ann": 3})
    Traceback (most recent call last):
    ...
    engine.pot.PotError: Bob has no total
    """
    if pot.finished:
        raise PotError(f"the pot cannot be paid out for totals {dict(totals)}: it is already paid out")
    return end_entries(pot.balance, totals, pot.players, pot.settings)


def can_finish_game(pot: Pot, totals: Mapping[str, int]) -> bool:
    """Whether the pot can be paid out on these totals.

    >>> can_finish_game(start_pot(["Ann", "Bob"]), {"Ann": 3, "Bob": 0})
    True
    """
    try:
        verify_finish_game(pot, totals)
    except PotError:
        return False
    return True


def finish_game(pot: Pot, totals: Mapping[str, int]) -> Pot:
    """The pot after the final payouts; it is then empty.

    >>> finish_game(start_pot(["Ann", "Bob"]), {"Ann": 3, "Bob": 0}).entries[-1]
    LedgerEntry(round=None, player='Bob', kind=<EntryKind.PAYOUT: 'payout'>, amount=-100)
    """
    entries = verify_finish_game(pot, totals)
    return replace(pot, entries=pot.entries + entries, finished=True)
