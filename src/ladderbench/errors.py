"""The one exception type for user mistakes: the CLI prints it as one line and exits 2."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from the user (a file, a flag, an endpoint): shown as one line, never a traceback.

    The message should say what is wrong, where (file:line, field, URL) and how to fix it.
    """
