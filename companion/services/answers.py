"""Exactly-once writes (issue 24): the answer of a write kept under the client's Idempotency-Key.

A write sent with a key stores its answer (status, a few headers, the body) in its own
transaction, in the ``write_answers`` table, under the key's hash and the write's scope (the game,
or the route of a write that is not a game's). A repeat of the same request with the same key gets
that answer again and writes nothing; the same key with another request is a KeyReused (422).
Two copies of one request racing each other: the unique (scope, key) row, or the game's version,
lets one write; the other then finds the first one's answer.

The table keeps no key and no readable answer: the key only as a SHA-256 hash, the answer sealed
with a keystream drawn from the key (SHAKE-256), since an answer may hold a new edit key. Answers
are kept at least `KEEP`; older ones are deleted a few at a time after each keyed write.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app
from sqlalchemy import delete, select
from sqlalchemy.exc import SQLAlchemyError

from companion.errors import InvalidInput, KeyReused
from companion.extensions import db
from companion.models import WriteAnswer, utc_now

KEEP = timedelta(hours=24)
PRUNE_BATCH = 100
"""The most expired answers one write deletes: the work stays small, and writes outpace expiry."""
MAX_KEY_LENGTH = 255
KEY_REUSED = "this Idempotency-Key was already used for another request; send a new key with a new change"
BAD_KEY = f"the Idempotency-Key header must hold 1 to {MAX_KEY_LENGTH} characters"


@dataclass(frozen=True)
class Asked:
    """A keyed write: where its answer is kept (scope), the client's key, and what was asked (a hash)."""

    scope: str
    key: str
    request_hash: str

    @property
    def key_hash(self) -> str:
        return hashlib.sha256(self.key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Answer:
    """A stored answer, as it was first given."""

    status: int
    headers: dict[str, str]
    body: bytes


def read_key(header: str | None) -> str | None:
    """The key of an Idempotency-Key header (None without one). A structured-field string
    (``"abc"``, as the IETF draft writes it) and a bare value (``abc``) are the same key.

    >>> read_key('"8e03978e-40d5"'), read_key("8e03978e-40d5"), read_key(None)
    ('8e03978e-40d5', '8e03978e-40d5', None)
    """
    if header is None:
        return None
    key = header.strip()
    if len(key) >= 2 and key.startswith('"') and key.endswith('"'):
        key = key[1:-1]
    if not key or len(key) > MAX_KEY_LENGTH:
        raise InvalidInput(BAD_KEY)
    return key


def request_hash(parts: Iterable[bytes]) -> str:
    """A fingerprint of a request from its parts (each length-prefixed, so no two splits collide)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def find(asked: Asked) -> Answer | None:
    """The answer kept for this key, or None; KeyReused when the key came with another request."""
    query = select(WriteAnswer).where(WriteAnswer.scope == asked.scope, WriteAnswer.key_hash == asked.key_hash)
    kept = db.session.scalars(query).first()
    if kept is None:
        return None
    if kept.request_hash != asked.request_hash:
        raise KeyReused(KEY_REUSED)
    return _unseal(asked, kept)


def keep(asked: Asked, status: int, headers: Mapping[str, str], body: bytes) -> None:
    """Add the write's answer to the session, to be committed with the write itself."""
    packed = json.dumps({"headers": dict(headers), "body": body.decode("utf-8")}).encode("utf-8")
    db.session.add(
        WriteAnswer(
            scope=asked.scope,
            key_hash=asked.key_hash,
            request_hash=asked.request_hash,
            status=status,
            sealed=_seal(asked, zlib.compress(packed)),
            created_at=utc_now(),
        )
    )


def prune() -> None:
    """Delete up to PRUNE_BATCH answers older than KEEP, in a transaction of its own (after the
    write's commit, so it never holds up a write); a failure is logged and left for the next write."""
    expired = (select(WriteAnswer.id).where(WriteAnswer.created_at < utc_now() - KEEP).order_by(WriteAnswer.id)).limit(
        PRUNE_BATCH
    )
    try:
        with db.engine.begin() as connection:
            ids = list(connection.execute(expired).scalars())
            if ids:
                connection.execute(delete(WriteAnswer).where(WriteAnswer.id.in_(ids)))
    except SQLAlchemyError:
        current_app.logger.warning("expired write answers were not deleted", exc_info=True)


def _keystream(asked: Asked, length: int) -> bytes:
    seed = b"\0".join((b"card-table-companion answer", asked.scope.encode("utf-8"), asked.key.encode("utf-8")))
    return hashlib.shake_256(seed).digest(length)


def _seal(asked: Asked, data: bytes) -> bytes:
    stream = _keystream(asked, len(data))
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def _unseal(asked: Asked, kept: WriteAnswer) -> Answer:
    packed = json.loads(zlib.decompress(_seal(asked, kept.sealed)))
    return Answer(kept.status, dict(packed["headers"]), packed["body"].encode("utf-8"))
