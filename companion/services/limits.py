"""Rate-limit counters in the database, so that every worker and every server counts together.

A limit such as ``"30/minute"`` counts in fixed windows that start at a bucket's first hit.
Each hit is one atomic upsert (``INSERT ... ON CONFLICT DO UPDATE ... RETURNING``, in SQLite
3.35+ and PostgreSQL alike) in a transaction of its own, so a count is never lost to a
concurrent hit nor to the rollback of the request that made it. A hit after the window's end
starts a new window; rows of ended windows are deleted whenever a window starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import case, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from companion.extensions import db
from companion.models import RateCount

Clock = Callable[[], float]
MAX_BUCKET = 200


def _insert() -> postgresql.Insert | sqlite.Insert:
    if db.engine.dialect.name == "postgresql":
        return postgresql.insert(RateCount)
    return sqlite.insert(RateCount)


def hit(bucket: str, allowed: int, seconds: int, clock: Clock = time.time) -> bool:
    """Count one event in `bucket`; False when it is past `allowed` in this window (refuse it)."""
    now = int(clock())
    ended = RateCount.expires <= now
    counted = _insert().values(bucket=bucket[:MAX_BUCKET], hits=1, expires=now + seconds)
    upsert = counted.on_conflict_do_update(
        index_elements=[RateCount.bucket],
        set_={
            "hits": case((ended, 1), else_=RateCount.hits + 1),
            "expires": case((ended, now + seconds), else_=RateCount.expires),
        },
    ).returning(RateCount.hits)
    with db.engine.begin() as connection:
        hits = int(connection.execute(upsert).scalar_one())
        if hits == 1:  # a new window: forget the ended ones (of every bucket)
            connection.execute(delete(RateCount).where(RateCount.expires <= now))
    return hits <= allowed


def exhausted(bucket: str, allowed: int, clock: Clock = time.time) -> bool:
    """Whether `bucket` has used up `allowed` in its current window (nothing is counted)."""
    query = select(RateCount.hits).where(RateCount.bucket == bucket[:MAX_BUCKET], RateCount.expires > int(clock()))
    with db.engine.connect() as connection:
        hits = connection.execute(query).scalar_one_or_none()
    return (hits or 0) >= allowed


def forget_all() -> None:
    """Drop every count (for the tests, or an operator who wants a clean slate)."""
    with db.engine.begin() as connection:
        connection.execute(delete(RateCount))
