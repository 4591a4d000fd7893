"""Groups that play together (issue 14): members, the group's edit key, its games and statistics.

The only layer that writes groups or asks the engine about them: the statistics are computed by
`engine.groups` from the group's games, rebuilt through the other services every time, so a
deleted or corrected game changes every figure at once.
"""

from __future__ import annotations

import csv
import hmac
import io
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import selectinload

from companion.errors import InvalidInput, NotAllowed, NotFound
from companion.extensions import db
from companion.models import Game, Group, GroupMember
from companion.services import chart, kinds, play_or_pay, pool, rummy
from companion.services.store import MAX_NAME_LENGTH, PRESETS, commit, engine_call, hash_key, safe_cell
from engine import groups as stats

MAX_GROUP_NAME = 80
MAX_MEMBERS = 60
GROUP_KEY_HEADER = "X-Group-Key"


# ---------------------------------------------------------------- members and keys


def clean_group_name(name: object) -> str:
    if not isinstance(name, str):
        raise InvalidInput("the group's name must be text")
    cleaned = unicodedata.normalize("NFC", name).strip()
    if not cleaned:
        raise InvalidInput("the group needs a name")
    if not cleaned.isprintable():
        raise InvalidInput("a group's name cannot hold a line break or another control character")
    if len(cleaned) > MAX_GROUP_NAME:
        raise InvalidInput(f"a group's name is at most {MAX_GROUP_NAME} characters")
    return cleaned


def clean_members(players: object) -> list[str]:
    """Member names: trimmed, non-empty, printable, at most 40 characters, each once."""
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise InvalidInput("players must be a list of names")
    names: list[str] = []
    for raw in players:
        name = unicodedata.normalize("NFC", raw).strip()
        if not name:
            raise InvalidInput("every player needs a name")
        if not name.isprintable():
            raise InvalidInput("a player's name cannot hold a line break or another control character")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidInput(f'the name "{name[:20]}…" is longer than {MAX_NAME_LENGTH} characters')
        if name.casefold() in (known.casefold() for known in names):
            raise InvalidInput(f'"{name}" is in the list twice; give each player a different name')
        names.append(name)
    if len(names) > MAX_MEMBERS:
        raise InvalidInput(f"a group has at most {MAX_MEMBERS} players")
    return names


def create_group(name: object, players: object) -> tuple[Group, str]:
    """Store a new group; returns it with its secret edit key (only a hash is stored)."""
    group_name = clean_group_name(name)
    members = clean_members(players)
    key = secrets.token_urlsafe(24)
    group = Group(id=secrets.token_urlsafe(12), name=group_name, players=members, edit_key_hash=hash_key(key))
    db.session.add(group)
    commit()
    return group, key


def get_group(group_id: str) -> Group:
    if len(group_id) > 32 or "\x00" in group_id:
        raise NotFound("there is no group with that id")
    group = db.session.get(Group, group_id)
    if group is None:
        raise NotFound("there is no group with that id")
    return group


def all_groups() -> tuple[Group, ...]:
    return tuple(db.session.scalars(db.select(Group).order_by(Group.created_at.desc(), Group.id)))


def group_key_matches(group: Group, key: str | None) -> bool:
    """Whether a presented key is the group's (constant-time comparison)."""
    return bool(key) and hmac.compare_digest(hash_key(key or ""), group.edit_key_hash)


def group_by_key(key: str) -> Group | None:
    """The group whose edit key this is, or None (keys are random: their hashes identify the group)."""
    return db.session.scalars(db.select(Group).where(Group.edit_key_hash == hash_key(key))).first()


def require_group_key(group: Group, key: str | None) -> None:
    """NotAllowed (403) unless `key` is the group's edit key."""
    if not key:
        raise NotAllowed("a game is started in a group only with the group's key")
    if not group_key_matches(group, key):
        raise NotAllowed("the group key does not match this group")


def regenerate_group_key(group: Group) -> str:
    """Replace the group's key: the old one stops working at once (for the group and its games)."""
    key = secrets.token_urlsafe(24)
    group.edit_key_hash = hash_key(key)
    commit()
    return key


def members_of(group: Group) -> list[str]:
    """The group's members in the order they joined: its founders, then each name that joined."""
    query = db.select(GroupMember.name).where(GroupMember.group_id == group.id).order_by(GroupMember.id)
    return [*group.players, *db.session.scalars(query)]


def _insert_member() -> postgresql.Insert | sqlite.Insert:
    if db.engine.dialect.name == "postgresql":
        return postgresql.insert(GroupMember)
    return sqlite.insert(GroupMember)


def join(group: Group, names: Sequence[str]) -> None:
    """New names join the group as members (the session is committed by the caller): a row each,
    inserted unless the name is there already (INSERT ... ON CONFLICT DO NOTHING), so no join is
    lost to another made at the same moment."""
    founders = {name.casefold() for name in group.players}
    for name in names:
        if name.casefold() not in founders:
            row = {"group_id": group.id, "name": name, "folded": name.casefold()}
            db.session.execute(_insert_member().values(**row).on_conflict_do_nothing())


def start_game(
    group: Group,
    key: str | None,
    variant: object,
    players: object,
    options: object = None,
    first_dealer: object = None,
    first_dealer_method: object = None,
    scorekeeper: object = None,
) -> tuple[Game, str]:
    """Start a game in the group (its key is needed); its players become members."""
    require_group_key(group, key)
    game, game_key = kinds.create_game(variant, players, options, first_dealer, first_dealer_method, scorekeeper)
    game.group_id = group.id
    join(group, game.players)
    commit()
    return game, game_key


def group_of(game: Game) -> Group | None:
    return db.session.get(Group, game.group_id) if game.group_id else None


def group_of_game(game_id: str) -> Group | None:
    """The group a game (by id) belongs to, for the link back from the game's pages; None for a loose game."""
    query = db.select(Group).join(Game, Game.group_id == Group.id).where(Game.id == game_id)
    return db.session.scalars(query).first()


def adopt(game: Game, group_id: object, key: str | None) -> None:
    """Put an imported game in its group when the group's key is given (the caller commits)."""
    if not isinstance(group_id, str):
        return
    group = db.session.get(Group, group_id)
    if group is None or not group_key_matches(group, key):
        return
    game.group_id = group.id
    join(group, game.players)


# ---------------------------------------------------------------- statistics


@dataclass(frozen=True)
class GameLine:
    """A game of the group's list: date, game, winners, and whether it counts."""

    id: str
    name: str
    variant: str
    created_at: datetime
    players: tuple[str, ...]
    winners: tuple[str, ...]
    finished: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "variant": self.variant,
            "name": self.name,
            "date": self.created_at.date().isoformat(),
            "players": list(self.players),
            "winners": list(self.winners),
            "finished": self.finished,
        }


@dataclass(frozen=True)
class PlayerLine:
    """A member's figures on the group page."""

    standing: stats.Standing
    rating: stats.Rating | None
    money_cents: int

    def as_json(self) -> dict[str, Any]:
        line = self.standing
        per_round = line.points_per_round
        return {
            "name": line.name,
            "games": line.games,
            "wins": line.wins,
            "win_rate": round(line.win_rate, 4),
            "points_per_round": None if per_round is None else round(per_round, 2),
            "best": line.best,
            "worst": line.worst,
            "rating": None if self.rating is None else round(self.rating.mu, 2),
            "uncertainty": None if self.rating is None else round(self.rating.sigma, 2),
            "money_cents": self.money_cents,
        }


@dataclass(frozen=True)
class GroupView:
    """Everything the group page and the API show."""

    id: str
    name: str
    members: tuple[str, ...]
    players: tuple[PlayerLine, ...]
    finished_games: tuple[GameLine, ...]
    unfinished_games: tuple[GameLine, ...]
    head_to_head: dict[str, dict[str, stats.Record]]
    ratings: dict[str, tuple[stats.Rating, ...]]
    settle_up: tuple[stats.Payment, ...]

    @property
    def rated(self) -> tuple[PlayerLine, ...]:
        """The players with a rating, highest first."""
        lines = [line for line in self.players if line.rating is not None]
        return tuple(sorted(lines, key=lambda line: -line.rating.mu if line.rating else 0.0))

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "players": [line.as_json() for line in self.players],
            "games": [line.as_json() for line in (*self.finished_games, *self.unfinished_games)],
            "head_to_head": {
                name: {other: {"won": rec.won, "lost": rec.lost, "tied": rec.tied} for other, rec in row.items()}
                for name, row in self.head_to_head.items()
            },
            "settle_up": [{"from": pay.payer, "to": pay.payee, "cents": pay.cents} for pay in self.settle_up],
        }


def games_of(group: Group) -> tuple[Game, ...]:
    """The group's games, oldest first (the order ratings are computed in)."""
    query = (
        db.select(Game)
        .where(Game.group_id == group.id)
        .options(selectinload(Game.rounds), selectinload(Game.events))
        .order_by(Game.created_at, Game.id)
    )
    return tuple(db.session.scalars(query))


def _record(game: Game) -> tuple[stats.PlayedGame, GameLine]:
    """A game as the statistics see it, and its line in the list."""
    if play_or_pay.is_play_or_pay(game):
        table = play_or_pay.table(game)
        results = table.state.results  # chips held minus chips bought, one chip counted as one cent
        ended = bool(game.finished)  # an ended game is finished: placed by its results, the most chips first
        ranks = {name: -chips for name, chips in results.items()} if ended else {}
        everyone = table.state.everyone  # those who left a table keep their chips (issue 27)
        played = stats.PlayedGame(game.id, everyone, ended, money=results, ranks=ranks)
        line = GameLine(game.id, table.name, game.variant, game.created_at, everyone, played.winners, ended)
        return played, line
    if pool.is_pool(game):
        return _pool_record(game)
    view = rummy.build_view(game)
    pot = view.pot
    money = dict(pot.net) if pot is not None and pot.paid_out else {}
    played = stats.PlayedGame(
        game.id, view.players, view.finished, dict(view.totals) if view.finished else {}, len(view.rounds), money
    )
    line = GameLine(game.id, view.name, game.variant, game.created_at, view.players, view.winners, view.finished)
    return played, line


def _pool_record(game: Game) -> tuple[stats.PlayedGame, GameLine]:
    """Pool rummy: a finished game places the players who took the pot (the last one left, or those who
    split it) first, sharing the win, and everyone put out after them; its money is each player's net
    (took from the pot minus the buy-ins paid, in cents, summing to zero). A split's odd cents do not
    rank one sharer above another."""
    played = pool.replay(game)
    standings = played.standings
    names = tuple(played.players)
    over = played.finished
    ranks = {name: 0 if seat in standings.seats_in else 1 for seat, name in enumerate(names)} if over else {}
    nets = standings.nets
    money = dict(zip(names, nets, strict=True)) if nets is not None else {}
    # no points and no rounds: pool totals are not comparable with the points of games in rounds
    record = stats.PlayedGame(game.id, names, over, money=money, ranks=ranks)
    line = GameLine(game.id, PRESETS[game.variant].name, game.variant, game.created_at, names, record.winners, over)
    return record, line


def group_view(group: Group) -> GroupView:
    """The group's figures over its finished games (and every game's money)."""
    records = [_record(game) for game in games_of(group)]
    played = [record for record, _ in records]
    members = members_of(group)
    for record in played:  # a name that is not (or no longer) a member still counts
        members.extend(name for name in record.players if name not in members)
    standings = stats.standings(members, played)
    ratings = stats.ratings(members, played)
    money = stats.money(members, played)
    settle = engine_call(stats.settle_up, money)
    lines = tuple(
        PlayerLine(standing, ratings[standing.name][-1] if ratings[standing.name] else None, money[standing.name])
        for standing in standings
    )
    return GroupView(
        id=group.id,
        name=group.name,
        members=tuple(members),
        players=lines,
        finished_games=tuple(line for _, line in records if line.finished),
        unfinished_games=tuple(line for _, line in records if not line.finished),
        head_to_head=stats.head_to_head(members, played),
        ratings=ratings,
        settle_up=settle,
    )


def group_json(group_id: str) -> dict[str, Any]:
    return group_view(get_group(group_id)).as_json()


CSV_COLUMNS = (
    "name",
    "games",
    "wins",
    "win_rate",
    "points_per_round",
    "best",
    "worst",
    "rating",
    "uncertainty",
    "money_cents",
)


def statistics_csv(view: GroupView) -> str:
    """The group's standings, one row per player, then the settle-up."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for line in view.players:
        row = line.as_json()
        writer.writerow([safe_cell("" if row[column] is None else row[column]) for column in CSV_COLUMNS])
    writer.writerow([])
    writer.writerow(["from", "to", "cents"])
    for pay in view.settle_up:
        writer.writerow([safe_cell(pay.payer), safe_cell(pay.payee), pay.cents])
    return out.getvalue()


def rating_series(view: GroupView) -> dict[str, list[int]]:
    """Each rated player's rating (rounded) after each finished game of the group, from the start (25)."""
    order = [line.id for line in view.finished_games]
    series: dict[str, list[int]] = {}
    for name in view.members:
        after = {rating.game: rating.mu for rating in view.ratings[name]}
        if not after:
            continue
        current = stats.INITIAL_MU
        points = [round(current)]
        for game_id in order:
            current = after.get(game_id, current)
            points.append(round(current))
        series[name] = points
    return series


def rating_chart(view: GroupView) -> str:
    """The ratings over the group's finished games as an SVG (like a game's score chart)."""
    width, height = chart.PHONE_SIZE
    return chart.series_chart_svg(rating_series(view), "Ratings after each finished game", width, height, "Games")


def grouped_game_ids() -> set[str]:
    """The ids of every game played in a group (the home page lists them under their group)."""
    return set(db.session.scalars(db.select(Game.id).where(Game.group_id.is_not(None))))
