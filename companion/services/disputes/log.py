"""The log of every check made in a game: kept with its round, read back a page at a time.

A check's result is kept as JSON (the `disputes.result` column, the export format); this module
alone reads it back, for the pages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from companion.bounds import CHECKS_PAGE, GAME_PAGE_CHECKS, pages_for
from companion.errors import NotFound
from companion.extensions import db
from companion.models import Dispute, Game
from companion.services.disputes.views import Face, HandView, faces, placed_words
from companion.services.store import commit_now
from engine.cards import Card
from engine.layoffs import Place


def stored_placements(placements: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """Each card laid off as a kept result says where it went: "🃏 as 8♥ on meld 1, at the low end"."""
    shown = []
    for item in placements:
        card, stands = Card.parse(str(item["card"])), Card.parse(str(item.get("as") or item["card"]))
        place = next((place for place in Place if place.value == item.get("place")), None)
        shown.append(placed_words(card, stands, item["meld"], place))
    return tuple(shown)


@dataclass(frozen=True)
class LogEntry:
    """One check as the game page lists it."""

    id: int
    round: int
    kind: str
    player: str | None
    cards: tuple[str, ...]
    valid: bool
    reason: str | None
    result: dict[str, Any]
    at: datetime

    @property
    def groups(self) -> tuple[tuple[Face, ...], ...]:
        """The cards of each meld (or the hand) as the page shows them."""
        return tuple(faces([token for token in text.split() if token != "|"]) for text in self.cards)

    @property
    def melds(self) -> tuple[tuple[tuple[Face, ...], dict[str, Any]], ...]:
        """Each meld's cards with its verdict (meld and declarer checks)."""
        verdicts = self.result.get("melds", [])
        return tuple(zip(self.groups, verdicts, strict=False))

    @property
    def discard(self) -> tuple[Face, ...]:
        """A declarer's final discard, if one was entered."""
        return faces(str(self.result.get("discard", "")).split())

    @property
    def placed(self) -> tuple[str, ...]:
        """Where the cards of a legal lay-off went: "3♥ on meld 1, at the low end"."""
        return stored_placements(self.result.get("placements", []))

    @property
    def best(self) -> HandView | None:
        """A scored hand's best arrangement (hand checks)."""
        if self.kind != "hand" or "penalty" not in self.result:
            return None
        return HandView(
            points=int(self.result.get("points", self.result["penalty"])),
            penalty=int(self.result["penalty"]),
            melds=tuple(faces(meld) for meld in self.result.get("melds", [])),
            layoffs=tuple((int(item["meld"]), faces(item["cards"])) for item in self.result.get("layoffs", [])),
            unmelded=faces(self.result.get("unmelded", [])),
            placements=stored_placements(self.result.get("placements", [])),
        )

    @property
    def title(self) -> str:
        if self.kind == "meld" and self.result.get("contract"):
            return "Going down"
        if self.kind == "show":
            return "Valid show" if self.valid else "Wrong show"
        titles = {
            "meld": "Meld",
            "declarer": "Going out",
            "layoff": "Lay-off",
            "hand": "Hand",
            "show": "Show",
            "count": "Count",
        }
        return titles.get(self.kind, self.kind)


def log_check(
    game: Game,
    number: int,
    kind: str,
    cards: Sequence[str],
    valid: bool,
    reason: str | None,
    result: dict[str, Any] | None = None,
    player: str | None = None,
    chain_id: int | None = None,
    *,
    commit: bool = True,
) -> Dispute:
    """Keep a check with its round; the game's version is not touched (a check changes no score).
    With `commit` false it is only flushed (an import commits once, at the end)."""
    entry = Dispute(
        game_id=game.id,
        round_number=number,
        kind=kind,
        player=player,
        cards=list(cards),
        valid=valid,
        reason=reason,
        result=result,
        chain_id=chain_id,
    )
    db.session.add(entry)
    if commit:
        commit_now()  # a broken connection during the commit is said to be one (store.commit_now)
    else:
        db.session.flush()
    return entry


def _entry(row: Dispute) -> LogEntry:
    return LogEntry(
        row.id,
        row.round_number,
        row.kind,
        row.player,
        tuple(row.cards),
        row.valid,
        row.reason,
        row.result or {},
        row.created_at,
    )


def game_log(game_id: str, number: int | None = None) -> tuple[LogEntry, ...]:
    """Every check made in a game (or one round), oldest first."""
    query = db.select(Dispute).filter_by(game_id=game_id)
    if number is not None:
        query = query.filter_by(round_number=number)
    return tuple(_entry(row) for row in db.session.scalars(query.order_by(Dispute.id)))


def log_page(
    game_id: str, number: int | None = None, page: int = 1, size: int = CHECKS_PAGE
) -> tuple[tuple[LogEntry, ...], int, int]:
    """One page of a game's checks (or one round's), the latest page first and each page oldest
    first, with the number of checks in all and the page shown (clamped to the pages there are)."""
    where = [Dispute.game_id == game_id] + ([Dispute.round_number == number] if number is not None else [])
    count = db.session.scalar(select(func.count()).select_from(Dispute).where(*where)) or 0
    page = max(1, min(page, pages_for(count, size)))
    query = select(Dispute).where(*where).order_by(Dispute.id.desc()).offset((page - 1) * size)
    rows = list(db.session.scalars(query.limit(size)))
    return tuple(_entry(row) for row in reversed(rows)), count, page


@dataclass(frozen=True)
class RoundLogs:
    """The latest checks of a game by round (the game page's log), and how many there are in all."""

    by_round: dict[int, tuple[LogEntry, ...]]
    shown: int
    total: int


def log_by_round(game_id: str) -> RoundLogs:
    """The latest GAME_PAGE_CHECKS checks of a game, by round: the game page never lists more."""
    entries, total, _ = log_page(game_id, size=GAME_PAGE_CHECKS)
    grouped: dict[int, list[LogEntry]] = {}
    for entry in entries:
        grouped.setdefault(entry.round, []).append(entry)
    return RoundLogs({number: tuple(items) for number, items in sorted(grouped.items())}, len(entries), total)


def log_stamp(game_id: str) -> tuple[int, int]:
    """How many checks a game's log holds and the id of the latest (0, 0 for none): a check changes
    no version, so a page that lists checks is the same page only while this is the same."""
    count, latest = db.session.execute(
        select(func.count(), func.max(Dispute.id)).where(Dispute.game_id == game_id)
    ).one()
    return int(count or 0), int(latest or 0)


def get_entry(game_id: str, entry_id: int) -> LogEntry:
    row = db.session.get(Dispute, entry_id)
    if row is None or row.game_id != game_id:
        raise NotFound("there is no such check in this game")
    return _entry(row)
