"""Issue 28, section 9: no edit key reaches an access log, even from an old ?key= join link."""

from __future__ import annotations

import importlib.util
import re
import time
from pathlib import Path

from flask import Flask

from tests.servers import ROOT, call, start_gunicorn, stop

KEY = "s3cr3t-edit-key-of-an-old-printed-link"


def serve_config_format() -> str:
    spec = importlib.util.spec_from_file_location("serve_gunicorn", ROOT / "scripts" / "serve_gunicorn.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.access_log_format)


def test_gunicorns_access_log_leaves_the_key_out(app: Flask, database_url: str, tmp_path: Path) -> None:
    access_log = tmp_path / "access.log"
    extra = ("--access-logfile", str(access_log), "--access-logformat", serve_config_format())
    process, base_url = start_gunicorn(tmp_path / "gunicorn", database_url, workers=1, extra=extra)
    try:
        status, _ = call(base_url, "GET", f"/games/abc123/join?key={KEY}")
        assert status in (302, 303, 404)
        deadline = time.monotonic() + 10
        while "/games/abc123/join" not in access_log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        stop(process)
    logged = access_log.read_text()
    assert '"GET /games/abc123/join HTTP/1.1"' in logged
    assert KEY not in logged and "key=" not in logged


def test_the_deployment_files_log_no_query_string() -> None:
    unit = (ROOT / "deploy" / "card-table-companion.service").read_text()
    assert serve_config_format().replace("%", "%%") in unit
    assert "--access-logfile -" in unit
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.search(r"log_format companion [^;]*\$uri", nginx) and "$request " not in nginx
    assert "access_log /var/log/nginx/cards.access.log companion;" in nginx
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    assert re.search(r"request>uri query \{\s*delete key\s*\}", caddy)


def test_the_deployment_environment_sets_the_proxy_count_the_unit_assumes() -> None:
    """Issue 28, section 5: behind Caddy or nginx, without it every client has the proxy's address."""
    settings = (ROOT / "deploy" / "companion.env.example").read_text()
    assert re.search(r"^FLASK_PROXY_COUNT=1$", settings, re.MULTILINE)
    assert (
        "EnvironmentFile=/etc/card-table-companion.env"
        in (ROOT / "deploy" / "card-table-companion.service").read_text()
    )
