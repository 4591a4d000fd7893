"""The form that hands an edit key to this browser (CSRF-protected, as every form)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import InputRequired, Length

MAX_KEY_LENGTH = 200


class JoinForm(FlaskForm):  # type: ignore[misc]
    key = StringField(
        "Edit key",
        validators=[
            InputRequired("Paste the edit key from the scorekeeper's phone."),
            Length(max=MAX_KEY_LENGTH, message="This is not an edit key; it is far too long."),
        ],
    )
