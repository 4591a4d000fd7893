"""The app factory's settings, the secret key, the migrations, and the LAN address helper."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade

from companion import ROOT, create_app, lan, normalise_database_url
from companion.extensions import db
from tests.servers import call, start_gunicorn, stop


def test_secret_key_is_generated_into_the_instance_folder_once(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    first = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(instance))
    key_file = instance / "secret_key"
    assert key_file.exists()
    assert len(first.config["SECRET_KEY"]) >= 32
    assert key_file.read_text().strip() == first.config["SECRET_KEY"]
    assert key_file.stat().st_mode & 0o077 == 0
    second = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(instance))
    assert second.config["SECRET_KEY"] == first.config["SECRET_KEY"]


def test_database_defaults_to_sqlite_in_the_instance_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app(instance_path=str(tmp_path))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    assert Path(app.template_folder or "") == ROOT / "templates"
    assert Path(app.static_folder or "") == ROOT / "static"


def test_settings_from_config_file_environment_and_test_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "config.py").write_text('SECRET_KEY = "from file"\nGREETING = "file"\nCOLOUR = "file"\n')
    monkeypatch.setenv("FLASK_COLOUR", "env")
    monkeypatch.setenv("DATABASE_URL", "postgres://user:pw@db.example/cards")
    app = create_app({"GREETING": "test"}, instance_path=str(tmp_path))
    assert app.config["SECRET_KEY"] == "from file"
    assert app.config["COLOUR"] == "env"
    assert app.config["GREETING"] == "test"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://user:pw@db.example/cards"
    assert not (tmp_path / "secret_key").exists()


def test_normalise_database_url() -> None:
    assert normalise_database_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_database_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_database_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"


def test_migrations_create_the_schema_of_the_models(tmp_path: Path) -> None:
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite3'}"},
        instance_path=str(tmp_path),
    )
    with app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_lan_address_is_an_ipv4_address() -> None:
    address = lan.lan_address()
    parts = address.split(".")
    assert len(parts) == 4 and all(part.isdigit() for part in parts)


def test_lan_address_falls_back_to_the_host_name(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoNetwork:
        def __init__(self, *args: object) -> None:
            raise OSError("no network")

    monkeypatch.setattr(lan.socket, "socket", NoNetwork)
    monkeypatch.setattr(lan.socket, "gethostbyname", lambda name: "192.168.1.23")
    assert lan.lan_address() == "192.168.1.23"

    def unknown(name: str) -> str:
        raise socket.gaierror("unknown host")

    monkeypatch.setattr(lan.socket, "gethostbyname", unknown)
    assert lan.lan_address() == "127.0.0.1"


def test_serve_script_is_valid_bash_and_serves_through_gunicorn_on_every_address() -> None:
    script = ROOT / "serve"
    subprocess.run(["bash", "-n", str(script)], check=True)
    content = script.read_text()
    assert "pip install" in content and "-e ." in content
    assert 'cmp -s pyproject.toml "$installed"' in content  # the install is skipped while pyproject.toml is unchanged
    assert "gunicorn --config scripts/serve_gunicorn.py --preload" in content
    assert '--bind "0.0.0.0:${PORT}"' in content and 'PORT="${PORT:-5000}"' in content


def test_serves_gunicorn_settings_apply_the_migrations_before_it_listens(tmp_path: Path) -> None:
    """`bash serve`'s gunicorn, on a database that has no tables yet, answers the API at once."""
    database_url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    settings = ("--config", str(ROOT / "scripts" / "serve_gunicorn.py"), "--preload")
    process, base_url = start_gunicorn(tmp_path / "instance", database_url, workers=1, threads=2, extra=settings)
    try:
        assert call(base_url, "POST", "/api/groups", {"name": "Fresh", "players": ["Ann"]})[0] == 201
    finally:
        stop(process)
