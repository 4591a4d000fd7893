"""A non-editable install (``pip install .``) serves the pages, the static files and the PDFs.

Builds the wheel, checks that it carries the templates, static files and migrations, installs it
into a fresh virtual environment outside the repository and runs the app from there: the database
migrations with ``flask db upgrade``, then gunicorn, asked for a page, a stylesheet and a PDF.

The new environment gets the dependencies from this test run's environment (a .pth line naming
its site-packages; the editable install's own .pth there is not read), so nothing is downloaded.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rcssmin

from tests.servers import LISTENING, ROOT, stop

EXPECTED_IN_WHEEL = (
    "companion/__init__.py",
    "companion/paths.py",
    "engine/__init__.py",
    "companion/templates/base.html",
    "companion/templates/sheets/game_sheet.html",
    "companion/static/app.css",
    "companion/static/css/print.css",
    "companion/static/js/live.js",
    "companion/migrations/env.py",
    "companion/migrations/alembic.ini",
    "companion/migrations/script.py.mako",
)


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, built the way `pip install .` builds it (hatchling)."""
    folder = tmp_path_factory.mktemp("wheel")
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    run([*pip_wheel, "--wheel-dir", str(folder), str(ROOT)], cwd=folder)
    (built,) = folder.glob("card_table_companion-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment, outside the repository, with the wheel installed: its python."""
    venv = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=venv)
    python = venv / "bin" / "python"
    site_packages = run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], venv).strip()
    (Path(site_packages) / "test-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    pip_install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps"]
    run([*pip_install, "--no-index", str(wheel)], cwd=venv)
    return python


def app_env() -> dict[str, str]:
    """This environment minus whatever could point the app at the repository or another database."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"PYTHONPATH", "DATABASE_URL", "VIRTUAL_ENV"} and not name.startswith("FLASK_")
    }
    env["PYTHONUNBUFFERED"] = "1"
    return env


@pytest.fixture(scope="module")
def served(installed: Path) -> Iterator[str]:
    """The installed app, migrated with `flask db upgrade`, behind gunicorn on a free port: its base URL."""
    workdir = installed.parents[1]
    run([str(installed), "-m", "flask", "--app", "companion", "db", "upgrade"], cwd=workdir, env=app_env())
    log_path = workdir / "gunicorn.log"
    with log_path.open("w+", encoding="utf-8") as log:
        command = [
            str(installed),
            "-m",
            "gunicorn",
            "--bind",
            "127.0.0.1:0",
            "--threads",
            "2",
            "companion:create_app()",
        ]
        process = subprocess.Popen(command, cwd=workdir, env=app_env(), stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while not (match := LISTENING.search(log_path.read_text(encoding="utf-8"))):
                assert process.poll() is None and time.monotonic() < deadline, log_path.read_text(encoding="utf-8")
                time.sleep(0.05)
            yield f"http://127.0.0.1:{match.group(1)}"
        finally:
            stop(process)


def fetch(base_url: str, path: str, body: bytes | None = None) -> tuple[int, str, bytes]:
    """Status, content type and body of one request (JSON when there is a body)."""
    request = urllib.request.Request(base_url + path, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: Any = response
        return int(answer.status), str(answer.headers["Content-Type"]), bytes(answer.read())


def test_the_wheel_carries_templates_static_files_and_migrations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in EXPECTED_IN_WHEEL if name not in names]
    assert missing == []
    assert any(re.fullmatch(r"companion/migrations/versions/\w+\.py", name) for name in names)
    modules = {
        path.relative_to(ROOT).as_posix()
        for package in ("engine", "companion")
        for path in (ROOT / package).rglob("*.py")
    }
    assert modules - names == set()  # every module, subpackages' too
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
    assert not [name for name in names if name.startswith(("tests/", "templates/", "static/", "migrations/"))]


def test_the_installed_package_is_the_one_in_the_new_environment(installed: Path) -> None:
    script = "import companion, companion.paths as p; print(companion.__file__); print(p.templates_folder())"
    module, templates = run([str(installed), "-c", script], cwd=installed.parents[1], env=app_env()).split()
    venv = installed.parents[1]
    assert Path(module).is_relative_to(venv) and not Path(module).is_relative_to(ROOT)
    assert Path(templates) == Path(module).parent / "templates"


def test_the_installed_app_serves_pages_static_files_and_pdfs(served: str, installed: Path) -> None:
    status, content_type, body = fetch(served, "/")
    assert (status, content_type) == (200, "text/html; charset=utf-8") and b"</html>" in body

    status, content_type, body = fetch(served, "/static/app.css")
    minified = rcssmin.cssmin((ROOT / "static/app.css").read_text(encoding="utf-8")).encode()  # companion/assets.py
    assert (status, content_type.split(";")[0]) == (200, "text/css") and body == minified

    game = b'{"variant": "pay-me", "players": ["Ann", "Bob", "Cy"]}'
    status, content_type, body = fetch(served, "/api/games", game)
    assert (status, content_type) == (201, "application/json")
    game_id = re.search(rb'"id":\s*"([^"]+)"', body)
    assert game_id is not None

    status, content_type, body = fetch(served, f"/games/{game_id.group(1).decode()}/sheet.pdf")
    assert (status, content_type) == (200, "application/pdf") and body.startswith(b"%PDF-")

    # The database lives in the installed app's default instance folder, inside the new environment.
    assert list((installed.parents[1] / "var" / "companion-instance").glob("*.sqlite3"))
