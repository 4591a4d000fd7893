"""Issue 28, section 8: every operation of /api/openapi.json, fuzzed by schemathesis with real game
ids, group ids and keys: no server error, and no answer that breaks the document.

Bounded to about a minute: a few dozen examples per operation, valid and invalid ones.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any, cast

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES = 8
RFC_3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)")
DATE_TIMES = frozenset({"created_at", "updated_at", "changed_at"})
ODD_IF_MATCH = ('""', 'W/""', 'W/"3N9", W/""', '*, ""', '"v' + "9" * 5000 + '"')
"""If-Match values the generator seldom makes, sent to every operation that reads one."""


def date_times(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [item for key, item in value.items() if key in DATE_TIMES and isinstance(item, str)]
        return found + [text for item in value.values() for text in date_times(item)]
    if isinstance(value, list):
        return [text for item in value for text in date_times(item)]
    return []


@schemathesis.check
def dates_have_a_zone(ctx: Any, response: Any, case: Any) -> bool | None:
    """What the document calls a date-time is RFC 3339, with its zone (jsonschema leaves formats unchecked)."""
    if "json" not in (response.headers.get("content-type") or [""])[0]:
        return None
    wrong = [text for text in date_times(response.json()) if not RFC_3339.fullmatch(text)]
    assert not wrong, f"date-times without a zone: {wrong[:3]}"
    return None


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    dates_have_a_zone,
]
PLAYERS = ["Ann", "Bob", "Cy"]
CALLS: list[str] = []


def real_things(client: FlaskClient) -> dict[str, Any]:
    """A game of each kind and a group, for the ids and keys of the generated requests."""
    group = client.post("/api/groups", json={"name": "Friday", "players": PLAYERS}).get_json()
    games = {}
    for variant in ("pay-me", "contract-rummy", "play-or-pay", "pool-101"):
        body = {"variant": variant, "players": PLAYERS, "first_dealer": "Ann", "group": group["id"]}
        games[variant] = client.post("/api/games", json=body, headers={"X-Group-Key": group["edit_key"]}).get_json()
    score = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5, "Cy": 10}}
    pay_me = games["pay-me"]
    client.post(f"/api/games/{pay_me['id']}/rounds", json=score, headers={"X-Edit-Key": pay_me["edit_key"]})
    pool = games["pool-101"]
    deal = {"results": {"Ann": "win", "Bob": 80, "Cy": 20}}
    client.post(f"/api/games/{pool['id']}/deals", json=deal, headers={"X-Edit-Key": pool["edit_key"]})
    return {"group": group, "games": games}


def test_every_operation_answers_as_documented(app: Flask, client: FlaskClient) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    operations = [cast(Any, result).ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15
    failures: list[str] = []
    for operation in operations:
        things = real_things(client)  # afresh: a case may have deleted a game or replaced a key
        for variant, game in things["games"].items():
            path_parameters = {"game_id": game["id"], "group_id": things["group"]["id"]}
            names = {parameter.name for parameter in operation.path_parameters}
            path_parameters = {name: value for name, value in path_parameters.items() if name in names}
            headers = {"X-Edit-Key": game["edit_key"], "X-Group-Key": things["group"]["edit_key"]}
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                strategy = operation.as_strategy(mode, path_parameters=path_parameters, headers=headers)
                failures += fuzz(strategy, f"{operation.label} ({variant}, {mode.value})")
            if any(parameter.name == "If-Match" for parameter in operation.iter_parameters()):
                for value in ODD_IF_MATCH:
                    case = operation.Case(path_parameters=path_parameters, headers={**headers, "If-Match": value})
                    failures += called(case, f"{operation.label} ({variant}, If-Match {value[:20]})")
            if not names & {"game_id"}:
                break  # one round of cases is enough for an operation on no game
    assert failures == []
    assert set(CALLS) == {operation.label for operation in operations}  # every operation was called


def called(case: Any, label: str) -> list[str]:
    CALLS.append(case.operation.label)
    try:
        case.call_and_validate(checks=CHECKS)
    except Exception as failure:  # collected, so that one run shows every operation that fails
        return [f"{label}: {str(failure)[:600]}"]
    return []


def fuzz(strategy: Any, label: str) -> list[str]:
    found: list[str] = []

    @given(strategy)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        found.extend(called(case, label))

    with contextlib.suppress(Unsatisfiable):  # nothing of the operation can be made invalid
        run()
    return found


@pytest.fixture(autouse=True)
def _no_rate_limits(app: Flask) -> None:
    app.config["RATELIMIT_ENABLED"] = False
