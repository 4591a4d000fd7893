"""The layout of companion/ (issue 12): imports run one way, engine <- services <- blueprints.

The import graph is read from the source with `ast` (every import, also those inside functions).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from flask import Flask

from companion import ROOT

PACKAGE = ROOT / "companion"
BLUEPRINT_PACKAGES = ("games", "play_or_pay", "pool", "disputes", "rules", "sheets", "sharing", "api")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> Iterator[tuple[str, list[str]]]:
    """(module imported, names taken from it) for every import statement of a module."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            names = [alias.name for alias in node.names]
            submodules = [f"{base}.{item}" for item in names if f"{base}.{item}" in MODULES]
            taken = [item for item in names if f"{base}.{item}" not in MODULES]
            if taken or not submodules:  # "from package import module" depends on the module only
                yield base, taken
            for submodule in submodules:
                yield submodule, []


def graph() -> dict[str, set[str]]:
    return {
        name: {target for target, _names in imports(name) if target in MODULES and target != name} for name in MODULES
    }


def test_no_import_cycles() -> None:
    edges = graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(name) :], name]))
        if name in done:
            return
        for target in sorted(edges[name]):
            visit(target, [*path, name])
        done.add(name)

    for name in sorted(edges):
        visit(name, [])
    assert done == set(MODULES)


def test_no_private_name_is_imported_across_modules() -> None:
    used = [
        (name, target, item)
        for name in MODULES
        for target, names in imports(name)
        if target.startswith(("companion", "engine"))
        for item in names
        if item.startswith("_") and item != "__version__"
    ]
    assert used == []


def test_no_private_attribute_of_another_module_is_used() -> None:
    """``services._commit`` and the like: a module's private names stay inside it."""
    offenders = []
    for name, path in MODULES.items():
        aliases = {
            alias.asname or alias.name.rpartition(".")[2]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom | ast.Import)
            for alias in node.names
        }
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                offenders.append(f"{name}: {node.value.id}.{node.attr}")
    assert offenders == []


def test_only_the_services_and_the_base_modules_import_the_engine() -> None:
    """Blueprints (routes, forms, the API) ask the services; they never call the engine."""
    engine_users = sorted(
        name
        for name in MODULES
        for target, _names in imports(name)
        if target == "engine" or target.startswith("engine.")
    )
    blueprint_users = [name for name in engine_users if name.split(".")[1] in BLUEPRINT_PACKAGES]
    assert blueprint_users == []
    # errors.py answers an EngineError with a 400; schemas.py describes the engine's values.
    assert {name.split(".")[1] for name in engine_users} <= {"services", "errors", "schemas"}


def test_blueprints_leave_the_database_to_the_services() -> None:
    offenders = [
        name
        for name in MODULES
        if name.split(".")[1:2] and name.split(".")[1] in BLUEPRINT_PACKAGES
        for target, _names in imports(name)
        if target in ("companion.extensions", "sqlalchemy", "flask_sqlalchemy") or target.startswith("sqlalchemy.")
    ]
    assert offenders == []


def test_the_services_do_not_import_the_blueprints_or_flask_requests() -> None:
    for name in MODULES:
        if not name.startswith("companion.services"):
            continue
        for target, names in imports(name):
            assert target.split(".")[:2] != ["companion", "keys"], name
            assert not any(target.startswith(f"companion.{package}") for package in BLUEPRINT_PACKAGES), name
            assert "request" not in names, name


def test_one_api_blueprint_and_at_most_nine_blueprints(app: Flask) -> None:
    assert len(app.blueprints) <= 9  # pool rummy's page joined the eight (issue 30)
    api_endpoints = {
        rule.endpoint.partition(".")[0] for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")
    }
    assert api_endpoints == {"api"}
