"""Players who come, go, or were misspelt (issue 27): renaming a player everywhere, seating a late
player, taking a player out from the next round, and undoing the last of these changes.

The rules (who may join, where they sit, the start score, who deals next) are engine.seating's;
this module stores the table it answers and rewrites a renamed player's name in every stored row.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select, update

from companion.errors import InvalidInput, NotFound
from companion.extensions import db
from companion.models import Dispute, Game, GameEvent, Round, RoundRevision, utc_now
from companion.services import groups, play_or_pay, pool, rummy, seating
from companion.services.store import (
    HANDS_KIND,
    POOL_KIND,
    check_version,
    clean_name,
    commit,
    engine_call,
    preset_kind,
    require_version,
    rules_for,
)
from engine import seating as seats
from engine.seating import Table

POOL_SEATS_FIXED = (
    "a pool rummy game keeps the players it started with: a player put out comes back by a rejoin,"
    " and only a misspelt name can be changed (a rename)"
)
MAX_CHANGES = 60
"""The most changes of players one game keeps (undone ones included): a table changes a few times a night."""


def change_players(
    game: Game,
    rename: Mapping[str, object] | None = None,
    add: object = None,
    start: object = None,
    remove: object = None,
    expected_version: object = None,
) -> str:
    """Make one change of players (a rename, a late player, a player who leaves); returns it in words."""
    check_version(game, expected_version)
    if start is not None and add is None:
        raise InvalidInput("start goes with add: the points a late player starts from")
    asked = [what for what in (rename, add, remove) if what is not None]
    if len(asked) != 1:
        raise InvalidInput('send one change at a time: "rename", "add" or "remove"')
    if len(seating.changes_of(game)) >= MAX_CHANGES:
        raise InvalidInput(f"this game has had {MAX_CHANGES} changes of players, the most one game keeps")
    if rename is not None:
        return rename_player(game, rename.get("from"), rename.get("to"))
    if preset_kind(game.variant) == POOL_KIND:
        raise InvalidInput(POOL_SEATS_FIXED)
    if preset_kind(game.variant) == HANDS_KIND:
        if start is not None:
            raise InvalidInput("a late player at a Play or Pay table starts with the starting chips; send no start")
        return _seat_event(game, "join", _name(add, "add")) if add is not None else _seat_event(game, "leave", remove)
    if add is not None:
        return add_player(game, add, "zero" if start is None else start)
    return remove_player(game, remove)


def _seat_event(game: Game, kind: str, name: object) -> str:
    """Play or Pay: a join or a leave is an event between hands, replayed with the others."""
    if not isinstance(name, str):
        raise InvalidInput("remove must be the name of the player who leaves")
    if game.finished:
        raise InvalidInput(play_or_pay.ENDED)
    data = {"player": name}
    after = play_or_pay.table(game, (kind, data))
    founders = play_or_pay.founders(game)
    number = len(game.events) + 1
    game.events.append(GameEvent(number=number, kind=kind, data=data))
    change = {
        "kind": "add" if kind == "join" else "remove",
        "name": name,
        "round": after.hand.hand,
        "unit": "hand",
        "event": number,
        "at": utc_now().strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    if kind == "join":
        change.update(start=after.stack, choice="chips")
        _join_group(game, name)
    game.seating = {"founders": founders, "changes": [*seating.changes_of(game), change]}
    game.players = list(after.players)
    game.updated_at = utc_now()
    commit()
    return seating.change_words(change)


def _name(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a player's name")
    return clean_name(value)


def _next_round(game: Game) -> int:
    rules = rules_for(game.variant, game.options)
    if len(game.rounds) >= rules.rounds:
        raise InvalidInput(f"the game is over: all {rules.rounds} rounds are scored, so nobody can join or leave")
    return len(game.rounds) + 1


def rename_player(game: Game, old: object, new: object) -> str:
    """Rename a player everywhere: the table, every round and its history, the checks, the group."""
    old_name, new_name = _name(old, "rename.from"), _name(new, "rename.to")
    if preset_kind(game.variant) == POOL_KIND:
        return _rename_in_pool(game, old_name, new_name)
    if preset_kind(game.variant) == HANDS_KIND:
        hand = _rename_at_hands(game, old_name, new_name)
        change = {"kind": "rename", "from": old_name, "to": new_name, "round": hand, "unit": "hand"}
        change["at"] = utc_now().strftime("%Y-%m-%dT%H:%M:%SZ")
        game.seating = {**(game.seating or {}), "changes": [*seating.changes_of(game), change]}
        game.updated_at = utc_now()
        _join_group(game, new_name)
        commit()
        return seating.change_words(change)
    table = engine_call(seats.rename, seating.table_of(game), old_name, new_name)
    change = {"kind": "rename", "from": old_name, "to": new_name, "round": len(game.rounds) + 1}
    _rewrite(game, old_name, new_name)
    _join_group(game, new_name)
    _store(game, table, change, rewrite=(old_name, new_name))
    return seating.change_words(change)


def _join_group(game: Game, name: str) -> None:
    """A late or renamed player of a group's game is one of the group's members under that name."""
    if game.group_id:
        groups.join(groups.get_group(game.group_id), [name])


def add_player(game: Game, name: object, start: object) -> str:
    """Seat a late player left of the next round's dealer, starting from the table's choice."""
    new_name = _name(name, "add")
    number = _next_round(game)
    rules = rules_for(game.variant, game.options)
    table = seating.table_of(game)
    engine_call(seats.verify_join, table, new_name, number, rules.preset.max_players)
    view = rummy.build_view(game)
    playing = {name: view.totals[name] for name in seats.seated(table, number)}
    points = engine_call(seats.start_points, start, playing)
    table = engine_call(seats.join, table, new_name, number, points, rules.preset.max_players)
    choice = start if isinstance(start, str) else "points"
    change = {"kind": "add", "name": new_name, "round": number, "start": points, "choice": choice}
    _join_group(game, new_name)
    _store(game, table, change)
    return seating.change_words(change)


def remove_player(game: Game, name: object) -> str:
    """Take a player out from the next round: their rounds and money stay; they no longer deal or score."""
    leaving = _name(name, "remove")
    number = _next_round(game)
    rules = rules_for(game.variant, game.options)
    table = engine_call(seats.leave, seating.table_of(game), leaving, number, rules.preset.min_players)
    change = {"kind": "remove", "name": leaving, "round": number}
    _store(game, table, change)
    return seating.change_words(change)


def undo_last_change(game: Game, expected_version: object = None) -> str:
    """Undo the last change of players, if no round was scored since a join or a leave."""
    require_version(game, expected_version)
    changes = seating.changes_of(game)
    index = next((at for at in range(len(changes) - 1, -1, -1) if not changes[at].get("undone_at")), None)
    if index is None:
        raise NotFound("there is no change of players to undo")
    change = changes[index]
    words = seating.change_words(change)
    undone = utc_now().strftime("%Y-%m-%dT%H:%M:%SZ")
    if preset_kind(game.variant) == POOL_KIND:  # only renames are kept: rename back
        _rename_in_pool(game, change["to"], change["from"], undo_of=index)
        return words
    if preset_kind(game.variant) == HANDS_KIND:
        if change["kind"] == "rename":
            _rename_at_hands(game, change["to"], change["from"])
            changes = seating.changes_of(game)
            changes[index] = {**change, "undone_at": undone}
            game.seating = {**(game.seating or {}), "changes": changes}
            game.updated_at = utc_now()
            commit()
            return words
        if not game.events or game.events[-1].number != change.get("event"):
            raise InvalidInput(f"{words}, and cards or chips were recorded since: undo those first")
        play_or_pay.undo_last_event(game, expected_version)
        return words
    table = seating.table_of(game)
    if change["kind"] == "rename":
        table = engine_call(seats.rename, table, change["to"], change["from"])
        _rewrite(game, change["to"], change["from"])
        changes = seating.changes_of(game)
    else:
        if change["round"] != len(game.rounds) + 1:
            raise InvalidInput(f"{words}, and rounds were scored since: undo those rounds first")
        undo = seats.undo_join if change["kind"] == "add" else seats.undo_leave
        table = engine_call(undo, table, change["name"])
    changes[index] = {**change, "undone_at": undone}
    _save(game, table, changes)
    return words


def _rename_at_hands(game: Game, old: str, new: str) -> int:
    """Play or Pay: rename a player in every event, the founders and the changes; returns the hand now."""
    now = play_or_pay.table(game)
    everyone = list(now.state.everyone)
    engine_call(seats.verify_rename, seats.founders(everyone, everyone[0]), old, new)
    for event in game.events:
        event.data = _renamed_event(event.data, old, new)
    founders = [new if name == old else name for name in play_or_pay.founders(game)]
    changes = [_renamed_change(item, old, new) for item in seating.changes_of(game)]
    game.seating = {"founders": founders, "changes": changes}
    game.players = [new if name == old else name for name in game.players]
    return now.hand.hand


def _rename_in_pool(game: Game, old: str, new: str, undo_of: int | None = None) -> str:
    """Pool rummy: a misspelt name rewritten in the players, every deal, rejoin and split, and the checks.

    The change is kept in the seating's list of changes (as Play or Pay keeps it), so it shows in the
    history and can be undone (`undo_of`: the change being undone, by renaming back). Events name players
    only as result and share keys and as the rejoining player, so the replay answers the same standings."""
    before = pool.replay(game)
    engine_call(seats.verify_rename, seats.founders(list(game.players), game.players[0]), old, new)
    for event in game.events:
        event.data = _renamed_pool_event(event.data, old, new)
    game.players = [new if name == old else name for name in game.players]
    if game.dealing and game.dealing.get("scorekeeper") == old:
        game.dealing = {**game.dealing, "scorekeeper": new}
    db.session.execute(
        update(Dispute).where(Dispute.game_id == game.id, Dispute.player == old).values(player=new),
        execution_options={"synchronize_session": False},
    )
    changes = [_renamed_change(item, old, new) for item in seating.changes_of(game)]
    change = {"kind": "rename", "from": old, "to": new, "round": before.standings.deals + 1, "unit": "deal"}
    if undo_of is None:
        change["at"] = utc_now().strftime("%Y-%m-%dT%H:%M:%SZ")
        changes.append(change)
    else:
        changes[undo_of] = {**changes[undo_of], "undone_at": utc_now().strftime("%Y-%m-%dT%H:%M:%SZ")}
    game.seating = {"changes": changes}
    game.updated_at = utc_now()
    _join_group(game, new)
    commit()
    return seating.change_words(change)


def _renamed_pool_event(data: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    renamed = {key: new if key == "player" and value == old else value for key, value in data.items()}
    for key in ("results", "shares"):
        named = renamed.get(key)
        if isinstance(named, dict):
            renamed[key] = _renamed_keys(named, old, new)
    return renamed


def _renamed_event(data: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    renamed = {key: new if key in ("player", "winner") and value == old else value for key, value in data.items()}
    for key in ("cards_left", "paid"):
        counts = renamed.get(key)
        if isinstance(counts, dict):
            renamed[key] = _renamed_keys(counts, old, new)
    return renamed


def _store(game: Game, table: Table, change: dict[str, Any], rewrite: tuple[str, str] | None = None) -> None:
    changes = seating.changes_of(game)
    if rewrite is not None:  # earlier joins and leaves name the player as they are called now
        changes = [_renamed_change(item, *rewrite) for item in changes]
    change["at"] = utc_now().strftime("%Y-%m-%dT%H:%M:%SZ")
    _save(game, table, [*changes, change])


def _save(game: Game, table: Table, changes: list[dict[str, Any]]) -> None:
    game.seating = {"table": table.as_json(), "changes": changes}
    next_players = list(seats.seated(table, len(game.rounds) + 1))
    game.players = next_players
    first = table.first_dealer
    game.first_dealer = next_players.index(first) if first in next_players else 0
    game.updated_at = utc_now()
    commit()


def _renamed_change(change: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    if change["kind"] != "rename" and change.get("name") == old:
        return {**change, "name": new}
    return change


def _renamed_keys(values: Mapping[str, Any] | None, old: str, new: str) -> dict[str, Any] | None:
    if values is None:
        return None
    return {new if name == old else name: value for name, value in values.items()}


def _rewrite(game: Game, old: str, new: str) -> None:
    """Write the new name wherever the old one is stored: every round, its history, the checks."""
    if game.seating is not None:
        game.seating = {
            **game.seating,
            "changes": [_renamed_change(item, old, new) for item in seating.changes_of(game)],
        }
    game.buys = _renamed_keys(game.buys, old, new)
    if game.dealing and game.dealing.get("scorekeeper") == old:
        game.dealing = {**game.dealing, "scorekeeper": new}
    revisions = db.session.scalars(select(RoundRevision).where(RoundRevision.game_id == game.id))
    for row in [*game.rounds, *revisions]:
        _rewrite_round(row, old, new)
    db.session.execute(
        update(Dispute).where(Dispute.game_id == game.id, Dispute.player == old).values(player=new),
        execution_options={"synchronize_session": False},
    )


def _rewrite_round(row: Round | RoundRevision, old: str, new: str) -> None:
    row.scores = _renamed_keys(row.scores, old, new) or {}
    row.hands = _renamed_keys(row.hands, old, new)
    row.second_discards = _renamed_keys(row.second_discards, old, new)
    row.buys = _renamed_keys(row.buys, old, new)
    if row.went_out == old:
        row.went_out = new
    if row.exact_cut == old:
        row.exact_cut = new
