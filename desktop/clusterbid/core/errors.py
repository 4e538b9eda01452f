"""The one error type the CLI and GUI turn into a clear message instead of a traceback."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input the user can fix; the message names the file, field or rule and what to do."""
