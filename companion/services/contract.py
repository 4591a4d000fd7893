"""Contract Rummy at the table (issue 15): the contract of each deal as words and pictures, the buys
counted during a deal, and the exact cut.

The buys of the deal being played are kept on the game (`Game.buys`) until that deal's round is
saved; then they are stored with the round (`Round.buys`) and the count starts again. Every limit
comes from the engine (`engine.contracts`); this module only counts and stores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidInput
from companion.models import Game, utc_now
from companion.services import seating
from companion.services.store import ROUNDS_KIND, check_version, commit, engine_call, preset_kind, rules_for
from engine import contracts
from engine.rules import RuleSet
from engine.schedule import RoundInfo
from engine.scoring import EXACT_CUT_POINTS, with_exact_cut

NO_BUYING = "this game has no buying: only Contract Rummy with buys allowed counts them"
NO_EXACT_CUT = "this game is played without the exact cut"
CHANGES = (1, -1)


# ---------------------------------------------------------------- the contract, for the pages


def contract_kinds(info: RoundInfo) -> tuple[str, ...]:
    """The deal's contract as "set" and "run", in order; empty for a game without contracts."""
    return tuple(str(getattr(kind, "value", kind)) for kind in info.contract)


@dataclass(frozen=True)
class FanCard:
    """One card of a contract's picture: ``7`` and ``♥``, red or black."""

    rank: str
    suit: str
    red: bool

    @property
    def symbol(self) -> str:
        return self.rank + self.suit


_COUNT_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True)
class Fan:
    """One meld of a contract drawn as a small fan of example cards, with its text alternative."""

    kind: str  # "set" or "run"
    cards: tuple[FanCard, ...]

    @property
    def words(self) -> str:
        """What the picture shows, for screen readers.

        >>> [fan.words for fan in contract_fans(("set", "run"))]
        ['a set: three or more cards of one rank', 'a run: four or more cards of one suit in sequence']
        """
        count = _COUNT_WORDS.get(len(self.cards), str(len(self.cards)))
        if self.kind == "run":
            return f"a run: {count} or more cards of one suit in sequence"
        return f"a set: {count} or more cards of one rank"


# Example cards for the pictures: a set of each of these ranks, a run in each of these suits.
_SET_RANKS = ("7", "K", "4")
_RUN_SUITS = (("♥", True, 5), ("♠", False, 9), ("♦", True, 3))
_SET_SUITS = (("♠", False), ("♥", True), ("♦", True))
_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def contract_fans(kinds: Sequence[str], run_length: int = 4, set_length: int = 3) -> tuple[Fan, ...]:
    """A contract as pictures: each set as cards of one rank, each run as cards of one suit in sequence.

    >>> [" ".join(card.symbol for card in fan.cards) for fan in contract_fans(["set", "run"])]
    ['7♠ 7♥ 7♦', '5♥ 6♥ 7♥ 8♥']
    """
    fans = []
    sets = runs = 0
    for kind in kinds:
        if kind == "set":
            rank = _SET_RANKS[sets % len(_SET_RANKS)]
            suits = [_SET_SUITS[index % len(_SET_SUITS)] for index in range(set_length)]
            fans.append(Fan(kind, tuple(FanCard(rank, suit, red) for suit, red in suits)))
            sets += 1
        else:
            suit, red, low = _RUN_SUITS[runs % len(_RUN_SUITS)]
            ranks = [_RANK_NAMES.get(value, str(value)) for value in range(low, low + run_length)]
            fans.append(Fan(kind, tuple(FanCard(rank, suit, red) for rank in ranks)))
            runs += 1
    return tuple(fans)


# ---------------------------------------------------------------- buys


def has_buying(rules: RuleSet) -> bool:
    """Whether the game counts buys: its preset takes buys (Contract Rummy) and allows at least one."""
    return buy_limit(rules) > 0


def buy_limit(rules: RuleSet) -> int:
    """The most buys a player may make in one deal."""
    limit: int = contracts.buys_limit(rules)
    return limit


def current_buys(game: Game) -> dict[str, int]:
    """Each player's buys in the deal being played (0 for none), in seat order."""
    stored = game.buys or {}
    return {name: int(stored.get(name, 0)) for name in game.players}


def change_buys(game: Game, player: object, change: object, expected_version: object = None) -> None:
    """Count one buy more (+1) or one less (-1) for a player in the deal being played.

    The engine refuses a buy past the deal's limit; nothing is stored from a refused change.
    """
    check_version(game, expected_version)
    if preset_kind(game.variant) != ROUNDS_KIND:  # Play or Pay, pool rummy: no deals of Contract Rummy
        raise InvalidInput(NO_BUYING)
    rules = rules_for(game.variant, game.options)
    if not has_buying(rules):
        raise InvalidInput(NO_BUYING)
    if game.finished:
        raise InvalidInput(f"the game is over: all {rules.rounds} deals are scored")
    if not isinstance(player, str) or player not in game.players:
        shown = player if isinstance(player, str) else ""
        raise InvalidInput(f'"{shown[:40]}" is not a player in this game')
    if isinstance(change, bool) or change not in CHANGES:
        raise InvalidInput("change must be 1 (one buy more) or -1 (one buy less)")
    buys = current_buys(game)
    if change == 1:
        engine_call(contracts.verify_buy, rules, buys[player], player)
    elif buys[player] == 0:
        raise InvalidInput(f"{player} has no buy to take back in this deal")
    buys[player] += int(change)
    game.buys = {name: count for name, count in buys.items() if count} or None
    game.updated_at = utc_now()
    commit()


def stored_buys(game: Game) -> dict[str, int] | None:
    """The buys to store with the round being saved: the deal's counts, or None when nobody bought."""
    counts = {name: count for name, count in current_buys(game).items() if count}
    return counts or None


def buys_json(buys: Mapping[str, int] | None, players: Sequence[str]) -> dict[str, int]:
    """Buys by player in seat order, 0 for none."""
    return {name: int((buys or {}).get(name, 0)) for name in players}


def checked_buys(rules: RuleSet, players: Sequence[str], value: object) -> dict[str, int] | None:
    """Buys read from an export: whole counts within the deal's limit, by player name (None for none)."""
    if value is None:
        return None
    if not has_buying(rules):
        raise InvalidInput("only Contract Rummy keeps buys")
    limit = buy_limit(rules)
    if not isinstance(value, dict):
        raise InvalidInput("buys must be an object of counts by player name")
    for name, count in value.items():
        if name not in players:
            raise InvalidInput(f'buys name "{str(name)[:40]}", who is not a player in this game')
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= limit:
            raise InvalidInput(f"the buys of {name} must be a whole number from 0 to {limit}")
    return {name: value[name] for name in players if value.get(name)} or None


# ---------------------------------------------------------------- exact cut


def verify_exact_cut(game: Game, cutter: object, number: int | None = None) -> str | None:
    """The player who cut exactly (None for nobody); refused when the game does not use the exact cut.
    `number` is the deal's (the next one when None): its players are those who can cut."""
    if cutter is None or cutter == "":
        return None
    rules = rules_for(game.variant, game.options)
    if not exact_cut_on(rules):
        raise InvalidInput(NO_EXACT_CUT)
    players = seating.players_of_round(game, number) if number is not None else game.players
    if not isinstance(cutter, str) or cutter not in players:
        shown = cutter if isinstance(cutter, str) else ""
        raise InvalidInput(f'the player who cut exactly, "{shown[:40]}", is not a player in this game')
    return cutter


def checked_cutter(rules: RuleSet, players: Sequence[str], cutter: object) -> str:
    """The player who cut exactly, read from an export."""
    if not exact_cut_on(rules):
        raise InvalidInput(NO_EXACT_CUT)
    if not isinstance(cutter, str) or cutter not in players:
        raise InvalidInput("exact_cut must be the name of a player of this game")
    return cutter


def exact_cut_on(rules: RuleSet) -> bool:
    """Whether the round form asks who cut exactly (Contract Rummy with the option on)."""
    return "exact_cut" in rules.preset.option_keys and rules.options.exact_cut


def cut_points(points: dict[str, int], cutter: str | None, rules: RuleSet) -> dict[str, int]:
    """The sheet points with the exact cut's bonus for the player who cut exactly."""
    if cutter is None:
        return points
    cut: dict[str, int] = with_exact_cut(points, cutter, rules)
    return cut


def exact_cut_points() -> int:
    """What an exact cut scores (negative: it lowers the total)."""
    return EXACT_CUT_POINTS


def round_extras(buys: dict[str, int] | None, cutter: str | None) -> dict[str, Any]:
    """A played round's Contract Rummy fields for the API, left out when empty."""
    return {**({"buys": dict(buys)} if buys else {}), **({"exact_cut": cutter} if cutter else {})}
