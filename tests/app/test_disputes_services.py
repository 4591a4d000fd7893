"""Issue 26 (the app part): the dispute services take the engine's typed answers, the rule on points
typed beside a hand's cards is a service's, and no service reaches the HTTP-security module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import ROOT
from companion.errors import InvalidInput
from companion.services import disputes, store
from engine.layoffs import LayoffScore
from engine.melds import Verdict
from engine.solver import Arrangement
from tests.conftest import api_game

PLAYERS = ["Ann", "Bob", "Cy"]
COMPANION = ROOT / "companion"


def _companion_imports(path: Path) -> set[str]:
    """The companion modules a module imports (``from companion.x import y`` names companion.x and,
    when it is a module of its own, companion.x.y)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("companion")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("companion"):
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if _module_path(name) is not None}


def _module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _reached_from(start: str) -> set[str]:
    """Every companion module `start` imports, directly or through others (the package `companion`
    itself, which builds the app on demand, left out)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        path = _module_path(name)
        if name in seen or name == "companion" or path is None:
            continue
        seen.add(name)
        todo.extend(_companion_imports(path))
    return seen


@pytest.mark.parametrize(
    "service",
    sorted(
        "companion.services." + (path.stem if path.parent.name == "services" else f"{path.parent.name}.{path.stem}")
        for path in [*COMPANION.glob("services/*.py"), *COMPANION.glob("services/*/*.py")]
        if path.stem != "__init__"
    ),
)
def test_no_service_reaches_the_http_security_module(service: str) -> None:
    assert "companion.security" not in _reached_from(service)


def test_the_dispute_services_import_only_public_engine_names_from_top_level_modules() -> None:
    for path in (COMPANION / "services" / "disputes").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine"):
                assert node.module.count(".") == 1, f"{path.name} imports from {node.module}"
                assert not any(alias.name.startswith("_") for alias in node.names), f"{path.name}: {node.module}"


def test_checks_answer_with_the_engines_typed_values(app: Flask, client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    with app.app_context():
        at = disputes.game_table(store.get_game(game["id"]), 2)
        (verdict,) = disputes.check_melds(at, ["4H 5H 6H"])
        assert isinstance(verdict, Verdict) and verdict.valid
        assert isinstance(disputes.best_hand(at, "4H 5H 6H 9C"), Arrangement)
        scored = disputes.best_hand(at, "7H 9C", ["4H 5H 6H"])
        assert isinstance(scored, LayoffScore) and scored.layoffs == ((0, scored.layoffs[0][1]),)
        refused = disputes.lay_off(at, [["4H", "5H", "6H"]], 1, "9C")
        assert not refused.valid and refused.code and refused.melds[0].as_json() == ["4H", "5H", "6H"]


def _round(hands: dict[str, str], points: dict[str, str]) -> disputes.CardsRound:
    return disputes.CardsRound(
        "Ann", ("4H 5H 6H",), {name: hands.get(name, "") for name in PLAYERS}, {n: points.get(n, "") for n in PLAYERS}
    )


def test_the_typed_points_rule_is_a_service(app: Flask, client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    with app.app_context():
        stored = store.get_game(game["id"])
        best = disputes.score_entries(stored, 1, _round({"Bob": "KC 9D"}, {}))["Bob"].points
        typed = disputes.score_entries(stored, 1, _round({"Bob": "KC 9D"}, {"Bob": f"10+{best - 10}"}))
        assert typed["Bob"].points == best == 20
        with pytest.raises(InvalidInput, match=r"Bob: these cards score at least 20: .* \(typed: 5\)"):
            disputes.score_entries(stored, 1, _round({"Bob": "KC 9D"}, {"Bob": "5"}))
        with pytest.raises(InvalidInput, match=r"Bob: these cards can score 20: .*clear the points to use 20"):
            disputes.score_entries(stored, 1, _round({"Bob": "KC 9D"}, {"Bob": "25"}))


def test_a_cards_round_keeps_typed_points_only_for_players_without_cards() -> None:
    entered = _round({"Bob": "KC 9D"}, {"Bob": "19", "Cy": "7"})
    assert entered.hands_entered == {"Bob": "KC 9D"}
    assert entered.scores_typed == {"Cy": "7"}
    assert entered.melds_entered == ["4H 5H 6H"]
    bare = disputes.CardsRound("Ann", ("", ""), dict.fromkeys(PLAYERS, ""), {"Ann": "", "Bob": "3", "Cy": ""})
    assert bare.scores_typed == {"Bob": "3", "Ann": "0"} and bare.melds_entered is None
