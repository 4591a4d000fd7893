"""What the pool page shows, worked out from the replayed game (companion.services.pool.Pool): each
number with the sentence that explains it, in the table's words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.models import Game
from companion.services.pool import Pool, limit_words, out_at
from companion.services.pot import format_cents


@dataclass(frozen=True)
class PlayerRow:
    name: str
    seat: int
    total: int
    is_in: bool
    to_go: int | None  # points before the player is out (None when out)
    to_go_why: str
    drops_left: int | None
    drops_why: str
    rejoins: int
    paid: int
    deals_next: bool


@dataclass(frozen=True)
class Offer:
    name: str
    allowed: bool
    sentence: str  # "Ben may rejoin at 36 for $5.00", or why not
    why: str  # how the total comes


@dataclass(frozen=True)
class NetRow:
    name: str
    paid: int
    took: int
    net: int


@dataclass(frozen=True)
class PoolPage:
    pool: Pool
    rows: tuple[PlayerRow, ...]
    offers: tuple[Offer, ...]
    pot_why: str
    limit_words: str
    split_by_drops: dict[str, int] | None
    split_refused: str
    split_equal: dict[str, int]
    names_in: tuple[str, ...]
    nets: tuple[NetRow, ...]
    end_words: str
    last_event: str  # what Undo takes back, in words ("" when nothing)
    next_deal: int


def _drops_why(pool: Pool, seat: int, left: int) -> str:
    options = pool.rules.options
    total = pool.standings.totals[seat]
    first = options.first_drop
    room = f"{out_at(pool)} − 1 − {total}"
    text = f"({room}) ÷ {first} = {left}, rounded down" if first > 0 else f"a first drop scores nothing, so {left}"
    if options.max_drops is not None:
        used = pool.standings.drops[seat]
        text += f"; at most {options.max_drops} drops a game, {used} used"
    return text


def _row(pool: Pool, seat: int, drops: dict[str, int]) -> PlayerRow:
    game = pool.standings
    name = game.players[seat]
    total = game.totals[seat]
    limit = out_at(pool)
    is_in = seat not in game.out
    left = drops.get(name)
    out_why = f"out: {total} ≥ {limit}"
    return PlayerRow(
        name=name,
        seat=seat,
        total=total,
        is_in=is_in,
        to_go=limit - total if is_in else None,
        to_go_why=f"out at {limit}: {limit} − {total} = {limit - total}" if is_in else out_why,
        drops_left=left,
        drops_why=_drops_why(pool, seat, left) if left is not None else "",
        rejoins=game.rejoins[seat],
        paid=game.paid[seat],
        deals_next=pool.dealer == name,
    )


def _offers(pool: Pool) -> tuple[Offer, ...]:
    offers = []
    game = pool.standings
    cost = format_cents(game.buy_in)
    for name, refusal in pool.rejoin_offers().items():
        why = f"the highest total still in is {game.stayed_high}, plus 1"
        if refusal is None:
            offers.append(Offer(name, True, f"{name} may rejoin at {pool.rejoin_total} for {cost}", why))
        else:
            offers.append(Offer(name, False, f"{name} is out: {refusal}", why))
    return tuple(offers)


def _pot_why(pool: Pool) -> str:
    game = pool.standings
    players = len(game.players)
    rejoins = sum(game.rejoins)
    parts = f"{players} buy-ins" + (f" + {rejoins} rejoin{'s' if rejoins != 1 else ''}" if rejoins else "")
    return f"{parts} × {format_cents(game.buy_in)} = {format_cents(game.pot)}"


def _end_words(pool: Pool) -> str:
    game = pool.standings
    if not game.over:
        return ""
    if game.winner is not None:
        return f"{game.players[game.winner]} is the last player left and takes the pot of {format_cents(game.pot)}."
    method = game.split[0] if game.split else ""
    how = {"drops": "by drops left", "equal": "equally", "amounts": "in the amounts the table typed"}.get(method, "")
    names = ", ".join(game.players[seat] for seat in game.seats_in)
    return f"The table split the pot of {format_cents(game.pot)} {how}: {names} agreed."


def _last_event(game: Game, pool: Pool) -> str:
    if not game.events:
        return ""
    event = game.events[-1]
    if event.kind == "rejoin":
        return f"{event.data.get('player')}'s rejoin"
    if event.kind == "end":
        return "the split" if pool.standings.split else "the end"
    return f"deal {len(pool.deals)}"


def build(game: Game, pool: Pool) -> PoolPage:
    state = pool.standings
    drops = pool.drops_left()
    splits: dict[str, Any] = pool.suggested_splits()
    nets = state.nets
    net_rows: tuple[NetRow, ...] = ()
    if nets is not None:
        net_rows = tuple(
            NetRow(name, state.paid[seat], state.taken[seat], nets[seat]) for seat, name in enumerate(state.players)
        )
    return PoolPage(
        pool=pool,
        rows=tuple(_row(pool, seat, drops) for seat in range(len(state.players))),
        offers=_offers(pool),
        pot_why=_pot_why(pool),
        limit_words=limit_words(pool),
        split_by_drops=splits.get("drops"),
        split_refused="" if splits.get("drops") else "the split by drops would leave less than one buy-in to share",
        split_equal=splits.get("equal") or {},
        names_in=tuple(state.players[seat] for seat in state.seats_in),
        nets=net_rows,
        end_words=_end_words(pool),
        last_event=_last_event(game, pool),
        next_deal=len(pool.deals) + 1,
    )
