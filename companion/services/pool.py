"""Pool rummy (RULES.md 11): a knock-out game of deals, rejoins and a pot, kept as events.

Like Play or Pay, nothing computed is stored: a game is its events ("deal", "rejoin", "end"),
replayed through the engine (`engine.pool.game`) every time it is read, so an undo of the last
event leaves every total, the pot and who is out consistent. A step the engine refuses is
answered with its sentence and nothing is stored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from companion.errors import InvalidInput, NotFound
from companion.models import Game, GameEvent, utc_now
from companion.services.store import (
    PRESETS,
    GameSummary,
    VariantChoice,
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
from companion.services.store import variant_choices as store_variant_choices
from engine.errors import EngineError
from engine.pool import game as pool_game
from engine.pool.cut import PoolDeal, deal_by_cut, deal_by_wild
from engine.pool.deal import parse_result, result_points
from engine.pool.errors import Refusal
from engine.rules import EliminatedAt, OptionSpec, RuleSet, rule_set

KIND = "pool"
"""The preset kind (engine.rules.Preset.kind) of pool rummy: pool-101 and pool-201."""
BUY_IN_KEY = "buy_in"
"""The one money setting, given among the options and stored apart from them (cents)."""
MAX_BUY_IN = 100_000_00
"""The largest buy-in the app takes (cents): 100,000.00."""
MAX_EVENTS = 1_000
"""The most events (deals, rejoins, the end) a game may hold: far more than any table plays."""
EVENT_KINDS = ("deal", "rejoin", "end")
SPLITS = ("drops", "equal", "amounts")
NOT_POOL = "only a pool rummy game takes deals, rejoins and splits"


def is_pool(game: object) -> bool:
    """Whether a game (or a stand-in with its variant) is a pool rummy game."""
    return preset_kind(getattr(game, "variant", None)) == KIND


def rules_of(game: Game) -> RuleSet:
    return engine_call(rule_set, game.variant, dict(game.options or {}))


def buy_in_of(game: Game) -> int:
    return int((game.money or {}).get(BUY_IN_KEY, 0))


def verify_buy_in(value: object) -> int:
    if not isinstance(value, int) or not is_whole(value) or not 0 <= value <= MAX_BUY_IN:
        raise InvalidInput(f'Buy-in: a whole number of cents from 0 to {MAX_BUY_IN}, not "{value}"')
    return value


def create_pool(
    variant: object,
    players: object,
    options: object,
    first_dealer: object,
    first_dealer_method: object = None,
    scorekeeper: object = None,
) -> tuple[Game, str]:
    """Start a pool game: its house options (RULES.md 11.5) and its buy-in (cents, among the options)."""
    if not isinstance(variant, str) or preset_kind(variant) != KIND:
        raise InvalidInput("variant must be pool-101 or pool-201")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidInput("options must be an object of house options and the buy-in")
    rule_options = {key: value for key, value in options.items() if key != BUY_IN_KEY}
    buy_in = verify_buy_in(options.get(BUY_IN_KEY, 0))
    rules: RuleSet = engine_call(rule_set, variant, rule_options)
    names = clean_players(players, rules.preset)
    seat, dealt_by = choose_first_dealer(rules.preset, names, first_dealer, first_dealer_method, scorekeeper)
    return store_new_game(rules.preset.id, rules.options_json(), names, seat, {BUY_IN_KEY: buy_in}, dealt_by)


# ---------------------------------------------------------------- the game replayed


@dataclass(frozen=True)
class DealRow:
    """One deal as the pages, the sheet and the API show it."""

    number: int
    dealer: str
    cut: str | None  # the card cut ("7H", "JK"), when the table entered it
    wild: str | None  # else the wild rank the table entered ("7", "A", "none"), if any
    results: dict[str, str | int]  # each player's result as entered ("win", "drop", 37, ...)
    points: dict[str, int]  # what each result scored
    totals: dict[str, int]  # every player's total after the deal (and its rejoins)
    put_out: tuple[str, ...]  # players the deal put out
    rejoined: tuple[str, ...] = ()  # players who bought back in straight after it


@dataclass(frozen=True)
class Pool:
    """A pool game as the pages and the API show it: the engine's standings, the deals played,
    and the stored game's id, version and date."""

    id: str
    variant: str
    standings: pool_game.Standings
    deals: tuple[DealRow, ...]
    version: int
    created_at: datetime
    events: int

    @property
    def rules(self) -> RuleSet:
        return self.standings.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.standings.players

    @property
    def finished(self) -> bool:
        return self.standings.over

    @property
    def dealer(self) -> str | None:
        seat = self.standings.dealer
        return None if seat is None else self.players[seat]

    def drops_left(self) -> dict[str, int]:
        game = self.standings
        return {game.players[seat]: pool_game.drops_left(game, seat) for seat in game.seats_in}

    def rejoin_offers(self) -> dict[str, str | None]:
        """Each player the last deal put out: None when they may rejoin now, else why not (a sentence)."""
        game = self.standings
        offers: dict[str, str | None] = {}
        for seat in sorted(game.put_out):
            refusal = pool_game.refusal_rejoin(game, game.players[seat])
            offers[game.players[seat]] = None if refusal is None else str(refusal)
        return offers

    @property
    def rejoin_total(self) -> int:
        """The total a player rejoining now comes back at."""
        return self.standings.stayed_high + 1

    def suggested_splits(self) -> dict[str, dict[str, int] | None]:
        """The split by drops (None when refused) and the equal split, by player still in."""
        game = self.standings
        if game.over or len(game.seats_in) < 2:
            return {}
        by_drops = pool_game.split_by_drops(game)
        equal = pool_game.split_equally(game)

        def named(shares: tuple[int, ...] | None) -> dict[str, int] | None:
            return None if shares is None else {game.players[seat]: shares[seat] for seat in game.seats_in}

        return {"drops": named(by_drops), "equal": named(equal)}

    def as_json(self) -> dict[str, Any]:
        """The game state of the API contract for pool rummy (the standings of RULES.md 11.6, and the deals)."""
        game = self.standings
        names = game.players
        nets = game.nets
        return {
            "id": self.id,
            "variant": self.variant,
            "options": {**self.rules.options_json(), BUY_IN_KEY: game.buy_in},
            "players": list(names),
            "first_dealer": names[game.first_dealer],
            "totals": dict(zip(names, game.totals, strict=True)),
            "in": [names[seat] for seat in game.seats_in],
            "out": list(game.out_names),
            "rejoins": dict(zip(names, game.rejoins, strict=True)),
            "drops_left": self.drops_left(),
            "pot": game.pot,
            "paid": dict(zip(names, game.paid, strict=True)),
            "dealer": self.dealer,
            "winner": None if game.winner is None else names[game.winner],
            "split": None
            if game.split is None
            else {"method": game.split[0], "shares": {names[seat]: game.split[1][seat] for seat in game.seats_in}},
            "nets": None if nets is None else dict(zip(names, nets, strict=True)),
            "may_rejoin": self.rejoin_offers(),
            "deals": [deal_json(row) for row in self.deals],
            "events": self.events,
            "finished": self.finished,
            "version": self.version,
        }


def deal_json(row: DealRow) -> dict[str, Any]:
    return {
        "number": row.number,
        "dealer": row.dealer,
        "cut": row.cut,
        "wild": row.wild,
        "results": row.results,
        "points": row.points,
        "totals": row.totals,
        "put_out": list(row.put_out),
        "rejoined": list(row.rejoined),
    }


def _apply(game: pool_game.Standings, kind: str, data: Mapping[str, Any]) -> pool_game.Standings:
    if kind == "deal":
        return pool_game.play_deal(game, data["results"])
    if kind == "rejoin":
        return pool_game.rejoin(game, str(data["player"]))
    return pool_game.end_game(game, str(data["split"]), data.get("shares"))


def _deal_row(before: pool_game.Standings, after: pool_game.Standings, data: Mapping[str, Any]) -> DealRow:
    names = before.players
    results = dict(data["results"])
    points = {name: result_points(before.rules, parse_result(value)) for name, value in results.items()}
    dealer = before.dealer
    return DealRow(
        number=after.deals,
        dealer=names[dealer] if dealer is not None else "",
        cut=data.get("cut"),
        wild=data.get("wild"),
        results=results,
        points=points,
        totals=dict(zip(names, after.totals, strict=True)),
        put_out=tuple(name for seat, name in enumerate(names) if seat in after.out and seat not in before.out),
    )


def replay(game: Game, extra: tuple[str, dict[str, Any]] | None = None) -> Pool:
    """Rebuild a pool game by replaying its events through the engine (and `extra`, a new one, if given).

    A refused step raises InvalidInput with the engine's sentence; stored events are never refused.
    """
    if not is_pool(game):
        raise InvalidInput(NOT_POOL)
    standings = pool_game.start(rules_of(game), game.players, buy_in_of(game), game.first_dealer)
    steps = [(event.kind, event.data) for event in game.events]
    if extra is not None:
        steps.append(extra)
    rows: list[DealRow] = []
    for kind, data in steps:
        try:
            after = _apply(standings, kind, data)
        except Refusal as refusal:
            raise InvalidInput(str(refusal)) from refusal
        if kind == "deal":
            rows.append(_deal_row(standings, after, data))
        elif kind == "rejoin" and rows:
            rejoined = (*rows[-1].rejoined, str(data["player"]))
            rows[-1] = replace(rows[-1], rejoined=rejoined, totals=dict(zip(after.players, after.totals, strict=True)))
        standings = after
    return Pool(
        id=game.id,
        variant=game.variant,
        standings=standings,
        deals=tuple(rows),
        version=game.version,
        created_at=game.created_at,
        events=len(steps),
    )


# ---------------------------------------------------------------- writes


def _record(game: Game, kind: str, data: dict[str, Any], expected_version: object) -> Pool:
    """Store one event after the engine accepts it; nothing is stored when it is refused."""
    check_version(game, expected_version)
    if len(game.events) >= MAX_EVENTS:
        raise InvalidInput(f"a game holds at most {MAX_EVENTS} deals, rejoins and splits")
    after = replay(game, (kind, data))
    game.events.append(GameEvent(number=len(game.events) + 1, kind=kind, data=data))
    game.finished = after.finished
    game.updated_at = utc_now()
    commit()
    return replay(game)


def deal_cut(game: Game, cut: object, wild: object) -> dict[str, str]:
    """What the table entered of the deal's cut joker, checked and in canonical notation: the card
    cut (``{"cut": "7H"}``, ``{"cut": "JK"}``), or only the wild rank (``{"wild": "7"}``), or nothing."""
    if cut is not None and wild is not None:
        raise InvalidInput("give the card cut or the wild rank, not both")
    if cut is not None:
        if not isinstance(cut, str):
            raise InvalidInput('cut must be a card such as "7H", or "JK" for a printed joker')
        deal: PoolDeal = engine_call(deal_by_cut, rules_of(game), cut)
        return {"cut": str(deal.cut)}
    if wild is not None:
        if not isinstance(wild, str):
            raise InvalidInput('wild must be a rank such as "7" or "A", or "none"')
        deal = engine_call(deal_by_wild, rules_of(game), wild)
        return {"wild": "none" if deal.wild_rank is None else deal.wild_rank.token}
    return {}


def add_deal(
    game: Game, results: object, cut: object = None, expected_version: object = None, wild: object = None
) -> Pool:
    """Record one deal: a result for every player still in (RULES.md 11.3), and the cut joker if given."""
    if not is_pool(game):
        raise InvalidInput(NOT_POOL)
    if not isinstance(results, dict) or not all(isinstance(name, str) for name in results):
        raise InvalidInput(
            'results must be an object of each player\'s result: "win", "drop", "middle", "full", "wrong" or a count'
        )
    data: dict[str, Any] = {"results": parsed_results(results), **deal_cut(game, cut, wild)}
    return _record(game, "deal", data, expected_version)


def parsed_results(results: Mapping[str, object]) -> dict[str, str | int]:
    """Each player's result as stored ("win", "drop", 37, ...); a bad one is refused naming the player."""
    parsed: dict[str, str | int] = {}
    for name, value in results.items():
        try:
            parsed[name] = parse_result(value).to_json()
        except EngineError as error:
            raise InvalidInput(f"{name}: {error}") from error
    return parsed


def rejoin(game: Game, player: object, expected_version: object = None) -> Pool:
    """A player put out by the last deal buys back in (D-PR13)."""
    if not isinstance(player, str):
        raise InvalidInput("player must be the name of a player who is out")
    return _record(game, "rejoin", {"player": player.strip()}, expected_version)


def end(game: Game, split: object, shares: object = None, expected_version: object = None) -> Pool:
    """Every player still in agrees to split the pot (D-PR15): by drops, equally, or typed amounts."""
    if split not in SPLITS:
        raise InvalidInput('split must be "drops", "equal" or "amounts"')
    data: dict[str, Any] = {"split": split}
    if split == "amounts":
        if not isinstance(shares, dict):
            raise InvalidInput("shares must be an object of cents by the name of each player still in")
        data["shares"] = shares
    elif shares is not None:
        raise InvalidInput('shares go only with the split "amounts"')
    return _record(game, "end", data, expected_version)


def undo_last(game: Game, expected_version: object = None) -> None:
    """Take back the last deal, rejoin or split. The version the phone saw is required."""
    replay(game)  # refuses a game of another kind
    if not game.events:
        raise NotFound("there is no deal to undo yet")
    require_version(game, expected_version)
    game.events.remove(game.events[-1])
    game.finished = replay(game).finished
    game.updated_at = utc_now()
    commit()


# ---------------------------------------------------------------- reads


def state_json(game: Game) -> dict[str, Any]:
    return replay(game).as_json()


def summary(game: Game) -> GameSummary:
    """A pool line of the games list: the deals played so far."""
    return GameSummary(
        id=game.id,
        name=PRESETS[game.variant].name,
        variant=game.variant,
        players=tuple(game.players),
        rounds_played=sum(1 for event in game.events if event.kind == "deal"),
        total_rounds=0,
        finished=bool(game.finished),
        created_at=game.created_at,
    )


# ---------------------------------------------------------------- events as the app writes them


def canonical_event(game: Game, kind: object, data: object) -> dict[str, Any]:
    """An event's data as `add_deal`, `rejoin` and `end` store it; InvalidInput when it is not one.

    An import compares each event with this form, so a file holds only what the app could have written.
    """
    if kind not in EVENT_KINDS:
        raise InvalidInput(f'"{str(kind)[:20]}" is not a kind of pool event: deal, rejoin or end')
    if not isinstance(data, dict):
        raise InvalidInput("an event's data must be an object")
    fields = {"deal": {"results", "cut", "wild"}, "rejoin": {"player"}, "end": {"split", "shares"}}[str(kind)]
    unknown = sorted(set(data) - fields)
    if unknown:
        raise InvalidInput(f'a {kind} has no field "{str(unknown[0])[:40]}"')
    if kind == "deal":
        results = data.get("results")
        if not isinstance(results, dict):
            raise InvalidInput("a deal needs results: one for every player still in")
        return {"results": parsed_results(results), **deal_cut(game, data.get("cut"), data.get("wild"))}
    if kind == "rejoin":
        player = data.get("player")
        if not isinstance(player, str):
            raise InvalidInput("a rejoin needs the player who buys back in")
        return {"player": player}
    split = data.get("split")
    if split not in SPLITS:
        raise InvalidInput('split must be "drops", "equal" or "amounts"')
    if split != "amounts":
        if "shares" in data:
            raise InvalidInput('shares go only with the split "amounts"')
        return {"split": split}
    if not isinstance(data.get("shares"), dict):
        raise InvalidInput("shares must be an object of cents by the name of each player still in")
    return {"split": split, "shares": data["shares"]}


def verify_replay(game: Game) -> None:
    """Replay a game's events once; a step the rules refuse raises InvalidInput naming the event (from 1)."""
    standings = pool_game.start(rules_of(game), game.players, buy_in_of(game), game.first_dealer)
    for number, event in enumerate(game.events, start=1):
        try:
            standings = _apply(standings, event.kind, event.data)
        except Refusal as refusal:
            raise InvalidInput(f"event {number} ({event.kind}) is refused: {refusal}") from refusal


# ---------------------------------------------------------------- the pages (companion/pool, the new-game form)


def variant_choices() -> tuple[VariantChoice, ...]:
    """Pool Rummy 101 and 201 as the new-game page offers them."""
    return store_variant_choices(KIND)


def preset_defaults(variant: str) -> dict[str, Any]:
    """The preset's default house options as JSON values (for the new-game form)."""
    rules: RuleSet = engine_call(rule_set, variant, {})
    return rules.options_json()


def option_specs(variant: str) -> dict[str, OptionSpec]:
    """The preset's house options (RULES.md 11.5) for the new-game form, named in the preset's own numbers:
    "Out at 101 or more", "Rejoin only while the highest total still in is at most 79"."""
    rules: RuleSet = engine_call(rule_set, variant, {})
    options = rules.options
    limit = options.pool_limit
    words = {
        "pool_limit": ("Pool limit", f"A player whose total reaches {limit} is out."),
        "eliminated_at": ("Who is out", f"Out at {limit} or more, or only above {limit}."),
        "first_drop": ("First drop, points", f"Giving up before drawing a first card scores {options.first_drop}."),
        "middle_drop": ("Middle drop, points", f"Giving up later, before anyone shows, scores {options.middle_drop}."),
        "full_count": ("Full count, points", f"Giving up after the show scores {options.full_count}; no count more."),
        "wrong_show": ("Wrong show, points", f"A show that is not valid scores {options.wrong_show}."),
        "rejoin_cutoff": (
            "Rejoin cutoff",
            f"Rejoin only while the highest total still in is at most {options.rejoin_cutoff}; "
            "type off to allow it always.",
        ),
        "max_rejoins": ("Rejoins per player", "How many times a player may buy back in: a number, or unlimited."),
        "max_drops": ("Drops per player", "First and middle drops together in a game: a number, or unlimited."),
        "jokers_per_deck": ("Printed jokers per deck", "0, 1 or 2 in each of the two decks."),
        "cut_joker": ("Cut a joker each deal", "A card is cut after the deal and every card of its rank is wild."),
        "printed_joker_cut": ("When a printed joker is cut", "The aces become wild, or only the printed jokers are."),
        "long_sets": ("Long sets", "A set may hold more than four cards; its natural cards show different suits."),
        "wild_limit": ("Wild cards per meld", "Any number, or at least one card standing for itself."),
        "split": ("Suggested split", "How the companion suggests sharing the pot when the table agrees to split."),
    }
    labels = {
        "eliminated_at": (f"Out at {limit} or more", f"Out only above {limit}"),
        "printed_joker_cut": ("The aces are wild", "Only the printed jokers are wild"),
        "split": ("By drops left", "Equally"),
    }
    specs: dict[str, OptionSpec] = {}
    for spec in rules.option_specs():
        title, effect = words.get(spec.key, (spec.title, spec.effect))
        specs[spec.key] = replace(spec, title=title, effect=effect, labels=labels.get(spec.key, spec.labels))
    return specs


MONEY_TEXT = re.compile(r"^\s*[$€£₹]?\s*(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?\s*$")


def money_cents(text: object, what: str) -> int:
    """Money typed as a table writes it ("5", "5.00", "$5.50", "1,000") in cents; InvalidInput naming `what`.

    >>> money_cents("5", "Buy-in"), money_cents("$1,250.5", "Buy-in"), money_cents(" 0.05 ", "Buy-in")
    (500, 125050, 5)
    """
    found = MONEY_TEXT.match(str(text)) if isinstance(text, str) and len(text) <= 24 else None
    if found is None:
        raise InvalidInput(f'{what}: an amount of money such as 5.00, not "{str(text)[:24]}"')
    whole, fraction = found.group(1).replace(",", ""), (found.group(2) or "").ljust(2, "0")
    return int(whole) * 100 + int(fraction)


def out_at(pool: Pool) -> int:
    """The lowest total that puts a player out (D-PR12): the limit, or one above it with eliminated_at=pass."""
    options = pool.rules.options
    return options.pool_limit + (1 if options.eliminated_at is EliminatedAt.PASS else 0)


def limit_words(pool: Pool) -> str:
    """The limit in words: "Out at 101 or more", or "Out only above 101"."""
    limit = pool.rules.options.pool_limit
    return f"Out at {limit} or more" if out_at(pool) == limit else f"Out only above {limit}"
