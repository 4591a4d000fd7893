"""The stored data: games, their rounds, and the history of corrected or undone rounds."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, declared_attr, mapped_column, relationship

from companion.extensions import db


def utc_now() -> datetime:
    """The current time in UTC, without a time zone (SQLite keeps none)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game at one table. `version` guards against two conflicting writes."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[str]] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    finished: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    # Money settings apart from the rule options: a pot's amounts in cents, or Play or Pay's chips.
    money: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    # How the first dealer was chosen (RULES.md 5): {"method": "high_card"}, with "scorekeeper" for 3-13's way.
    dealing: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    # The group that played the game (issue 14), or None for a loose game.
    group_id: Mapped[str | None] = mapped_column(
        ForeignKey("groups.id", ondelete="SET NULL"), nullable=True, default=None, index=True
    )
    # Contract Rummy (issue 15): buys each player has used in the deal being played, until its round is saved.
    buys: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True, default=None)
    # Players who joined late, left or were renamed (issue 27): {"table": engine.seating.Table.as_json(),
    # "changes": [...]}, None while the players are those the game started with. `players` then holds
    # the players of the next round, in seat order.
    seating: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)

    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )
    revisions: Mapped[list[RoundRevision]] = relationship(
        back_populates="game", order_by="RoundRevision.id", cascade="all, delete-orphan"
    )
    events: Mapped[list[GameEvent]] = relationship(
        back_populates="game", order_by="GameEvent.number", cascade="all, delete-orphan"
    )
    disputes: Mapped[list[Dispute]] = relationship(order_by="Dispute.id", cascade="all, delete-orphan")
    sheet_pdfs: Mapped[list[SheetPdf]] = relationship(cascade="all, delete-orphan")

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012


class RoundValues:
    """What a round holds, shared by a scored round and the history of its earlier values:
    who went out, the card points entered (before any multiplier), the 3-13 pot's second
    discards, and the cards entered for scoring (issue 5: player -> canonical notation "7H 8H JK")."""

    # sort_order keeps the columns in the order of the tables (and of the exports) before the mixin.
    id: Mapped[int] = mapped_column(primary_key=True, sort_order=1)
    number: Mapped[int] = mapped_column(Integer, sort_order=3)
    went_out: Mapped[str] = mapped_column(String(40), sort_order=5)
    scores: Mapped[dict[str, int]] = mapped_column(JSON, sort_order=6)
    second_discards: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True, default=None, sort_order=7)
    hands: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True, default=None, sort_order=8)
    # Contract Rummy (issue 15): each player's buys in the deal, and who cut exactly (-50 that deal).
    buys: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True, default=None, sort_order=10)
    exact_cut: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None, sort_order=11)

    @declared_attr
    def game_id(cls) -> Mapped[str]:
        return mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True, sort_order=2)


class Round(RoundValues, db.Model):  # type: ignore[name-defined,misc]
    """A scored round."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_rounds_game_number"),)

    created_at: Mapped[datetime] = mapped_column(default=utc_now, sort_order=9)

    game: Mapped[Game] = relationship(back_populates="rounds")


class RoundRevision(RoundValues, db.Model):  # type: ignore[name-defined,misc]
    """The values a round had before it was corrected ("corrected") or undone ("undone")."""

    __tablename__ = "round_revisions"

    action: Mapped[str] = mapped_column(String(16), sort_order=4)
    changed_at: Mapped[datetime] = mapped_column(default=utc_now, sort_order=9)

    game: Mapped[Game] = relationship(back_populates="revisions")


class GameEvent(db.Model):  # type: ignore[name-defined,misc]
    """One reported event of a Play or Pay game, in order: "play", "pay" or "settle" (quick mode).

    The hands are rebuilt by replaying the events through the engine; nothing else is stored.
    """

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_game_events_game_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    game: Mapped[Game] = relationship(back_populates="events")


class Dispute(db.Model):  # type: ignore[name-defined,misc]
    """One check made at the table (issue 5): the cards, the engine's verdict and its reason.

    `kind` is "meld", "declarer", "layoff" or "hand"; lay-offs point at the "declarer" check that
    started their chain (`chain_id`), and `result` keeps the engine's answer (melds after a lay-off).
    """

    __tablename__ = "disputes"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    round_number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    player: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None)
    cards: Mapped[list[str]] = mapped_column(JSON)
    valid: Mapped[bool] = mapped_column(default=False)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    chain_id: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class RateCount(db.Model):  # type: ignore[name-defined,misc]
    """How many requests one client made against one rate limit in its current window (issue 16).

    Kept in the database so that every worker and every server counts together; a row whose
    window has ended starts over at its next hit, or is deleted (companion.services.limits).
    """

    __tablename__ = "rate_counts"

    bucket: Mapped[str] = mapped_column(String(200), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    expires: Mapped[int] = mapped_column(Integer, index=True)  # the window's end, in seconds since the epoch


class SheetPdf(db.Model):  # type: ignore[name-defined,misc]
    """A rendered score sheet, kept for the version of the game it shows (issue 16): every server
    answers the next request for it from here instead of rendering it again."""

    __tablename__ = "sheet_pdfs"
    __table_args__ = (UniqueConstraint("game_id", "version", "paper", name="uq_sheet_pdfs_game_version_paper"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    paper: Mapped[str] = mapped_column(String(8))
    data: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class BlankSheetPdf(db.Model):  # type: ignore[name-defined,misc]
    """A rendered blank sheet, kept by the HTML its parameters make (preset, names, paper): asking
    for the same blank sheet again is answered from here, never rendered again."""

    __tablename__ = "blank_sheet_pdfs"

    id: Mapped[int] = mapped_column(primary_key=True)
    html_hash: Mapped[str] = mapped_column(String(64), unique=True)
    data: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class Group(db.Model):  # type: ignore[name-defined,misc]
    """People who play together (issue 14): a name, its members in order, and its own edit key."""

    __tablename__ = "groups"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    players: Mapped[list[str]] = mapped_column(JSON)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class WriteAnswer(db.Model):  # type: ignore[name-defined,misc]
    """The answer a write gave, kept under the client's Idempotency-Key (issue 24) for at least a day:
    a repeat of the write gets this answer again instead of writing twice.

    Stored in the write's own transaction. `scope` is the game's id (``game:<id>``) or, for a write
    that is not a game's (starting a game or a group, an import), its route. The key is kept only as
    a hash, and the answer (which may hold a new edit key) sealed with the key itself
    (companion.services.answers), so the table alone gives nothing away.
    """

    __tablename__ = "write_answers"
    __table_args__ = (UniqueConstraint("scope", "key_hash", name="uq_write_answers_scope_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[str] = mapped_column(String(100))
    key_hash: Mapped[str] = mapped_column(String(64))
    request_hash: Mapped[str] = mapped_column(String(64))  # what was asked: method, address, keys sent, body
    status: Mapped[int] = mapped_column(Integer)
    sealed: Mapped[bytes] = mapped_column(LargeBinary)  # the answer's headers and body, sealed
    created_at: Mapped[datetime] = mapped_column(default=utc_now, index=True)


class GroupMember(db.Model):  # type: ignore[name-defined,misc]
    """A player who joined a group after it was made (its `players` are the founders): a row each,
    inserted or left alone atomically, so games started in the group at once never lose a name."""

    __tablename__ = "group_members"
    __table_args__ = (UniqueConstraint("group_id", "folded", name="uq_group_members_group_folded"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    folded: Mapped[str] = mapped_column(String(160))  # name.casefold(): a name joins once, whatever its case
