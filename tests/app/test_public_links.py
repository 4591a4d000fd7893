"""Issue 16, defect 8: share and join links come from a configured public address, never the Host header."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.sharing import links
from tests.conftest import api_game, app_on

PLAYERS = ["Ann", "Bob", "Cy"]
ADDRESSES = re.compile(r'http[s]?://[^"<\s]+/games/[^"<\s]+')


def share_page(client: FlaskClient, host: str, base_url: str = "http://localhost") -> tuple[list[str], str, str]:
    """(the addresses on the game page seen by its key holder with this Host, its panels in full (the edit
    link's comes when it opens), the page, the game's id)."""
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}", domain=host.split(":")[0])
    page = client.get(f"/games/{game['id']}/players", base_url=base_url, headers={"Host": host}).get_data(as_text=True)
    return ADDRESSES.findall(page), page, game["id"]


def test_a_forged_host_never_reaches_the_qr_codes(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.23")
    found, page, game_id = share_page(client, "evil.example")
    assert "evil.example" not in page
    assert f"http://192.168.1.23/games/{game_id}" in found
    assert any(address.startswith(f"http://192.168.1.23/games/{game_id}/join#key=") for address in found)
    assert all(address.startswith("http://192.168.1.23/") for address in found)


def test_the_lan_address_keeps_the_port_the_request_came_in_on(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(links, "lan_address", lambda: "10.0.0.7")
    found, _page, game_id = share_page(client, "127.0.0.1:5000", base_url="http://127.0.0.1:5000")
    assert f"http://10.0.0.7:5000/games/{game_id}" in found


def test_a_configured_public_address_is_used(tmp_path: Path, database_url: str) -> None:
    with app_on(tmp_path, database_url, PUBLIC_URL="https://cards.example/") as app:
        client = app.test_client()
        found, _page, game_id = share_page(client, "evil.example")
        assert f"https://cards.example/games/{game_id}" in found
        assert any(address.startswith(f"https://cards.example/games/{game_id}/join#key=") for address in found)
        assert all(address.startswith("https://cards.example/") for address in found)


def test_trusted_hosts_refuse_a_forged_host(tmp_path: Path, database_url: str) -> None:
    with app_on(tmp_path, database_url, TRUSTED_HOSTS=["cards.example"]) as app:
        client = app.test_client()
        assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
        assert client.get("/", headers={"Host": "cards.example"}).status_code == 200
