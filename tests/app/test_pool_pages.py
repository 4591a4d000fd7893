"""Pool rummy on the pages (issue 30, RULES.md 11): the new-game page with the buy-in typed as money and
the house options in the preset's own numbers, the group flow, the pool page (standings that explain
themselves, one deal's results, rejoin offers, the split, undo), its PRG forms with CSRF, and every
refusal: one sentence, nothing stored. Also the pool page's weight."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.app.test_groups_pages import make_group
from tests.app.test_page_weight import ASSET, GOAL_BYTES
from tests.conftest import api_game, edit_key, every_game

Post = Callable[..., Any]
PLAYERS = ["Asha", "Ben", "Cy"]


def plain(page: str) -> str:
    """The page's words, without tags, on one line."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))).strip()


def page_error(page: str) -> str:
    found = re.search(r'<p class="alert" role="alert" id="page-error"[^>]*>([^<]*)</p>', page)
    assert found, page[:500]
    return html.unescape(found.group(1))


def start(post_form: Post, buy_in: str = "5.00", variant: str = "pool-101", **fields: str) -> str:
    """A game started on the new-game page (Asha deals first); its id. The client then holds its key."""
    form = {"variant": variant, "players": "\n".join(PLAYERS), "first_dealer_method": "chosen", "first_dealer": "0"}
    form["opt_cut_joker"] = "y"  # a box ticked by default is sent as a browser sends it
    made = post_form("/games/new", {**form, "buy_in": buy_in, **fields})
    assert made.status_code == 303, plain(made.get_data(as_text=True))[:800]
    return str(made.headers["Location"].rsplit("/", 1)[1])


def state(client: FlaskClient, game_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}")
    assert answer.status_code == 200
    body: dict[str, Any] = answer.get_json()
    return body


def deal(post_form: Post, game_id: str, version: int, **fields: str) -> Any:
    return post_form(f"/games/{game_id}/pool/deals", {"version": str(version), **fields})


# RULES.md 11.7 example 7: deal 1 Asha wins, Ben 70, Cy 20; deal 2 Asha 35, Ben 40, Cy wins.
DEAL_1 = {"cut": "7", "result-0": "win", "count-1": "70", "result-2": "drop"}
DEAL_2 = {"cut": "JK", "count-0": "35", "result-1": "middle", "result-2": "win"}


def ben_out(client: FlaskClient, post_form: Post) -> str:
    game_id = start(post_form)
    assert deal(post_form, game_id, 1, **DEAL_1).status_code == 303
    assert deal(post_form, game_id, 2, **DEAL_2).status_code == 303
    assert state(client, game_id)["out"] == ["Ben"]
    return game_id


# ---------------------------------------------------------------- the new-game page


def test_the_new_game_page_offers_pool_101_and_201_with_a_buy_in_and_plain_house_rules(client: FlaskClient) -> None:
    everyone = client.get("/games/new").get_data(as_text=True)
    assert 'href="/games/new?variant=pool-101"' in everyone and 'href="/games/new?variant=pool-201"' in everyone
    assert "Pool Rummy 201" in plain(everyone) and 'name="buy_in"' not in everyone
    assert 'href="/games/new?variant=pool-101"' in client.get("/games/new/chips").get_data(as_text=True)
    page = client.get("/games/new?variant=pool-201").get_data(as_text=True)
    words = plain(page)
    assert 'name="buy_in"' in page and 'inputmode="decimal"' in page and "Buy-in, each player" in words
    assert "Out at 201 or more" in words and "Out only above 201" in words
    assert "Rejoin only while the highest total still in is at most 174" in words
    assert "Giving up before drawing a first card scores 25." in words
    assert 'name="opt_pot"' not in page and "Ante" not in words  # the 3-13 pot is not pool's
    assert "(2 to 6)" in words


def test_a_pool_game_starts_with_its_buy_in_typed_as_money(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form, buy_in="$1,250.5", variant="pool-201", opt_rejoin_cutoff="off", opt_split="equal")
    game = state(client, game_id)
    assert game["variant"] == "pool-201" and game["pot"] == 3 * 125050
    assert game["options"]["buy_in"] == 125050 and game["options"]["rejoin_cutoff"] == "off"
    assert game["options"]["split"] == "equal" and game["options"]["pool_limit"] == 201
    assert client.get(f"/games/{game_id}").headers["Location"] == f"/games/{game_id}/pool"
    assert start(post_form, buy_in="") and state(client, every_game(client)[0]["id"])["pot"] == 0  # no money


def test_a_bad_buy_in_or_option_is_one_sentence_and_nothing_is_stored(client: FlaskClient, post_form: Post) -> None:
    form = {"variant": "pool-101", "players": "\n".join(PLAYERS), "first_dealer_method": "random"}
    for fields, words in (
        ({"buy_in": "five"}, 'Buy-in, each player: an amount of money such as 5.00, not "five"'),
        ({"buy_in": "5.001"}, 'not "5.001"'),
        ({"buy_in": "100001"}, "Buy-in: a whole number of cents from 0 to 10000000"),
        ({"buy_in": "5", "opt_first_drop": "lots"}, "First drop"),
        ({"buy_in": "5", "players": "Asha"}, "2"),
    ):
        refused = post_form("/games/new", {**form, **fields})
        assert refused.status_code == 400
        assert words in plain(refused.get_data(as_text=True)), (fields, plain(refused.get_data(as_text=True))[:600])
    assert client.post("/games/new", data={**form, "buy_in": "5"}).status_code == 400  # no CSRF token
    assert every_game(client) == []


def test_a_pool_game_starts_from_a_group_and_its_quick_start(client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form, players="Asha\nBen\nCy")
    group_page = client.get(f"/groups/{group_id}")
    assert group_page.status_code == 200
    assert '<option value="pool-201">Pool Rummy 201</option>' in group_page.get_data(as_text=True)
    page = client.get(f"/games/new?variant=pool-101&group={group_id}").get_data(as_text=True)
    assert f'href="/games/new?variant=pool-201&amp;group={group_id}"' in page
    made = post_form(
        "/games/new",
        {"variant": "pool-101", "group": group_id, "players": "Asha\nBen\nCy", "first_dealer": "0", "buy_in": "2"},
    )
    assert made.status_code == 303
    game = state(client, made.headers["Location"].rsplit("/", 1)[1])
    assert game["group"] == group_id and game["pot"] == 600
    quick = post_form(f"/groups/{group_id}/games", {"variant": "pool-201", "players": "Asha\nBen"})
    assert quick.status_code == 303
    assert state(client, quick.headers["Location"].rsplit("/", 1)[1])["variant"] == "pool-201"


# ---------------------------------------------------------------- the pool page


def test_the_pool_page_shows_standings_that_explain_themselves(client: FlaskClient, post_form: Post) -> None:
    game_id = ben_out(client, post_form)
    page = client.get(f"/games/{game_id}/pool").get_data(as_text=True)
    words = plain(page)
    assert "Asha 35 66 out at 101: 101 − 35 = 66 3 (101 − 1 − 35) ÷ 20 = 3, rounded down" in words
    assert "Ben 110 out out: 110 ≥ 101" in words
    assert "Pot $15.00 3 buy-ins × $5.00 = $15.00" in words
    assert "Cy deals deal 3." in words
    assert "Ben may rejoin at 36 for $5.00. (the highest total still in is 35, plus 1.)" in words
    assert "Ben rejoins, pays $5.00" in words
    assert 'data-draft="deal-3"' in page and "Save deal 3" in words
    assert 'data-player="Ben" role="radiogroup"' not in page  # no result for a player who is out
    assert page.count('name="cut"') == 14 and "Printed joker" in words
    assert 'data-api="/api/games/' in page and 'data-key="' in page
    assert "Undo deal 2" in words and f'href="/games/{game_id}/check"' in page
    assert f'href="/games/{game_id}/rules"' in page and f'href="/games/{game_id}/sheet"' in page


def test_a_viewer_sees_the_standings_without_forms_and_gets_304(client: FlaskClient, post_form: Post, app: Any) -> None:
    game_id = ben_out(client, post_form)
    viewer = app.test_client()
    shown = viewer.get(f"/games/{game_id}/pool")
    words = plain(shown.get_data(as_text=True))
    assert shown.status_code == 200 and "View only" in words and "Ben may rejoin at 36 for $5.00" in words
    assert "Save deal" not in words and "Ben rejoins, pays" not in words and "Undo" not in words
    again = viewer.get(f"/games/{game_id}/pool", headers={"If-None-Match": shown.headers["ETag"]})
    assert again.status_code == 304
    assert client.get(f"/games/{game_id}/pool").headers["Cache-Control"] == "no-store"  # the key holder's forms
    assert viewer.post(f"/games/{game_id}/pool/deals", data={"version": "3"}).status_code in (400, 403)


def test_the_cut_grid_is_left_out_when_the_cut_joker_is_off(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form, opt_cut_joker="")
    page = client.get(f"/games/{game_id}/pool").get_data(as_text=True)
    assert 'name="cut"' not in page and "Cut joker" not in plain(page)
    refused = deal(post_form, game_id, 1, **{**DEAL_1, "cut": "7"})
    assert refused.status_code == 400 and state(client, game_id)["deals"] == []
    assert deal(post_form, game_id, 1, **{**DEAL_1, "cut": ""}).status_code == 303


def test_the_cut_grid_has_no_printed_joker_when_the_decks_have_none(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form, opt_jokers_per_deck="0")
    page = client.get(f"/games/{game_id}/pool").get_data(as_text=True)
    assert page.count('name="cut"') == 13 and "Printed joker" not in page


def test_other_games_have_no_pool_page(client: FlaskClient) -> None:
    rummy = api_game(client, "pay-me", PLAYERS, "Asha")
    assert client.get(f"/games/{rummy['id']}/pool").status_code == 404
    assert client.get("/games/no-such-game/pool").status_code == 404


def test_a_deal_saved_by_the_form_redirects_to_the_next_deal_or_the_offer(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    saved = deal(post_form, game_id, 1, **DEAL_1)
    assert saved.status_code == 303 and saved.headers["Location"] == f"/games/{game_id}/pool#deal-entry"
    first = state(client, game_id)["deals"][0]
    assert first["results"] == {"Asha": "win", "Ben": 70, "Cy": "drop"} and first["wild"] == "7"
    put_out = deal(post_form, game_id, 2, **DEAL_2)
    assert put_out.headers["Location"] == f"/games/{game_id}/pool#offers"
    assert state(client, game_id)["deals"][1]["cut"] == "JK"


def test_a_refused_deal_says_why_keeps_what_was_typed_and_stores_nothing(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    for fields, words in (
        ({"result-0": "win", "count-1": "70"}, "Not saved: Cy has no result: tap one or type the count."),
        ({**DEAL_1, "result-1": "drop"}, "Not saved: Ben: tap a result or type a count, not both."),
        ({**DEAL_1, "count-1": "7a"}, 'Not saved: Ben: a count is a whole number of points, not "7a".'),
        ({**DEAL_1, "result-2": "sulk"}, 'Not saved: Cy: "sulk" is not a result.'),
        ({**DEAL_1, "cut": "Z"}, 'Not saved: "Z" is not a rank of the cut grid.'),
        ({**DEAL_1, "result-2": "win"}, "Not saved: a deal has exactly one win, not 2."),
    ):
        refused = deal(post_form, game_id, 1, **fields)
        page = refused.get_data(as_text=True)
        assert refused.status_code == 400 and page_error(page) == words, page_error(page)
    assert re.search(r'name="count-1"[^>]* value="70"', page)  # what was typed, given back
    assert re.search(r'name="result-2" value="win" checked', page)
    game = state(client, game_id)
    assert game["deals"] == [] and game["version"] == 1


def test_a_stale_deal_is_409_and_a_form_without_csrf_is_refused(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    assert deal(post_form, game_id, 1, **DEAL_1).status_code == 303
    stale = deal(post_form, game_id, 1, **DEAL_2)
    assert stale.status_code == 409
    assert page_error(stale.get_data(as_text=True)).startswith("Not saved: another phone changed this game meanwhile.")
    missing = client.post(f"/games/{game_id}/pool/deals", data={"version": "2", **DEAL_2})
    assert missing.status_code == 400
    assert len(state(client, game_id)["deals"]) == 1


def test_a_rejoin_from_the_offer_and_its_refusals(client: FlaskClient, post_form: Post) -> None:
    game_id = ben_out(client, post_form)
    refused = post_form(f"/games/{game_id}/pool/rejoins", {"version": "3", "player": "Cy"})
    assert refused.status_code == 400
    assert page_error(refused.get_data(as_text=True)) == "Not saved: Cy is not out of the game, so cannot rejoin."
    stale = post_form(f"/games/{game_id}/pool/rejoins", {"version": "2", "player": "Ben"})
    assert stale.status_code == 409 and state(client, game_id)["rejoins"]["Ben"] == 0
    joined = post_form(f"/games/{game_id}/pool/rejoins", {"version": "3", "player": "Ben"})
    assert joined.status_code == 303 and joined.headers["Location"].endswith("#standings")
    game = state(client, game_id)
    assert game["totals"]["Ben"] == 36 and game["pot"] == 2000 and game["rejoins"]["Ben"] == 1


def test_the_rejoin_cutoff_is_said_and_no_button_offered(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    assert deal(post_form, game_id, 1, **{"result-0": "win", "count-1": "70", "count-2": "80"}).status_code == 303
    assert deal(post_form, game_id, 2, **{"result-0": "win", "result-1": "full", "count-2": "0"}).status_code == 303
    words = plain(client.get(f"/games/{game_id}/pool").get_data(as_text=True))
    assert "Ben is out: the highest total still in is 80, above 79: no one may rejoin." in words
    assert "Ben rejoins, pays" not in words
    refused = post_form(f"/games/{game_id}/pool/rejoins", {"version": "3", "player": "Ben"})
    assert refused.status_code == 400 and "above 79: no one may rejoin" in page_error(refused.get_data(as_text=True))
    assert state(client, game_id)["rejoins"]["Ben"] == 0


def test_the_split_by_drops_equal_or_typed_amounts(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    assert deal(post_form, game_id, 1, **DEAL_1).status_code == 303
    page = plain(client.get(f"/games/{game_id}/pool").get_data(as_text=True))
    assert "No split by drops: the split by drops would leave less than one buy-in to share." in page
    assert "Equally: Asha $5.00, Ben $5.00, Cy $5.00" in page
    for fields, words in (
        ({"split": "drops"}, "Not saved: the split by drops would leave less than one buy-in to share."),
        ({"split": ""}, "Not saved: choose how to split the pot: by drops left, equally, or the amounts typed."),
        (
            {"split": "amounts", "share-0": "10", "share-1": "4", "share-2": ""},
            "Not saved: the amounts typed add up to $14.00, not the pot of $15.00: $1.00 left over.",
        ),
        ({"split": "amounts", "share-0": "ten"}, 'Not saved: Asha: an amount of money such as 5.00, not "ten".'),
    ):
        refused = post_form(f"/games/{game_id}/pool/end", {"version": "2", **fields})
        assert refused.status_code == 400 and page_error(refused.get_data(as_text=True)) == words
    assert 'value="ten"' in refused.get_data(as_text=True)  # the typed amounts, given back
    assert state(client, game_id)["finished"] is False
    typed = {"split": "amounts", "share-0": "10", "share-1": "5"}
    ended = post_form(f"/games/{game_id}/pool/end", {"version": "2", **typed})
    assert ended.status_code == 303 and ended.headers["Location"].endswith("#result")
    game = state(client, game_id)
    assert game["split"] == {"method": "amounts", "shares": {"Asha": 1000, "Ben": 500, "Cy": 0}}
    assert game["nets"] == {"Asha": 500, "Ben": 0, "Cy": -500}
    words = plain(client.get(f"/games/{game_id}/pool").get_data(as_text=True))
    assert "Game over The table split the pot of $15.00 in the amounts the table typed: Asha, Ben, Cy agreed." in words
    assert "Asha $5.00 $10.00 +$5.00" in words and "Cy $5.00 $0.00 -$5.00" in words
    assert "Save deal" not in words and "Split the pot" not in words and "Undo the split" in words
    over = deal(post_form, game_id, 3, **DEAL_2)
    assert over.status_code == 400 and "the game is over" in page_error(over.get_data(as_text=True))


def test_the_last_player_left_wins_the_pot(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    assert deal(post_form, game_id, 1, **{"result-0": "win", "count-1": "80", "count-2": "80"}).status_code == 303
    assert deal(post_form, game_id, 2, **{"result-0": "win", "result-1": "full", "count-2": "30"}).status_code == 303
    words = plain(client.get(f"/games/{game_id}/pool").get_data(as_text=True))
    assert "Ben is out: the highest total still in is 110" not in words  # Cy is out too: one player left
    assert "Asha is the last player left and takes the pot of $15.00." in words
    assert "Ben $5.00 $0.00 -$5.00" in words and "Asha $5.00 $15.00 +$10.00" in words


def test_undo_takes_back_the_last_deal_rejoin_or_split(client: FlaskClient, post_form: Post) -> None:
    game_id = ben_out(client, post_form)
    assert post_form(f"/games/{game_id}/pool/rejoins", {"version": "3", "player": "Ben"}).status_code == 303
    assert "Undo Ben's rejoin" in plain(client.get(f"/games/{game_id}/pool").get_data(as_text=True))
    stale = post_form(f"/games/{game_id}/pool/undo", {"version": "3"})
    assert stale.status_code == 409 and state(client, game_id)["rejoins"]["Ben"] == 1
    undone = post_form(f"/games/{game_id}/pool/undo", {"version": "4"})
    assert undone.status_code == 303 and undone.headers["Location"].endswith("#deal-entry")
    assert state(client, game_id)["rejoins"]["Ben"] == 0
    for version in (5, 6):
        assert post_form(f"/games/{game_id}/pool/undo", {"version": str(version)}).status_code == 303
    nothing = post_form(f"/games/{game_id}/pool/undo", {"version": "7"})
    assert nothing.status_code == 404 and "there is no deal to undo yet" in page_error(nothing.get_data(as_text=True))
    assert client.post(f"/games/{game_id}/pool/undo", data={"version": "7"}).status_code == 400  # no CSRF token


def test_delete_players_and_the_ledger_know_a_pool_game(client: FlaskClient, post_form: Post) -> None:
    game_id = start(post_form)
    assert client.get(f"/games/{game_id}/delete").headers["Location"] == f"/games/{game_id}/pool#delete"
    assert client.get(f"/games/{game_id}/players").headers["Location"] == f"/games/{game_id}/pool"
    assert client.get(f"/games/{game_id}/pot").status_code == 404
    changed = post_form(f"/games/{game_id}/players", {"version": "1", "change": "add", "name": "Dee"})
    assert changed.status_code == 400 and state(client, game_id)["players"] == PLAYERS
    page = client.get(f"/games/{game_id}/pool").get_data(as_text=True)
    assert f'action="/games/{game_id}/delete" id="delete"' in page
    assert post_form(f"/games/{game_id}/delete", {"version": "1"}).status_code == 303
    assert client.get(f"/games/{game_id}/pool").status_code == 404


def test_the_pool_page_with_what_it_loads_weighs_under_60_kb(client: FlaskClient) -> None:
    """Five players after five deals, the last one putting Ben out with a rejoin offered: the page the
    phone holding the key gets, with every script and stylesheet it loads (as the rummy game page's
    budget in tests/app/test_page_weight.py)."""
    names = ["Asha", "Ben", "Cy", "Dee", "Eve"]
    game = api_game(client, "pool-101", names, "Asha", buy_in=500)
    for number in range(5):
        results: dict[str, Any] = {name: 5 + number for name in names}
        results[names[number % 5]] = "win"
        results["Ben"] = {1: "win", 3: "middle", 4: "full"}.get(number, results["Ben"])
        saved = client.post(f"/api/games/{game['id']}/deals", json={"results": results}, headers=edit_key(game))
        assert saved.status_code == 201, saved.get_json()
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    page = client.get(f"/games/{game['id']}/pool").get_data(as_text=True)
    assert "Save deal 6" in page and "Ben rejoins, pays $5.00" in page
    addresses = list(dict.fromkeys(ASSET.findall(page)))
    assert {"/static/js/pool.js", "/static/js/outbox.js", "/static/css/pool.css"} <= set(addresses)
    weight = len(page.encode()) + sum(len(client.get(address).data) for address in addresses)
    assert weight < GOAL_BYTES, f"{weight:,} bytes"
