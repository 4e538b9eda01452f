"""`clusterbid schema`: write, or check, the JSON Schemas generated from the models, and the tables
resources/methodology.md lists from core's declarations (criteria, billing kinds)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _kept_schema(target: Path, expected_bytes: int) -> str | None:
    """The schema file's text, None when missing or not the size expected; read through the safe
    reader, so a FIFO or a link to a device in --dir is refused by name instead of blocking."""
    from clusterbid.core.errors import InputError
    from clusterbid.core.safe_read import read_regular

    try:
        raw = read_regular(target, expected_bytes)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(f"{target}: cannot be read ({exc.strerror or exc})") from None
    return raw.decode("utf-8", "replace") if len(raw) == expected_bytes else None


def _cmd_schema(args: argparse.Namespace) -> int:
    from clusterbid.core.schema import schema_texts
    from clusterbid.resources import resources_root

    folder = Path(args.dir) if args.dir else resources_root() / "schema"
    stale = []
    for name, text in schema_texts().items():
        target = folder / name
        if args.check:
            if _kept_schema(target, len(text.encode("utf-8"))) != text:
                stale.append(name)
        else:
            from clusterbid.core.safe_files import write_bytes_atomically

            folder.mkdir(parents=True, exist_ok=True)
            write_bytes_atomically(target, text.encode("utf-8"))
            print(f"wrote {target}")
    if not args.dir:  # the shipped methodology's tables of criteria and billing kinds, too
        stale += _methodology_tables(args.check)
    if stale:
        print(
            f"out of date in {folder}: {', '.join(stale)}; run: clusterbid schema", file=sys.stderr
        )
        return 1
    return 0


def _methodology_tables(check: bool) -> list[str]:
    """Rewrite (or check) the tables methodology.md lists from core's declarations
    (core/methodology_tables.py); the stale file's name, if any."""
    from clusterbid.core.methodology_tables import with_tables
    from clusterbid.core.safe_files import write_bytes_atomically
    from clusterbid.resources import resources_root

    target = resources_root() / "methodology.md"
    text = target.read_text(encoding="utf-8")
    wanted = with_tables(text)
    if wanted == text:
        return []
    if check:
        return [f"{target} (its tables)"]
    write_bytes_atomically(target, wanted.encode("utf-8"))
    print(f"wrote {target}")
    return []


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The verb of this module (see cli.VERBS)."""
    schema = verbs.add_parser(
        "schema", help="write (or --check) the JSON Schemas in resources/schema/"
    )
    schema.add_argument(
        "--check", action="store_true", help="exit 1 if the files differ from the models"
    )
    schema.add_argument("--dir", help="folder to write to (default: resources/schema)")
    schema.set_defaults(handler=_cmd_schema)
