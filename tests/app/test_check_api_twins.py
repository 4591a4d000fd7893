"""Every option of the command line's checks has its twin in the JSON API, and the README says
which (issue 25): ``check``, ``best``, ``layoff`` and ``contract`` against ``POST /api/check``,
``/api/best``, ``/api/layoff`` and ``/api/contract``."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion import schemas
from engine.cli import command_parser
from tests.app.test_disputes_api import cli

ROOT = Path(__file__).resolve().parents[2]
REQUESTS: dict[str, type[schemas.Command]] = {
    "check": schemas.CheckRequest,
    "best": schemas.BestRequest,
    "layoff": schemas.LayoffRequest,
    "contract": schemas.ContractRequest,
}
# The command line's names for a field, where they differ from the field's.
FIELD_OF = {"overrides": "options"}
NO_TWIN = {("best", "jsonl")}  # hands read from standard input; the API scores one hand a request


def command_options(command: str) -> dict[str, str]:
    """The command's options and arguments: each destination with what the user types."""
    actions = command_parser()._actions
    commands = next(action for action in actions if isinstance(action, argparse._SubParsersAction)).choices
    found = {}
    for action in commands[command]._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        found[action.dest] = action.option_strings[0] if action.option_strings else action.metavar or action.dest
    return found


@pytest.mark.parametrize("command", list(REQUESTS))
def test_every_command_line_option_has_its_api_field_and_back(command: str) -> None:
    fields = set(REQUESTS[command].model_fields)
    twins = {FIELD_OF.get(dest, dest) for dest in command_options(command) if (command, dest) not in NO_TWIN}
    assert twins == fields


@pytest.mark.parametrize("command", list(REQUESTS))
def test_the_readme_names_each_option_and_its_field(command: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if re.match(rf"\| `{command} --variant", line))
    typed, endpoint, fields = (cell.strip() for cell in row.strip("|").split("|"))
    assert endpoint == f"`/api/{command}`"
    for dest, shown in command_options(command).items():
        if (command, dest) in NO_TWIN:
            continue
        assert shown in typed, shown
        assert f"`{FIELD_OF.get(dest, dest)}`" in fields, dest
    assert set(re.findall(r"`(\w+)`", fields)) == set(REQUESTS[command].model_fields)


DEAL_7 = ["AH 2H 3H 4H", "5S 6S 7S 8S", "9C 10C JC QC"]


@pytest.mark.parametrize("left", [0, 2])
def test_contract_takes_left_as_the_command_line_does(client: FlaskClient, left: int) -> None:
    body = {"variant": "contract-rummy", "round": 7, "melds": DEAL_7, "left": left}
    response = client.post("/api/contract", json=body)
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert answer == cli("contract", "--variant", "contract-rummy", "--round", "7", "--left", str(left), *DEAL_7)
    assert answer["valid"] is (left == 0)
    if left:
        assert "2 cards would be left in hand" in answer["reason"]


@pytest.mark.parametrize(("left", "says"), [(-1, '"-1"'), ("two", '"two"'), (True, '"True"')])
def test_contract_refuses_a_left_that_is_not_a_number_of_cards(client: FlaskClient, left: object, says: str) -> None:
    body = {"variant": "contract-rummy", "round": 7, "melds": DEAL_7, "left": left}
    response = client.post("/api/contract", json=body)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert "left" in error and says in error, error
