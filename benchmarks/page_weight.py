"""The game page's weight: its HTML with every stylesheet and script it loads, in bytes (issue 24).

Run from the repository root:  python benchmarks/page_weight.py [--rounds 5] [--players 4]

Renders the game page of a Pay Me game for the phone holding the edit key (the heaviest: the round
entry form, its scripts, the edit links), after a few rounds, through Flask's test client on a
throwaway SQLite database; then adds up the bytes of the HTML and of every <link rel=stylesheet> and
<script src> it names (uncompressed; gzip level 6; and as the app sends them to a browser that asks for
compression, the old app sending them as they are). Goal: under 60 KB (61,440 bytes) uncompressed together.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
ROOT = Path(sys.argv[sys.argv.index("--root") + 1]).resolve() if "--root" in sys.argv else HERE  # a baseline
sys.path.insert(0, str(ROOT))

from flask.testing import FlaskClient  # noqa: E402

from companion import create_app  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
GOAL_BYTES = 60 * 1024
ASKED = {"Accept-Encoding": "gzip, deflate"}
ASSET = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')


def key_holders_game_page(client: FlaskClient, rounds: int = 5, players: int = 4) -> tuple[str, bytes]:
    """The heaviest game page, the one `weigh` weighs: Pay Me after `rounds` rounds, as the phone holding
    the edit key gets it; answers the game's id and the page (tests/app/test_page_weight.py uses it too)."""
    names = PLAYERS[:players]
    game = client.post("/api/games", json={"variant": "pay-me", "players": names, "first_dealer": names[0]}).json
    assert game is not None
    for number in range(rounds):
        went_out = names[number % players]
        scores = {name: 0 if name == went_out else 5 + number for name in names}
        answer = client.post(
            f"/api/games/{game['id']}/rounds",
            json={"went_out": went_out, "scores": scores},
            headers={"X-Edit-Key": game["edit_key"]},
        )
        assert answer.status_code == 201, answer.json
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    page = client.get(f"/games/{game['id']}")
    assert page.status_code == 200, page.status_code
    return game["id"], page.get_data()


def weigh(rounds: int, players: int) -> tuple[dict[str, bytes], dict[str, int]]:
    """The game page and each asset it loads, by address; and the bytes the app sends of each to a browser
    that asks for compression (Accept-Encoding as Chromium sends it over plain http)."""
    from flask_migrate import upgrade

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/weight.sqlite3"},
            instance_path=f"{folder}/instance",
        )
        with app.app_context():
            upgrade()
        client = app.test_client()
        game_id, html = key_holders_game_page(client, rounds, players)
        served = {"HTML": html}
        sent = {"HTML": len(client.get(f"/games/{game_id}", headers=ASKED).get_data())}
        for address in ASSET.findall(html.decode()):
            served[address] = client.get(address).get_data()
            sent[address] = len(client.get(address, headers=ASKED).get_data())
        return served, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--root", help="weigh the pages of another checkout (a baseline)")
    options = parser.parse_args()
    served, sent = weigh(options.rounds, options.players)
    print(f"{'bytes':>7}  {'gzip':>6}  {'sent':>6}  address")
    for address, body in served.items():
        print(f"{len(body):>7,}  {len(gzip.compress(body, 6)):>6,}  {sent[address]:>6,}  {address}")
    total = sum(len(body) for body in served.values())
    packed = sum(len(gzip.compress(body, 6)) for body in served.values())
    compressed = sum(sent.values())
    print(
        f"{total:>7,}  {packed:>6,}  {compressed:>6,}  together ({total / 1024:.1f} KB, gzip {packed / 1024:.1f} KB,"
        f" sent compressed {compressed / 1024:.1f} KB; goal under 60 KB)"
    )


if __name__ == "__main__":
    main()
