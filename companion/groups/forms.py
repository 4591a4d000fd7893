"""The forms of the group pages; each carries a CSRF token (Flask-WTF)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length

from companion.sharing.forms import MAX_KEY_LENGTH


def names_of(text: str | None) -> list[str]:
    """The non-empty lines of a text area, one name per line."""
    return [line for line in (text or "").splitlines() if line.strip()]


class NewGroupForm(FlaskForm):
    name = StringField("Name of the group", validators=[InputRequired("Give the group a name.")])
    players = TextAreaField("Players, one name per line (more join with the games)")

    def member_names(self) -> list[str]:
        return names_of(self.players.data)


class StartGameForm(FlaskForm):
    variant = SelectField("Game", validators=[InputRequired("Choose a game.")])
    players = TextAreaField(
        "Players, in seat order (clockwise), one name per line; a new name joins the group",
        validators=[InputRequired("Enter the players' names, one per line.")],
    )

    def player_names(self) -> list[str]:
        return names_of(self.players.data)


class JoinGroupForm(FlaskForm):
    """The group's key, posted by static/js/join.js from the join link's fragment, or pasted in."""

    key = StringField(
        "Group key",
        validators=[
            InputRequired("Paste the group key from the other phone."),
            Length(max=MAX_KEY_LENGTH, message="This is not a group key; it is far too long."),
        ],
    )
