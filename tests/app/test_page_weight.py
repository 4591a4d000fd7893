"""The game page's weight (issue 24): its HTML with every stylesheet and script it loads at open stays
under 60 KB uncompressed (benchmarks/page_weight.py measures the same page); scripts and stylesheets
are served minified (companion/assets.py) with ETags that answer 304, the files in static/ as written."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from benchmarks import page_weight as benchmark
from companion import paths

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
GOAL_BYTES = 60 * 1024
ASSET = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')


def key_holders_game_page(client: FlaskClient, rounds: int = 5) -> str:
    """The heaviest game page, built as benchmarks/page_weight.py builds the page it weighs."""
    _, page = benchmark.key_holders_game_page(client, rounds, len(PLAYERS))
    assert f"Enter round {rounds + 1} scores" in page.decode()
    return page.decode()


def test_the_game_page_with_what_it_loads_weighs_under_60_kb(client: FlaskClient) -> None:
    page = key_holders_game_page(client)
    addresses = list(dict.fromkeys(ASSET.findall(page)))
    assert {"/static/app.css", "/static/js/drafts.js", "/static/js/api-call.js", "/static/js/round-entry.js"} <= set(
        addresses
    )
    weight = len(page.encode()) + sum(len(client.get(address).data) for address in addresses)
    assert weight < GOAL_BYTES, f"{weight:,} bytes"


def test_scripts_and_stylesheets_are_served_minified_with_etags(app: Flask, client: FlaskClient) -> None:
    for name, mimetype in (("js/round-entry.js", "text/javascript"), ("app.css", "text/css")):
        written = (paths.static_folder() / name).read_bytes()
        served = client.get(f"/static/{name}")
        assert served.status_code == 200 and served.mimetype == mimetype
        assert len(served.data) < 0.8 * len(written)  # comments and indentation left out
        assert b"/*" not in served.data and b"\n  " not in served.data
        again = client.get(f"/static/{name}", headers={"If-None-Match": served.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""
    round_entry = client.get("/static/js/round-entry.js").data.decode()
    assert '.outbox("ctc:outbox:"' in round_entry and "CardTableRoundEntry" in round_entry  # there, only shorter
    assert "function enqueue(" not in round_entry  # local names shortened
    icon = client.get("/static/icon.svg")  # any other file as Flask sends it
    assert icon.status_code == 200 and icon.data == (paths.static_folder() / "icon.svg").read_bytes()
    assert client.get("/static/js/no-such-file.js").status_code == 404
    assert client.get("/static/../companion/assets.py").status_code == 404


def test_pages_go_without_indentation_but_keep_their_words(client: FlaskClient) -> None:
    page = key_holders_game_page(client, rounds=1)
    assert "\n " not in page and "\n\n" not in page
    assert "<span>Ann</span>" in page and "Save round 2" in page
