"""Scripts and stylesheets served minified (issue 24: the game page under 60 KB of HTML, CSS and JS).

The files in ``static/`` stay as written, comments and all; the app sends each ``.js`` and ``.css``
file without its comments and extra spaces, made once per file and kept in memory until the file
changes. Scripts also get short names for their local variables (calmjs.parse, which reads ES5, as the
scripts are written; a script it cannot read is sent by rjsmin without them); stylesheets by rcssmin.
Its ETag is a hash of what is sent, so a phone's cached copy stays right.
Every other static file is sent by Flask as before. Pages go without the templates' indentation and
blank lines (a line break stays where there was white space, so nothing shown changes; a page with a
<pre> or a <textarea>, where white space shows, is left as it is).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from threading import Lock, Thread

import rcssmin
import rjsmin
from calmjs.parse import es5
from calmjs.parse.exceptions import ECMASyntaxError
from calmjs.parse.unparsers.es5 import minify_print
from flask import Flask, Response, current_app, request
from flask.typing import ResponseReturnValue
from werkzeug.security import safe_join


def script(source: str) -> str:
    """A script without comments and spaces, its local names shortened (globals and properties stay)."""
    try:
        return str(minify_print(es5(source), obfuscate=True, obfuscate_globals=False))
    except ECMASyntaxError:  # newer syntax than ES5
        return str(rjsmin.jsmin(source))


MINIFIERS = {".js": script, ".css": rcssmin.cssmin}
MIMETYPES = {".js": "text/javascript", ".css": "text/css"}
INDENT = re.compile(rb"\n[ \t\r\n]+")
SHOWS_SPACES = re.compile(rb"<(?:pre|textarea)[\s>]", re.IGNORECASE)


@dataclass(frozen=True)
class Minified:
    """A file's minified text, with the modification time of the file it was made from."""

    made_from: float
    body: bytes
    etag: str


_kept: dict[Path, Minified] = {}
_lock = Lock()


def minified(path: Path) -> Minified:
    """The minified form of `path`, made at the first request and again only when the file changes."""
    changed = path.stat().st_mtime
    found = _kept.get(path)
    if found is not None and found.made_from == changed:
        return found
    source = path.read_text(encoding="utf-8")
    with _lock:  # once per file, and the parser is not known to be safe across threads
        found = _kept.get(path)
        if found is not None and found.made_from == changed:  # made meanwhile (the warm-up, another request)
            return found
        body = MINIFIERS[path.suffix](source).encode("utf-8")
        made = Minified(changed, body, hashlib.sha256(body).hexdigest()[:32])
        _kept[path] = made
    return made


def static_file(filename: str) -> ResponseReturnValue:
    """The static view: scripts and stylesheets minified, everything else as Flask sends it."""
    suffix = Path(filename).suffix
    folder = current_app.static_folder
    assert folder is not None
    joined = safe_join(folder, filename)
    if suffix not in MINIFIERS or joined is None or not Path(joined).is_file():
        return current_app.send_static_file(filename)
    found = minified(Path(joined))
    response = Response(found.body, mimetype=MIMETYPES[suffix])
    response.set_etag(found.etag)
    max_age = current_app.get_send_file_max_age(filename)
    if max_age is None:  # as Flask sends static files: asked again each time, answered 304 if unchanged
        response.cache_control.no_cache = True
    else:
        response.cache_control.max_age = max_age
        response.cache_control.public = True
    return response.make_conditional(request)


def without_indent(response: Response) -> Response:
    """A page's HTML without the indentation and blank lines of its templates."""
    if response.mimetype != "text/html" or response.direct_passthrough or response.is_streamed:
        return response
    page = response.get_data()
    if not SHOWS_SPACES.search(page):
        response.set_data(INDENT.sub(b"\n", page))
    return response


def warm(folder: Path) -> None:
    """Every script and stylesheet minified ahead of the first page that asks for them: reading the
    scripts takes about a second, which a phone opening the first page would otherwise wait for."""
    for path in sorted(folder.rglob("*")):
        if path.suffix in MINIFIERS and path.is_file():
            minified(path)


_warming: list[Thread] = []


def install(app: Flask) -> None:
    """Serve /static through `static_file`, its scripts and stylesheets made in the background at the
    first app of the process; pages without their indentation."""
    app.view_functions["static"] = static_file
    app.after_request(without_indent)
    if app.static_folder and not _warming:
        _warming.append(Thread(target=warm, args=(Path(app.static_folder),), name="minify", daemon=True))
        _warming[0].start()
