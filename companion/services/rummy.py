"""Games played in rounds (Pay Me, Three Thirteen, 3-13): the game view, and scoring, correcting
and undoing rounds.

Views and the JSON API both go through these functions, so a page and the API always agree.
Every rule fact (schedule, wild cards, dealer, scoring, winners) comes from `engine`; this
module only stores and arranges it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from companion.bounds import HISTORY_PAGE, pages_for
from companion.errors import InvalidInput, NotFound
from companion.extensions import db
from companion.models import Game, Round, RoundRevision, utc_now
from companion.services import contract, disputes, pot, seating
from companion.services.contract import Fan
from companion.services.pot import PotView
from companion.services.sheets import KNOCKING_VARIANTS
from companion.services.store import (
    ROUNDS_KIND,
    GameSummary,
    VariantChoice,
    check_version,
    choose_first_dealer,
    clean_players,
    commit,
    engine_call,
    not_in_rounds,
    preset_kind,
    require_version,
    rules_for,
    store_new_game,
    suit_faces,
)
from companion.services.store import variant_choices as store_variant_choices
from engine import seating as seats
from engine.rules import OptionSpec, Preset, RuleSet
from engine.schedule import RoundInfo, round_info, schedule
from engine.scoring import (
    Standing,
    round_points,
    standings,
    totals,
    verify_round_scores,
    verify_within_hand,
    winners,
)

KIND = ROUNDS_KIND
JOKER_SYMBOL = "🃏"
ROUNDS_REFUSED = "Play or Pay is played in hands, not rounds"


# ---------------------------------------------------------------- view models


@dataclass(frozen=True)
class WildCard:
    """A wild card as the pages show it: a joker, or a rank in every suit."""

    token: str
    symbol: str
    is_joker: bool


@dataclass(frozen=True)
class RoundPlan:
    """What the table needs to know to deal and play a round."""

    number: int
    cards: int
    wild_tokens: tuple[str, ...]
    wild_words: str
    wild_cards: tuple[WildCard, ...]
    multiplier: int
    dealer: str
    first_player: str
    decks: int
    jokers: int
    discard_pile: str = ""  # how to start the discard pile, the engine's words (RULES.md 5)
    contract: tuple[str, ...] = ()  # Contract Rummy: the deal's melds, "set" and "run" (empty elsewhere)
    contract_words: str = ""
    no_final_discard: bool = False  # Contract Rummy's last deal: going out needs no discard
    suits: tuple[tuple[str, str], ...] = ()  # the deck's suits a wild rank stands in: symbol, colour class

    @property
    def has_stars(self) -> bool:
        """Whether the deck has stars (Five Crowns): the page then loads their colour (css/stars.css)."""
        return any(tone == "star" for _symbol, tone in self.suits)

    @property
    def contract_fans(self) -> tuple[Fan, ...]:
        return contract.contract_fans(self.contract)

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "cards": self.cards,
            "wild": list(self.wild_tokens),
            "multiplier": self.multiplier,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "decks": self.decks,
            "jokers": self.jokers,
            **self.contract_json(),
        }

    def contract_json(self) -> dict[str, Any]:
        """The deal's contract for the API, left out for games without contracts."""
        if not self.contract:
            return {}
        return {"contract": list(self.contract), "no_final_discard": self.no_final_discard}


@dataclass(frozen=True)
class PlayedRound:
    """A scored round: card points entered and sheet points after the multiplier."""

    plan: RoundPlan
    went_out: str
    scores: dict[str, int]
    points: dict[str, int]
    corrected: bool
    hands: dict[str, str] | None = None  # the cards entered, when the engine scored them (issue 5)
    buys: dict[str, int] | None = None  # Contract Rummy: buys made in the deal
    exact_cut: str | None = None  # Contract Rummy: who cut exactly (their points include the bonus)

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.plan.number,
            "cards": self.plan.cards,
            "wild": list(self.plan.wild_tokens),
            "multiplier": self.plan.multiplier,
            "dealer": self.plan.dealer,
            "went_out": self.went_out,
            "scores": dict(self.scores),
            "points": dict(self.points),
            **({"hands": dict(self.hands)} if self.hands else {}),
            **({"contract": list(self.plan.contract)} if self.plan.contract else {}),
            **contract.round_extras(self.buys, self.exact_cut),
        }


@dataclass(frozen=True)
class HistoryEntry:
    """Earlier values of a round, kept when it was corrected or undone."""

    number: int
    action: str
    went_out: str
    scores: dict[str, int]
    changed_at: datetime


@dataclass(frozen=True)
class OptionRow:
    key: str
    title: str
    value: str
    effect: str


@dataclass(frozen=True)
class GameView:
    """Everything a page or the API shows about a game, computed by the engine."""

    id: str
    variant: str
    name: str
    preset: Preset
    options: dict[str, Any]
    option_rows: tuple[OptionRow, ...]
    players: tuple[str, ...]
    total_rounds: int
    rounds: tuple[PlayedRound, ...]
    totals: dict[str, int]
    standings: tuple[Standing, ...]
    next_round: RoundPlan | None
    finished: bool
    winners: tuple[str, ...]
    history: tuple[HistoryEntry, ...]  # one page of it, the latest first (companion.bounds.HISTORY_PAGE)
    version: int
    created_at: datetime
    pot: PotView | None = None
    buys: dict[str, int] | None = None  # Contract Rummy: each player's buys in the deal being played
    buy_limit: int = 0
    exact_cut: bool = False  # whether the round form asks who cut exactly
    exact_cut_points: int = 0
    history_entries: int = 0  # in the whole history
    history_page: int = 1
    seated: tuple[str, ...] = ()  # the players of the next round (`players` holds everyone who sat down)
    left: tuple[str, ...] = ()  # the players who left the table (issue 27)
    player_changes: tuple[dict[str, Any], ...] = ()  # joins, leaves and renames, in order

    @property
    def start_preview(self) -> dict[str, int]:
        """What a late player would start from now: the highest and the average total at the table."""
        playing = {name: self.totals[name] for name in self.seated}
        return {choice.value: seats.start_points(choice.value, playing) for choice in seats.StartChoice}

    @property
    def last_player_change(self) -> str | None:
        """The last change of players that stands, in words (the one an undo takes back)."""
        standing = [change for change in self.player_changes if not change.get("undone_at")]
        return seating.change_words(standing[-1]) if standing else None

    @property
    def player_history(self) -> tuple[tuple[dict[str, Any], str], ...]:
        """The changes of players, the latest first, each with its words."""
        return tuple((change, seating.change_words(change)) for change in reversed(self.player_changes))

    @property
    def history_pages(self) -> int:
        return pages_for(self.history_entries, HISTORY_PAGE)

    @property
    def history_first(self) -> int:
        """The position of the page's first entry in the whole history (1 for the latest change)."""
        return (self.history_page - 1) * HISTORY_PAGE + 1

    @property
    def last_round(self) -> int:
        return len(self.rounds)

    @property
    def out_verb(self) -> str:
        return out_verb(self.variant)

    def as_json(self) -> dict[str, Any]:
        """The game state of the API contract."""
        return {
            "id": self.id,
            "variant": self.variant,
            "options": self.options,
            "players": list(self.seated or self.players),
            "rounds": [played.as_json() for played in self.rounds],
            "totals": dict(self.totals),
            "next_round": self.next_round.as_json() if self.next_round else None,
            "finished": self.finished,
            "winners": list(self.winners),
            "version": self.version,
            "pot": self.pot.as_json() if self.pot else None,
            **({"buys": dict(self.buys), "buy_limit": self.buy_limit} if self.buys is not None else {}),
            **self.seating_json(),
        }

    def seating_json(self) -> dict[str, Any]:
        """Who left and the changes of players, left out for a game whose players never changed."""
        if not self.player_changes:
            return {}
        return {"left": list(self.left), "player_changes": [_change_json(item) for item in self.player_changes]}


def _change_json(change: dict[str, Any]) -> dict[str, Any]:
    """A change of players for the API: its fields and its words."""
    return {**change, "words": seating.change_words(change)}


# ---------------------------------------------------------------- engine calls


def variant_choices() -> tuple[VariantChoice, ...]:
    """The games played in rounds, as the new-game page offers them."""
    return store_variant_choices(KIND)


def preset_defaults(variant: str) -> dict[str, Any]:
    """The preset's default options as JSON values (for the new-game form)."""
    return {**rules_for(variant, None).options_json(), **pot.pot_defaults(variant)}


def preset_option_specs(variant: str) -> dict[str, OptionSpec]:
    """The house-rule options the preset takes, for the new-game form."""
    return {spec.key: spec for spec in rules_for(variant, None).option_specs()}


def _wild_cards(info: RoundInfo) -> tuple[WildCard, ...]:
    return tuple(WildCard(token, JOKER_SYMBOL if token == "JK" else token, token == "JK") for token in info.wild_tokens)


def _plan(info: RoundInfo, seated: seats.Table, preset: Preset, dealer: str) -> RoundPlan:
    table = preset.table_for(len(seats.seated(seated, info.number)))
    return RoundPlan(
        number=info.number,
        cards=info.cards,
        wild_tokens=info.wild_tokens,
        wild_words=info.wild_words,
        wild_cards=_wild_cards(info),
        multiplier=info.multiplier,
        dealer=dealer,
        first_player=seats.next_player(seated, dealer, info.number),
        decks=table.decks,
        jokers=table.jokers,
        discard_pile=info.discard_pile,
        contract=contract.contract_kinds(info),
        contract_words=info.contract_words,
        no_final_discard=info.no_final_discard,
        suits=suit_faces(preset),
    )


def _played(stored: Round, plan: RoundPlan, table: seats.Table, corrected: set[int], rules: RuleSet) -> PlayedRound:
    players = seats.seated(table, stored.number)
    scores = {name: stored.scores[name] for name in players if name in stored.scores}
    points = contract.cut_points(round_points(scores, plan.multiplier), stored.exact_cut, rules)
    return PlayedRound(
        plan,
        stored.went_out,
        scores,
        points,
        stored.number in corrected,
        stored.hands,
        contract.buys_json(stored.buys, players) if stored.buys else None,
        stored.exact_cut,
    )


def _history(revision: RoundRevision, players: Sequence[str]) -> HistoryEntry:
    scores = {name: revision.scores[name] for name in players if name in revision.scores}
    return HistoryEntry(revision.number, revision.action, revision.went_out, scores, revision.changed_at)


def option_specs(rules: RuleSet) -> list[tuple[str, OptionSpec]]:
    """The preset's options with their specs, in the registry's order."""
    return [(spec.key, spec) for spec in rules.option_specs()]


def out_verb(variant: str) -> str:
    """What going out is called at this table: 3-13 says a player knocked.

    >>> out_verb("3-13"), out_verb("pay-me")
    ('knocked', 'went out')
    """
    return "knocked" if variant in KNOCKING_VARIANTS else "went out"


def _corrected_rounds(game: Game) -> set[int]:
    query = select(RoundRevision.number).where(RoundRevision.game_id == game.id, RoundRevision.action == "corrected")
    return set(db.session.scalars(query.distinct()))


def history_slice(game: Game, page: int = 1) -> tuple[list[RoundRevision], int, int]:
    """One page of a game's history, the latest first, with the number of entries in all and the
    page shown (clamped to the pages there are): a page costs the same however long the history."""
    count = db.session.scalar(select(func.count()).where(RoundRevision.game_id == game.id)) or 0
    page = max(1, min(page, pages_for(count, HISTORY_PAGE)))
    query = (
        select(RoundRevision)
        .where(RoundRevision.game_id == game.id)
        .order_by(RoundRevision.id.desc())
        .offset((page - 1) * HISTORY_PAGE)
        .limit(HISTORY_PAGE)
    )
    return list(db.session.scalars(query)), count, page


def build_view(game: Game, history_page: int = 1) -> GameView:
    """The state of a game, every rule fact from the engine, with one page of its history."""
    verify_rounds(game)
    rules = rules_for(game.variant, game.options)
    table = seating.table_of(game)
    players = seats.everyone(table)
    rounds = schedule(rules)
    plans = [
        _plan(info, table, rules.preset, who)
        for info, who in zip(rounds, seats.dealers(table, len(rounds)), strict=True)
    ]
    corrected = _corrected_rounds(game)
    revisions, history_entries, history_page = history_slice(game, history_page)
    played = tuple(_played(stored, plans[stored.number - 1], table, corrected, rules) for stored in game.rounds)
    starts = seating.start_points(game)
    running = {name: starts.get(name, 0) + total for name, total in totals(players, [p.points for p in played]).items()}
    finished = len(played) >= rules.rounds
    left = seats.left_players(table, len(played) + 1)
    playing = {name: total for name, total in running.items() if name not in left}
    options = rules.options_json()
    return GameView(
        id=game.id,
        variant=rules.preset.id,
        name=rules.preset.name,
        preset=rules.preset,
        options=pot.state_options(game, options),
        option_rows=tuple(
            OptionRow(key, spec.title, spec.label(options[key]), spec.effect) for key, spec in option_specs(rules)
        ),
        players=players,
        total_rounds=rules.rounds,
        rounds=played,
        totals=running,
        standings=tuple(standings(playing)) + tuple(Standing(0, name, running[name], False) for name in left),
        next_round=None if finished else plans[len(played)],
        finished=finished,
        winners=tuple(winners(playing)) if finished else (),
        history=tuple(_history(revision, players) for revision in revisions),
        history_entries=history_entries,
        history_page=history_page,
        seated=tuple(game.players),
        left=left,
        player_changes=tuple(seating.changes_of(game)),
        version=game.version,
        created_at=game.created_at,
        pot=pot.pot_view(game, playing, finished),
        buys=contract.current_buys(game) if contract.has_buying(rules) else None,
        buy_limit=contract.buy_limit(rules) if contract.has_buying(rules) else 0,
        exact_cut=contract.exact_cut_on(rules),
        exact_cut_points=contract.exact_cut_points() if contract.exact_cut_on(rules) else 0,
    )


# ---------------------------------------------------------------- reading


def summary(game: Game) -> GameSummary:
    """A line of the games list: the rounds played of all."""
    rules = rules_for(game.variant, game.options)
    return GameSummary(
        id=game.id,
        name=rules.preset.name,
        variant=game.variant,
        players=tuple(game.players),
        rounds_played=len(game.rounds),
        total_rounds=rules.rounds,
        finished=game.finished,
        created_at=game.created_at,
    )


def state_json(game: Game) -> dict[str, Any]:
    """The API state of a game played in rounds."""
    return build_view(game).as_json()


def verify_rounds(game: Game) -> None:
    """Refuse round writes on a game that is not played in rounds."""
    if preset_kind(game.variant) != KIND:
        raise InvalidInput(not_in_rounds(game.variant))


# ---------------------------------------------------------------- writing


def create_game(
    variant: object,
    players: object,
    options: object = None,
    first_dealer: object = None,
    first_dealer_method: object = None,
    scorekeeper: object = None,
) -> tuple[Game, str]:
    """Start a game played in rounds; returns it with its secret edit key (only a hash is stored)."""
    if not isinstance(variant, str):
        raise InvalidInput("variant must be a preset id such as pay-me")
    options, stakes = pot.split_options(variant, options)
    if options is not None and not isinstance(options, dict):
        raise InvalidInput("options must be an object of house-rule options")
    rules = rules_for(variant, options)
    names = clean_players(players, rules.preset)
    seat, dealt_by = choose_first_dealer(rules.preset, names, first_dealer, first_dealer_method, scorekeeper)
    return _store_new_game(rules, names, seat, stakes, dealt_by)


def _store_new_game(
    rules: RuleSet,
    players: list[str],
    first_dealer: int,
    stakes: dict[str, Any] | None = None,
    dealt_by: dict[str, Any] | None = None,
) -> tuple[Game, str]:
    return store_new_game(rules.preset.id, rules.options_json(), players, first_dealer, stakes, dealt_by)


def rematch(game: Game) -> tuple[Game, str]:
    """A new game with the same players and options; the next dealer deals first."""
    if not game.finished:
        raise InvalidInput("a rematch can start only when the game is over")
    rules = rules_for(game.variant, game.options)
    seat = game.players.index(seats.dealer(seating.table_of(game), len(game.rounds) + 1))
    return store_new_game(  # a rematch stays in the game's group
        rules.preset.id, rules.options_json(), list(game.players), seat, game.money, group_id=game.group_id
    )


def _verified_scores(game: Game, number: int, went_out: object, scores: object) -> dict[str, int]:
    if not isinstance(went_out, str):
        raise InvalidInput("went_out must be the name of the player who went out")
    if not isinstance(scores, dict):
        raise InvalidInput("scores must be an object of card points by player name")
    players = seating.players_of_round(game, number)
    checked: dict[str, int] = engine_call(verify_round_scores, players, went_out, scores)
    rules = rules_for(game.variant, game.options)
    engine_call(verify_within_hand, checked, rules, round_info(rules, number), len(players))
    return checked


def add_round(
    game: Game,
    went_out: object,
    scores: object,
    expected_version: object = None,
    hands: object = None,
    declarer: object = None,
    second_discards: object = None,
    exact_cut: object = None,
) -> None:
    """Score the next round; players in `hands` are scored from their cards (companion.services.disputes)."""
    check_version(game, expected_version)
    verify_rounds(game)
    rules = rules_for(game.variant, game.options)
    if len(game.rounds) >= rules.rounds:
        raise InvalidInput(f"the game is over: all {rules.rounds} {round_noun(game)}s are scored")
    scores, kept = _scores_from_hands(game, len(game.rounds) + 1, went_out, scores, hands, declarer)
    checked = _verified_scores(game, len(game.rounds) + 1, went_out, scores)
    pickups = pot.verify_second_discards(game, second_discards)
    cutter = contract.verify_exact_cut(game, exact_cut)
    game.rounds.append(
        Round(
            number=len(game.rounds) + 1,
            went_out=went_out,
            scores=checked,
            hands=kept,
            second_discards=pickups,
            buys=contract.stored_buys(game),
            exact_cut=cutter,
        )
    )
    game.buys = None  # the next deal's buys start from nothing
    _touch(game, rules)
    commit()


def correct_round(
    game: Game,
    number: int,
    went_out: object,
    scores: object,
    expected_version: object = None,
    hands: object = None,
    declarer: object = None,
    second_discards: object = None,
    exact_cut: object = None,
) -> None:
    """Correct an earlier round; its previous values go into the history (second discards left out stay,
    as does the exact cut; an empty exact cut clears it). The round's buys stay as counted."""
    check_version(game, expected_version)
    verify_rounds(game)
    stored = next((item for item in game.rounds if item.number == number), None)
    if stored is None:
        raise NotFound(f"{round_noun(game)} {number} has not been played in this game")
    scores, kept = _scores_from_hands(game, number, went_out, scores, hands, declarer)
    checked = _verified_scores(game, number, went_out, scores)
    if hands is None and declarer is None and stored.went_out == went_out and stored.scores == checked:
        kept = stored.hands  # the same scores typed again: the cards entered still back them
    pickups = (
        stored.second_discards if second_discards is None else pot.verify_second_discards(game, second_discards, number)
    )
    cutter = stored.exact_cut if exact_cut is None else contract.verify_exact_cut(game, exact_cut, number)
    before = (stored.went_out, stored.scores, stored.hands, stored.second_discards, stored.exact_cut)
    if before == (went_out, checked, kept, pickups, cutter):
        return
    db.session.add(_revision(stored, "corrected"))  # never loads the whole history
    stored.went_out = str(went_out)
    stored.scores = checked
    stored.hands = kept
    stored.second_discards = pickups
    stored.exact_cut = cutter
    _touch(game, rules_for(game.variant, game.options))
    commit()


def round_noun(game: Game) -> str:
    """What a player calls one game's round in words: Contract Rummy plays deals."""
    return "deal" if rules_for(game.variant, game.options).preset.has_contracts else "round"


def undo_last_round(game: Game, expected_version: object = None) -> None:
    """Remove the last round; its values go into the history. The version the client saw is required."""
    verify_rounds(game)
    if not game.rounds:
        raise NotFound(f"there is no {round_noun(game)} to undo yet")
    require_version(game, expected_version)
    pending = seating.pending_change(game)
    if pending is not None:
        played = f"{round_noun(game)} {len(game.rounds)}"
        raise InvalidInput(f"{seating.change_words(pending)}, after {played}: undo that change of players first")
    last = game.rounds[-1]
    db.session.add(_revision(last, "undone"))
    # The undone deal is the one being played again: its buys count again (any counted since are dropped).
    game.buys = dict(last.buys) if last.buys else None
    game.rounds.remove(last)
    _touch(game, rules_for(game.variant, game.options))
    commit()


def _revision(stored: Round, action: str) -> RoundRevision:
    """The values a round had, for the history."""
    return RoundRevision(
        game_id=stored.game_id,
        number=stored.number,
        action=action,
        went_out=stored.went_out,
        scores=dict(stored.scores),
        hands=stored.hands,
        second_discards=stored.second_discards,
        buys=stored.buys,
        exact_cut=stored.exact_cut,
    )


def _scores_from_hands(
    game: Game, number: int, went_out: object, scores: object, hands: object, declarer: object
) -> tuple[object, dict[str, str] | None]:
    """Scores with the players whose cards were entered scored by the engine, and the cards to keep."""
    if hands is None and declarer is None:
        return scores, None
    return disputes.score_hands(game, number, went_out, scores, hands, declarer)


def _touch(game: Game, rules: RuleSet) -> None:
    """Mark the game changed, so its version is checked and raised on commit."""
    game.updated_at = utc_now()
    game.finished = len(game.rounds) >= rules.rounds
