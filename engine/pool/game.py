"""A pool game as a replay of deals, rejoins and the end (RULES.md 11.4): elimination, rejoining at
the highest total still in plus 1, the pot, the split and the next dealer, over frozen standings.

Each step is checked (`refusal_*` answers the first rule it breaks, with a stable code) and applied
to new standings; `replay` stops at the first refused step.

>>> from engine.rules import rule_set
>>> game = start(rule_set("pool-101"), ("Asha", "Ben", "Cy"), 500)
>>> game = play_deal(game, {"Asha": "win", "Ben": 70, "Cy": 20})
>>> game = play_deal(game, {"Asha": 35, "Ben": 40, "Cy": "win"})
>>> game.totals, game.out_names
((35, 110, 20), ('Ben',))
>>> game = rejoin(game, "Ben")
>>> game.totals, game.pot
((35, 36, 20), 2000)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.pool.deal import Outcome, Result, parse_result, result_points
from engine.pool.errors import PoolError, Refusal, ResultError
from engine.rules import EliminatedAt, RuleSet

__all__ = [
    "Standings",
    "drops_left",
    "end_game",
    "play_deal",
    "refusal_deal",
    "refusal_end",
    "refusal_rejoin",
    "rejoin",
    "split_by_drops",
    "split_equally",
    "start",
]


@dataclass(frozen=True)
class Standings:
    """A pool game after some steps: everything by seat, in the order the players sit."""

    rules: RuleSet
    players: tuple[str, ...]
    buy_in: int
    first_dealer: int
    totals: tuple[int, ...]
    out: frozenset[int]
    rejoins: tuple[int, ...]
    drops: tuple[int, ...]  # drops taken, first and middle together (D-PR17)
    paid: tuple[int, ...]  # cents each player put into the pot
    taken: tuple[int, ...]  # cents each player took from it at the end
    deals: int = 0
    last_dealer: int | None = None
    put_out: frozenset[int] = frozenset()  # players put out by the last deal, who may still rejoin
    stayed_high: int = 0  # the highest total among the players who stayed in after the last deal
    over: bool = False
    winner: int | None = None
    split: tuple[str, tuple[int, ...]] | None = None  # the method and each seat's share

    @property
    def pot(self) -> int:
        return sum(self.paid)

    @property
    def seats_in(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(len(self.players)) if seat not in self.out)

    @property
    def out_names(self) -> tuple[str, ...]:
        return tuple(self.players[seat] for seat in range(len(self.players)) if seat in self.out)

    @property
    def dealer(self) -> int | None:
        """Who deals next (D-PR16): the next player to the left still in; None once the game is over."""
        if self.over:
            return None
        count = len(self.players)
        start_at = self.first_dealer if self.last_dealer is None else self.last_dealer + 1
        return next(seat % count for seat in range(start_at, start_at + count) if seat % count not in self.out)

    @property
    def nets(self) -> tuple[int, ...] | None:
        """What each player took minus what they paid, once the game is over; they sum to zero."""
        if not self.over:
            return None
        return tuple(taken - paid for taken, paid in zip(self.taken, self.paid, strict=True))


def start(rules: RuleSet, players: Sequence[str], buy_in: int, first_dealer: int = 0) -> Standings:
    """A new game: everyone at 0, each player's buy-in in the pot."""
    count = len(players)
    zeros = (0,) * count
    return Standings(
        rules, tuple(players), buy_in, first_dealer, zeros, frozenset(), zeros, zeros, (buy_in,) * count, zeros
    )


def is_out(rules: RuleSet, total: int) -> bool:
    """D-PR12: out on reaching the limit, or only above it with ``eliminated_at=pass``."""
    limit = rules.options.pool_limit
    return total > limit if rules.options.eliminated_at is EliminatedAt.PASS else total >= limit


def drops_left(game: Standings, seat: int) -> int:
    """How many first drops a player could still take and stay in (RULES.md 11.4)."""
    options = game.rules.options
    room = options.pool_limit - game.totals[seat]
    if options.eliminated_at is EliminatedAt.REACH:
        room -= 1
    left = max(0, room // options.first_drop) if options.first_drop > 0 else room
    if options.max_drops is not None:
        left = min(left, max(0, options.max_drops - game.drops[seat]))
    return max(0, left)


# --- a deal -----------------------------------------------------------------------------------


def refusal_deal(game: Standings, results: Mapping[str, object]) -> Refusal | None:
    """The first rule a deal's results break, or None."""
    if game.over:
        return Refusal("game_over", "the game is over: no more deals")
    unknown = [name for name in results if name not in game.players]
    if unknown:
        return Refusal("unknown_player", f'"{unknown[0]}" is not a player in this game')
    gone = [name for name in results if game.players.index(name) in game.out]
    if gone:
        return Refusal("not_in_game", f"{gone[0]} is out of the game and has no result in this deal")
    missing = [game.players[seat] for seat in game.seats_in if game.players[seat] not in results]
    if missing:
        return Refusal("missing_result", f"{missing[0]} has no result in this deal")
    return _refusal_results(game, results)


def _refusal_results(game: Standings, results: Mapping[str, object]) -> Refusal | None:
    parsed = {}
    for name, value in results.items():
        try:
            parsed[name] = parse_result(value)
        except ResultError as error:
            return Refusal("bad_result", f"{name}: {error}")
    wins = sum(1 for result in parsed.values() if result.outcome is Outcome.WIN)
    if wins != 1:
        return Refusal("winner_count", f"a deal has exactly one win, not {wins}")
    most = game.rules.options.max_drops
    for name, result in parsed.items():
        if most is not None and result.is_drop and game.drops[game.players.index(name)] >= most:
            return Refusal("max_drops", f"{name} has taken all {most} drops this game allows")
    return None


def play_deal(game: Standings, results: Mapping[str, object]) -> Standings:
    """The standings after a deal; raise Refusal when the rules refuse it."""
    refusal = refusal_deal(game, results)
    if refusal is not None:
        raise refusal
    parsed = {game.players.index(name): parse_result(value) for name, value in results.items()}
    totals = list(game.totals)
    drops = list(game.drops)
    for seat, result in parsed.items():
        totals[seat] += result_points(game.rules, result)
        drops[seat] += result.is_drop
    put_out = frozenset(seat for seat in game.seats_in if is_out(game.rules, totals[seat]))
    stayed = [totals[seat] for seat in game.seats_in if seat not in put_out]
    after = replace(
        game,
        totals=tuple(totals),
        drops=tuple(drops),
        out=game.out | put_out,
        deals=game.deals + 1,
        last_dealer=game.dealer,
        put_out=put_out,
        stayed_high=max(stayed),
    )
    return _maybe_won(after)


def _maybe_won(game: Standings) -> Standings:
    """D-PR14: one player left takes the pot and the game is over."""
    left = game.seats_in
    if len(left) != 1:
        return game
    taken = tuple(game.pot if seat == left[0] else 0 for seat in range(len(game.players)))
    return replace(game, over=True, winner=left[0], taken=taken, put_out=frozenset())


# --- a rejoin ---------------------------------------------------------------------------------


def refusal_rejoin(game: Standings, name: str) -> Refusal | None:
    """The first rule a rejoin breaks (D-PR13), or None."""
    options = game.rules.options
    if game.over:
        return Refusal("game_over", "the game is over: no one may rejoin")
    if name not in game.players:
        return Refusal("rejoin_not_out", f'"{name}" is not a player in this game, so cannot rejoin')
    if game.players.index(name) not in game.out:
        return Refusal("rejoin_not_out", f"{name} is not out of the game, so cannot rejoin")
    seat = game.players.index(name)
    if seat not in game.put_out:
        return Refusal("rejoin_late", f"{name} may rejoin only straight after the deal that put them out")
    if options.max_rejoins is not None and game.rejoins[seat] >= options.max_rejoins:
        return Refusal("rejoin_limit", f"{name} has rejoined {game.rejoins[seat]} times, the most this game allows")
    if options.rejoin_cutoff is not None and game.stayed_high > options.rejoin_cutoff:
        return Refusal(
            "rejoin_cutoff",
            f"the highest total still in is {game.stayed_high}, above {options.rejoin_cutoff}: no one may rejoin",
        )
    if is_out(game.rules, game.stayed_high + 1):
        return Refusal("rejoin_at_limit", f"{name} would come back at {game.stayed_high + 1}, which is itself out")
    return None


def rejoin(game: Standings, name: str) -> Standings:
    """The standings after a player buys back in at the highest total still in plus 1."""
    refusal = refusal_rejoin(game, name)
    if refusal is not None:
        raise refusal
    seat = game.players.index(name)
    return replace(
        game,
        totals=_put(game.totals, seat, game.stayed_high + 1),
        out=game.out - {seat},
        rejoins=_put(game.rejoins, seat, game.rejoins[seat] + 1),
        paid=_put(game.paid, seat, game.paid[seat] + game.buy_in),
        put_out=game.put_out - {seat},
    )


def _put(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


# --- the end ----------------------------------------------------------------------------------


def _shared(amount: int, seats: Sequence[int], count: int) -> list[int]:
    """`amount` shared equally among `seats`, leftover cents one each from the first seat on."""
    shares = [0] * count
    each, left = divmod(amount, len(seats))
    for seat in seats:
        shares[seat] = each + (1 if left > 0 else 0)
        left -= 1
    return shares


def split_by_drops(game: Standings) -> tuple[int, ...] | None:
    """D-PR15: drops left equalised at a buy-in per drop, the rest shared equally; None when less
    than one buy-in would be left to share."""
    seats = game.seats_in
    left = {seat: drops_left(game, seat) for seat in seats}
    fewest = min(left.values())
    first = {seat: (left[seat] - fewest) * game.buy_in for seat in seats}
    rest = game.pot - sum(first.values())
    if rest < game.buy_in:
        return None
    equal = _shared(rest, seats, len(game.players))
    return tuple(first.get(seat, 0) + equal[seat] for seat in range(len(game.players)))


def split_equally(game: Standings) -> tuple[int, ...]:
    return tuple(_shared(game.pot, game.seats_in, len(game.players)))


def refusal_end(game: Standings, method: str, shares: Mapping[str, object] | None = None) -> Refusal | None:
    """The first rule a split breaks, or None."""
    if game.over:
        return Refusal("game_over", "the game is over already")
    if method == "drops" and split_by_drops(game) is None:
        return Refusal("split_refused", "the split by drops would leave less than one buy-in to share")
    if method == "amounts":
        return _refusal_amounts(game, shares or {})
    return None


def _refusal_amounts(game: Standings, shares: Mapping[str, object]) -> Refusal | None:
    names_in = {game.players[seat] for seat in game.seats_in}
    if set(shares) != names_in:
        return Refusal("split_amounts", "the shares must name every player still in, and only them")
    amounts = list(shares.values())
    if any(not isinstance(value, int) or isinstance(value, bool) or value < 0 for value in amounts):
        return Refusal("split_amounts", "each share is a whole number of cents from 0")
    if sum(amounts) != game.pot:  # type: ignore[arg-type]
        return Refusal("split_amounts", f"the shares sum to {sum(amounts)}, not the pot of {game.pot}")  # type: ignore[arg-type]
    return None


def end_game(game: Standings, method: str, shares: Mapping[str, object] | None = None) -> Standings:
    """The game ended by a split every player still in agreed to (D-PR15)."""
    refusal = refusal_end(game, method, shares)
    if refusal is not None:
        raise refusal
    if method == "drops":
        split = split_by_drops(game)
        assert split is not None
    elif method == "equal":
        split = split_equally(game)
    elif method == "amounts":
        given = shares or {}
        split = tuple(int(given.get(name, 0)) for name in game.players)  # type: ignore[call-overload]
    else:
        raise PoolError(f'a split is "drops", "equal" or "amounts", not "{method}"')
    return replace(game, over=True, taken=split, split=(method, split), put_out=frozenset())


__all__ += ["Result", "is_out"]
