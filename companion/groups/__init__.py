"""The pages of groups that play together (issue 14): start a group, its page, start games in it."""

from companion.groups import routes

__all__ = ["routes"]
