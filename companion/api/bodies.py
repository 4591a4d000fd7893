"""Reading API request bodies into the models of companion.schemas, before a service sees them.

The models check the structure (unknown or missing fields, types); a refusal is an InvalidInput
with the one sentence of `schemas.parse` (a 400 ``{"error": ...}``). The values' rules (players,
scores, options, cards) are the services' and the engine's.
"""

from __future__ import annotations

from typing import TypeVar

from companion import schemas
from companion.api.http import json_object_body
from companion.errors import InvalidInput

BodyT = TypeVar("BodyT", bound=schemas.Body)


def parse(model: type[BodyT]) -> BodyT:
    """The request's JSON object as the model, or InvalidInput with one sentence."""
    try:
        return schemas.parse(model, json_object_body())
    except schemas.BodyError as error:
        raise InvalidInput(str(error)) from None


def event() -> schemas.Event:
    """The request's Play or Pay event, read by its "type"."""
    try:
        return schemas.parse_event(json_object_body())
    except schemas.BodyError as error:
        raise InvalidInput(str(error)) from None
