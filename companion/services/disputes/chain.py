"""Checks kept in a game's log: melds (or going down), a hand's best score, and the lay-off chain
of a round (D6): the declarer's melds, then each lay-off in turn on the melds as they now lie.
An imported log is judged again here, check by check (`rejudge`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.bounds import whole_number
from companion.errors import InvalidInput, NotFound
from companion.models import Dispute, Game
from companion.services.disputes.checks import best_hand, check_declarer, check_melds, going_down, lay_off
from companion.services.disputes.log import LogEntry, game_log, log_check
from companion.services.disputes.pool_checks import is_pool_variant, rejudge_pool
from companion.services.disputes.table import Table, canonical, clean_melds, game_table, held_in_full
from companion.services.disputes.views import Face, faces, hand_view, meld_views
from companion.services.store import PRESETS


@dataclass(frozen=True)
class Chain:
    """The lay-offs of one round: the declarer's melds, each lay-off in turn, the melds now."""

    start: LogEntry
    declarer: str
    order: tuple[str, ...]  # the other players, starting left of the declarer
    layoffs: tuple[LogEntry, ...]
    melds: tuple[list[str], ...]  # as they lie now (TableMeld.as_json)

    @property
    def table(self) -> tuple[tuple[Face, ...], ...]:
        """The melds as they lie now, as the page shows them."""
        return tuple(faces(meld) for meld in self.melds)

    @property
    def declared(self) -> list[str]:
        """The declarer's melds as laid down, before any lay-off ("4H 5H 6H")."""
        return [" ".join(meld) for meld in self.start.result.get("table", [])]

    @property
    def next_player(self) -> str:
        """Who lays off next: the player of the last lay-off keeps going, else the first in order."""
        return self.layoffs[-1].player or self.order[0] if self.layoffs else self.order[0]


def turn_order(players: Sequence[str], declarer: str) -> tuple[str, ...]:
    """The other players in turn order, starting left of the declarer (seat order is clockwise)."""
    seat = list(players).index(declarer)
    return tuple(players[(seat + step) % len(players)] for step in range(1, len(players)))


def current_chain(game: Game, number: int) -> Chain | None:
    """The latest chain of a round: the last valid declarer check and the lay-offs after it."""
    entries = game_log(game.id, number)
    starts = [entry for entry in entries if entry.kind == "declarer" and entry.result.get("table")]
    if not starts:
        return None
    start = starts[-1]
    layoffs = tuple(entry for entry in entries if entry.kind == "layoff" and entry.result.get("chain") == start.id)
    melds: tuple[list[str], ...] = tuple(start.result["table"])
    for entry in layoffs:
        if entry.valid:
            melds = tuple(entry.result["declarer"])
    declarer = start.player or ""
    if declarer not in game.players:
        return None
    return Chain(start, declarer, turn_order(game.players, declarer), layoffs, melds)


def has_chain(variant: str) -> bool:
    """Whether a game has a going-out check and a lay-off chain after it: not where every card held
    counts in full (Contract Rummy lays off onto the table during the deal; the checker judges that),
    nor in pool rummy, which has no lay-offs."""
    return not held_in_full(variant) and not is_pool_variant(variant)


def verify_chain(game: Game) -> None:
    """NotFound, in one sentence, for a game without a lay-off chain (see has_chain)."""
    if not has_chain(game.variant):
        name = PRESETS[game.variant].name
        raise NotFound(
            f"{name} has no lay-offs after going out: every card held counts in full, and the checker "
            "judges going down and lay-offs onto the table"
        )


def start_chain(
    game: Game, number: int, declarer: object, melds: Sequence[object], discard: str = "", *, commit: bool = True
) -> Dispute:
    """Check the declarer's melds (the declarer check) and keep them as the round's table."""
    if not isinstance(declarer, str) or declarer not in game.players:
        raise InvalidInput("choose the player who went out")
    texts = clean_melds(melds)
    at = game_table(game, number)
    verdict = check_declarer(at, texts, discard)
    cards = [canonical(text) for text in texts]
    result: dict[str, Any] = {"melds": [view.as_json() for view in verdict.melds]}
    if discard.strip():
        result["discard"] = canonical(discard)
    if verdict.table:
        result["table"] = [list(meld) for meld in verdict.table]
    return log_check(
        game, number, "declarer", cards, verdict.valid, verdict.reason, result, player=declarer, commit=commit
    )


def add_layoff(game: Game, number: int, player: object, onto: object, cards: object, *, commit: bool = True) -> Dispute:
    """Judge one lay-off onto the melds as they now lie; a legal one extends them for the next player."""
    verify_chain(game)
    chain = current_chain(game, number)
    if chain is None:
        raise InvalidInput("enter the declarer's melds first")
    if not isinstance(player, str) or player not in chain.order:
        raise InvalidInput("choose a player other than the one who went out")
    if not isinstance(cards, str) or not cards.strip():
        raise InvalidInput("enter the cards to lay off")
    if isinstance(onto, str) and onto.strip().isdecimal():
        position = whole_number(onto, 4)
        onto = onto[:20] if position is None else position
    verdict = lay_off(game_table(game, number), chain.melds, onto, cards)
    result: dict[str, Any] = {
        "chain": chain.start.id,
        "onto": onto,
        "declarer": [meld.as_json() for meld in verdict.melds],
        "code": verdict.code,
    }
    if verdict.placements:
        result["placements"] = list(verdict.placements)  # where each card went (D11)
    return log_check(
        game, number, "layoff", [canonical(cards)], verdict.valid, verdict.reason, result, player=player, commit=commit
    )


def log_melds(game: Game, number: int, melds: Sequence[object], *, commit: bool = True) -> Dispute:
    """Check melds in a game (its round's wilds and house rules) and keep the verdict."""
    texts = clean_melds(melds)
    at = game_table(game, number)
    if at.has_contract:
        return _log_going_down(game, number, at, texts, commit=commit)
    verdicts = check_melds(at, texts)
    views = meld_views(verdicts, texts, at.info)
    reasons = [f"Meld {index}: {view.reason}" for index, view in enumerate(views, start=1) if not view.valid]
    result = {"melds": [view.as_json() for view in views]}
    cards = [" ".join(str(card) for card in verdict.cards) for verdict in verdicts]
    valid = all(verdict.valid for verdict in verdicts)
    return log_check(game, number, "meld", cards, valid, " ".join(reasons) or None, result, commit=commit)


def _log_going_down(game: Game, number: int, at: Table, texts: list[str], *, commit: bool) -> Dispute:
    """Melds checked in a deal with a contract are a going-down check: exactly the deal's contract?"""
    down = going_down(at, texts)
    result = {"melds": [view.as_json() for view in down.melds], "contract": at.info.contract_words}
    cards = [canonical(text) for text in texts]
    return log_check(game, number, "meld", cards, down.valid, down.reason, result, commit=commit)


def log_hand(
    game: Game, number: int, player: object, hand: object, declarer: Sequence[str] = (), *, commit: bool = True
) -> Dispute:
    """Score a hand from its cards in a game and keep the answer."""
    if player is not None and (not isinstance(player, str) or player not in game.players):
        raise InvalidInput("choose one of the players")
    if not isinstance(hand, str):
        raise InvalidInput("enter the cards of the hand")
    at = game_table(game, number)
    scored = best_hand(at, hand, declarer)
    view = hand_view(scored, at.info, at.rules)
    result = scored.as_json() | {"points": view.points}
    return log_check(game, number, "hand", [canonical(hand)], True, None, result, player=player, commit=commit)


def rejudge(game: Game, row: Mapping[str, Any]) -> Dispute:
    """An imported check made again by the engine, in the log's order (a lay-off onto the chain as it
    then lies), and kept with the engine's verdict, reason and result: never the file's."""
    number, kind, player = row.get("round_number"), row.get("kind"), row.get("player")
    cards = [text for text in row.get("cards") or [] if isinstance(text, str)]
    given = row.get("result")
    result: Mapping[str, Any] = given if isinstance(given, dict) else {}
    if not isinstance(number, int):
        raise InvalidInput("a check's round must be a whole number")
    if kind == "meld":
        return log_melds(game, number, cards, commit=False)
    if kind == "declarer":
        discard = result.get("discard")
        return start_chain(game, number, player, cards, discard if isinstance(discard, str) else "", commit=False)
    if kind == "layoff":
        return add_layoff(game, number, player, result.get("onto"), " ".join(cards), commit=False)
    if kind == "hand":
        return log_hand(game, number, player, " ".join(cards), commit=False)
    if kind in ("show", "count") and is_pool_variant(game.variant):
        return rejudge_pool(game, kind, number, player, cards, result)
    raise InvalidInput(f"there is no kind of check called {str(kind)[:20]!r}")
