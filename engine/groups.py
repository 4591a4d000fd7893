"""A group's statistics over the games it played: standings, head-to-head, ratings, money, settle-up.

Pure computations on plain records (`PlayedGame`), so they can be checked against numbers worked
out by hand and property-tested; the web app gathers the records (companion.services.groups).
Every game kind played in rounds is won with the lowest total, so a lower total is a better place;
a game without points (Play or Pay) is placed by its results instead, the most chips first.
Only finished games count in standings, head-to-head and ratings; money counts every game's
settled results (a pot is paid out only at the end of its game).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import ThurstoneMostellerFull

from engine.errors import EngineError

INITIAL_MU = 25.0
"""Every player's rating before their first finished game (openskill's default)."""
EXACT_SETTLE_LIMIT = 15
"""Up to this many non-zero balances the settle-up is the proven fewest payments (2^n subsets)."""


class SettleError(EngineError):
    """Balances that cannot be settled (they do not sum to zero)."""


@dataclass(frozen=True)
class PlayedGame:
    """One game of a group as the statistics see it.

    `totals` are the final points of a game played in rounds (empty for a game without points);
    `money` each player's result in cents (positive: received); `rounds` the rounds played;
    `ranks` place a game without points (lower is better: Play or Pay gives minus the chips won).
    """

    id: str
    players: tuple[str, ...]
    finished: bool
    totals: Mapping[str, int] = field(default_factory=dict)
    rounds: int = 0
    money: Mapping[str, int] = field(default_factory=dict)
    ranks: Mapping[str, int] = field(default_factory=dict)

    @property
    def order(self) -> Mapping[str, int]:
        """What places the players, lower better: the totals, or the ranks of a game without points."""
        return self.totals or self.ranks

    @property
    def scored(self) -> bool:
        """Whether the game counts in standings, head-to-head and ratings."""
        return self.finished and bool(self.order)

    @property
    def winners(self) -> tuple[str, ...]:
        """The players placed first: the lowest total or rank (several when they tie).

        >>> PlayedGame("g", ("Ann", "Bob"), True, money={"Ann": 5, "Bob": -5}, ranks={"Ann": -5, "Bob": 5}).winners
        ('Ann',)
        """
        if not self.order:
            return ()
        best = min(self.order.values())
        return tuple(name for name in self.players if self.order[name] == best)


@dataclass(frozen=True)
class Standing:
    """A player's lifetime line: finished games, wins, and totals (lower is better)."""

    name: str
    games: int
    wins: int
    points: int
    rounds: int
    best: int | None
    worst: int | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def points_per_round(self) -> float | None:
        return self.points / self.rounds if self.rounds else None


@dataclass(frozen=True)
class Record:
    """One player's results against another: won, lost and tied."""

    won: int = 0
    lost: int = 0
    tied: int = 0


@dataclass(frozen=True)
class Rating:
    """A skill estimate after a game: `mu` and its uncertainty `sigma`."""

    game: str
    mu: float
    sigma: float


@dataclass(frozen=True)
class Payment:
    """`payer` pays `payee` `cents`."""

    payer: str
    payee: str
    cents: int


def standings(members: Sequence[str], games: Sequence[PlayedGame]) -> tuple[Standing, ...]:
    """Each member's line over the finished games, in member order; a shared win counts for each winner.

    >>> one = PlayedGame("g1", ("Ann", "Bob"), True, {"Ann": 10, "Bob": 10}, 2)
    >>> [(s.name, s.games, s.wins, s.points_per_round) for s in standings(["Ann", "Bob", "Cy"], [one])]
    [('Ann', 1, 1, 5.0), ('Bob', 1, 1, 5.0), ('Cy', 0, 0, None)]
    """
    lines = []
    for name in members:
        played = [game for game in games if game.scored and name in game.order]
        scores = [game.totals[name] for game in played if name in game.totals]
        lines.append(
            Standing(
                name=name,
                games=len(played),
                wins=sum(name in game.winners for game in played),
                points=sum(scores),
                rounds=sum(game.rounds for game in played),
                best=min(scores, default=None),
                worst=max(scores, default=None),
            )
        )
    return tuple(lines)


def head_to_head(members: Sequence[str], games: Sequence[PlayedGame]) -> dict[str, dict[str, Record]]:
    """For every pair, the finished games both played: won (lower total), lost, tied.

    >>> one = PlayedGame("g1", ("Ann", "Bob", "Cy"), True, {"Ann": 3, "Bob": 9, "Cy": 3}, 1)
    >>> h2h = head_to_head(["Ann", "Bob", "Cy"], [one])
    >>> h2h["Ann"]["Bob"], h2h["Bob"]["Ann"], h2h["Ann"]["Cy"]
    (Record(won=1, lost=0, tied=0), Record(won=0, lost=1, tied=0), Record(won=0, lost=0, tied=1))
    """
    table: dict[str, dict[str, Record]] = {name: {} for name in members}
    for name, other in itertools.permutations(members, 2):
        won = lost = tied = 0
        for game in games:
            if not game.scored or name not in game.order or other not in game.order:
                continue
            mine, theirs = game.order[name], game.order[other]
            won += mine < theirs
            lost += mine > theirs
            tied += mine == theirs
        table[name][other] = Record(won, lost, tied)
    return table


def ratings(members: Sequence[str], games: Sequence[PlayedGame]) -> dict[str, tuple[Rating, ...]]:
    """Each member's rating after every finished game they played, oldest first.

    The Thurstone-Mosteller model (openskill) rates players who tie as tied: two players sharing
    first place end above the one behind them (Plackett-Luce does not always, per the issue).
    A member who has played no finished game has no rating yet.

    >>> game = PlayedGame("g1", ("Ann", "Bob", "Cy"), True, {"Ann": 5, "Bob": 5, "Cy": 40}, 1)
    >>> after = {name: history[-1].mu for name, history in ratings(["Ann", "Bob", "Cy"], [game]).items()}
    >>> after["Ann"] == after["Bob"] > after["Cy"]
    True
    """
    model = ThurstoneMostellerFull(mu=INITIAL_MU)
    current = {name: model.rating(name=name) for name in members}
    history: dict[str, list[Rating]] = {name: [] for name in members}
    for game in games:
        if not game.scored:
            continue
        seated = [name for name in game.players if name in current]
        if len(seated) < 2:
            continue
        teams = [[current[name]] for name in seated]
        rated = model.rate(teams, ranks=[game.order[name] for name in seated])
        for name, (rating,) in zip(seated, rated, strict=True):
            current[name] = rating
            history[name].append(Rating(game.id, rating.mu, rating.sigma))
    return {name: tuple(entries) for name, entries in history.items()}


def money(members: Sequence[str], games: Sequence[PlayedGame]) -> dict[str, int]:
    """Each member's balance in cents over every game's money (positive: owed to them).

    >>> money(["Ann", "Bob"], [PlayedGame("g", ("Ann", "Bob"), True, money={"Ann": 35, "Bob": -35})])
    {'Ann': 35, 'Bob': -35}
    """
    balances = dict.fromkeys(members, 0)
    for game in games:
        for name, cents in game.money.items():
            balances[name] = balances.get(name, 0) + cents
    return balances


def settle_up(balances: Mapping[str, int]) -> tuple[Payment, ...]:
    """The fewest payments that bring every balance to zero (positive: owed money).

    The players are split into as many groups whose balances sum to zero as possible; each group
    of k settles in k - 1 payments, largest debt to largest credit. So there are never more
    payments than non-zero balances less one. Past EXACT_SETTLE_LIMIT non-zero balances the
    players are settled as one group (still at most n - 1 payments).

    >>> settle_up({"Ann": 30, "Bob": -10, "Cy": -20})
    (Payment(payer='Cy', payee='Ann', cents=20), Payment(payer='Bob', payee='Ann', cents=10))
    >>> settle_up({"Ann": 5, "Bob": -10, "Cy": 10, "Dee": -5})
    (Payment(payer='Dee', payee='Ann', cents=5), Payment(payer='Bob', payee='Cy', cents=10))
    >>> settle_up({"Ann": 1})
    Traceback (most recent call last):
    ...
    engine.groups.SettleError: the balances do not sum to zero (they sum to 1 cents)
    """
    total = sum(balances.values())
    if total:
        raise SettleError(f"the balances do not sum to zero (they sum to {total} cents)")
    names = sorted(name for name, cents in balances.items() if cents)
    payments: list[Payment] = []
    for group in _zero_sum_groups(names, balances):
        payments.extend(_settle_group({name: balances[name] for name in group}))
    return tuple(payments)


def _zero_sum_groups(names: Sequence[str], balances: Mapping[str, int]) -> list[list[str]]:
    """The most groups of players whose balances each sum to zero (exact up to EXACT_SETTLE_LIMIT)."""
    count = len(names)
    if count == 0:
        return []
    if count > EXACT_SETTLE_LIMIT:
        return [list(names)]
    full = (1 << count) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + balances[names[low]]
    # most[mask]: the most zero-sum groups the players of `mask` split into, removing one at a time.
    most = [0] * (full + 1)
    for mask in range(1, full + 1):
        best = max(most[mask & ~(1 << bit)] for bit in range(count) if mask >> bit & 1)
        most[mask] = best + (sums[mask] == 0)
    chain = [full]
    while chain[-1]:
        mask = chain[-1]
        chain.append(max((mask & ~(1 << bit) for bit in range(count) if mask >> bit & 1), key=lambda m: most[m]))
    zero_masks = [mask for mask in chain if sums[mask] == 0 and mask] + [0]
    return [
        [names[bit] for bit in range(count) if (outer & ~inner) >> bit & 1]
        for outer, inner in itertools.pairwise(zero_masks)
    ]


def _settle_group(balances: Mapping[str, int]) -> list[Payment]:
    """Settle players whose balances sum to zero in at most (players - 1) payments."""
    owed = dict(balances)
    payments = []
    while any(owed.values()):
        payer = min(owed, key=lambda name: (owed[name], name))
        payee = max(owed, key=lambda name: (owed[name], name))
        cents = min(-owed[payer], owed[payee])
        payments.append(Payment(payer, payee, cents))
        owed[payer] += cents
        owed[payee] -= cents
    return payments
