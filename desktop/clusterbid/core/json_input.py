"""JSON from a user's file, refused cheaply when it is hostile: size before reading, a bound on
the number of values before parsing, and absurd nesting or numbers as a message, not a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.safe_read import NotARegularFile, open_regular

# An evaluation of 1,000 bids is about 3 MB of JSON; 16 MiB leaves room and keeps the parse of
# a hostile file well under 100 MB of memory (parsed JSON costs several times its text).
MAX_JSON_BYTES = 16 * 1024 * 1024
# A bid has about 60 values; 10,000 bids about 600,000. A file of a million tiny values ("[0,0,...")
# costs far more memory than its size suggests, so the separators are counted before parsing.
MAX_JSON_SEPARATORS = 2_000_000


def read_json_text(path: Path, limit: int = MAX_JSON_BYTES) -> str:
    """The file's text, after checking its size on disk (never read whole first) and its encoding."""
    try:
        with open_regular(path) as stream:  # devices and FIFOs are refused before any read
            size = os.fstat(stream.fileno()).st_size
            if size > limit:
                raise InputError(
                    f"{path}: {size:,} bytes is larger than the {limit:,}-byte limit for a JSON "
                    "file"
                )
            raw = stream.read(limit + 1)  # a file that grows while read is still bounded
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a JSON file") from None
    except NotARegularFile as exc:
        raise InputError(f"{path}: {exc.strerror}") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise InputError(f"{path}: larger than the {limit:,}-byte limit for a JSON file")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(
            f"{path}: not UTF-8 text (byte {exc.start}, line {line}); save the file as UTF-8 JSON"
        ) from None


def loads(text: str, source: str) -> object:
    """Parse JSON text; every way it can fail is an InputError naming `source`."""
    separators = text.count(",") + text.count(":")
    if separators > MAX_JSON_SEPARATORS:
        raise InputError(
            f"{source}: holds about {separators:,} values; the limit is {MAX_JSON_SEPARATORS:,} "
            "(a bid has about 60)"
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{source}: not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise InputError(
            f"{source}: JSON nested too deeply (an evaluation is a few levels deep)"
        ) from None
    except ValueError as exc:  # an integer of more than 4,300 digits (Python's int_max_str_digits)
        raise InputError(
            f"{source}: JSON holds a number that is too long ({str(exc).split(';')[0]})"
        ) from None
