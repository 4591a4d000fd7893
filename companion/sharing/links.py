"""The links and QR codes that share a game with the other phones at the table.

- Every phone showing a game sees a QR code of its plain address (view only).
- A browser holding the game's edit key also sees a QR code of the join link
  ``/games/<id>/join#key=<edit key>`` (companion.sharing.routes). The key is in the fragment,
  which browsers never send to a server, so it stays out of access logs and proxies. Only a hash
  of the key is stored on the server, so this code is made from the key in this browser's cookie.
- The links start with the configured ``PUBLIC_URL`` (such as ``https://cards.example``); without
  one, with this computer's LAN address (what `bash serve` prints) and the port the request came
  in on. Never with the request's Host header, which any client can forge.
"""

from __future__ import annotations

from functools import lru_cache
from io import BytesIO
from typing import Any
from urllib.parse import urlencode

import segno
from flask import current_app, request, url_for
from markupsafe import Markup

from companion.keys import KEY_COOKIE
from companion.lan import lan_address

JOIN_PARAMETER = "key"


def public_base() -> str:
    """Where the phones reach this app: PUBLIC_URL, else http(s)://<LAN address>:<port>."""
    configured = str(current_app.config.get("PUBLIC_URL") or "").strip()
    if configured:
        return configured.rstrip("/")
    scheme = "https" if request.is_secure else "http"
    port = str(request.environ.get("SERVER_PORT") or "")
    default = {"http": "80", "https": "443"}[scheme]
    return f"{scheme}://{lan_address()}" + (f":{port}" if port.isdecimal() and port != default else "")


def share_url(game_id: str) -> str:
    """The game's address for the other phones (see public_base)."""
    return public_base() + url_for("games.game_page", game_id=game_id)


def qr_svg(data: str, title: str) -> Markup:
    """A QR code as inline SVG: black on white (scannable in dark mode too), sized by CSS."""
    code = segno.make(data, error="m")
    svg = code.svg_inline(dark="#000", light="#fff", omitsize=True, svgclass="qr-code", lineclass=None, title=title)
    return Markup(svg)  # made by segno from a URL; the title is ours


def join_url(share_url: str, key: str) -> str:
    """The address that hands the edit key to another phone, the key in the fragment.

    >>> join_url("http://192.168.1.23:5000/games/abc", "k-1_x")
    'http://192.168.1.23:5000/games/abc/join#key=k-1_x'
    """
    return share_url.rstrip("/") + "/join#" + urlencode({JOIN_PARAMETER: key})


def qr_file(data: str, title: str) -> bytes:
    """A QR code as an SVG file of its own (an <img> of the game page), black on white."""
    buffer = BytesIO()
    segno.make(data, error="m").save(buffer, kind="svg", dark="#000", light="#fff", title=title, xmldecl=False, scale=8)
    return buffer.getvalue()


@lru_cache(maxsize=256)
def view_qr_file(share_url: str) -> bytes:
    """The view-only address's QR code as a file, made once per address: encoding it costs about as
    much as the game page (the edit link's code, which holds a key, is never kept)."""
    return qr_file(share_url, "QR code of the view-only address")


def share_codes(share_url: str, can_edit: bool) -> dict[str, Any]:
    """The QR codes of the game page, as the addresses of their images (sharing.routes): view only for
    everyone, the edit link for a key holder. Images, not inline SVG, keep the page small (issue 24): a
    phone loads them when the panel opens, and the view code from its cache after that."""
    codes: dict[str, Any] = {"view_url": share_url, "edit_url": None}
    key = request.cookies.get(KEY_COOKIE)
    if can_edit and key:
        codes["edit_url"] = join_url(share_url, key)
    return codes
