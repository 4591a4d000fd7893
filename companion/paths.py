"""Where the app finds its templates, static files and database migrations.

In a source checkout (and an editable install) they are the repository's top-level folders
``templates/``, ``static/`` and ``migrations/``. The wheel carries copies of them inside the
``companion`` package (see ``[tool.hatch.build.targets.wheel]`` in pyproject.toml), because an
installed package has no repository around it.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def _folder(name: str) -> Path:
    """The package's copy of a top-level folder when it has one (an installed wheel), else the repository's.

    The package's copy comes first: next to an installed package is site-packages, where another
    distribution may have left a folder of the same name.
    """
    shipped = PACKAGE / name
    return shipped if shipped.is_dir() else PACKAGE.parent / name


def templates_folder() -> Path:
    """The Jinja templates of the pages and the printable sheets.

    >>> (templates_folder() / "base.html").is_file()
    True
    """
    return _folder("templates")


def static_folder() -> Path:
    """The stylesheets, scripts and icon served under /static.

    >>> (static_folder() / "app.css").is_file()
    True
    """
    return _folder("static")


def migrations_folder() -> Path:
    """The Alembic environment and revisions that Flask-Migrate runs (``flask --app companion db upgrade``).

    >>> (migrations_folder() / "env.py").is_file()
    True
    """
    return _folder("migrations")
