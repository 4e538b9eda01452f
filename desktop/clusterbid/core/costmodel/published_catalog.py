"""Reading a catalog of published figures (resources/catalog/*.toml): training's software stacks
and serving's engines are each a list of `[[table]]` entries, one per choice the workload offers,
every figure with its source. One reader, so both refuse a bad file the same way: the file and
the entry named, the problem in one line."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from clusterbid.core.errors import InputError
from clusterbid.core.model_parsing import one_line_problems
from clusterbid.resources import resource_path

Entry = TypeVar("Entry", bound=BaseModel)


def published_entries(
    file_name: str,
    table: str,
    model: type[Entry],
    choices: Iterable[str],
    check: Callable[[Entry, str], None],
) -> dict[str, Entry]:
    """Every `[[table]]` entry of resources/catalog/`file_name` by its id, each validated by
    `model` and then `check(entry, file_name)` (which raises InputError); refuses a file whose
    ids are not exactly the workload's `choices` (its choices but "not stated")."""
    path = resource_path("catalog", file_name)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path.name}: not valid TOML ({exc})") from None
    entries: dict[str, Entry] = {}
    for index, item in enumerate(raw.get(table, [])):
        try:
            entry = model.model_validate(item)
        except ValidationError as exc:
            raise InputError(
                f"{path.name} [[{table}]] #{index + 1}: {one_line_problems(exc)}"
            ) from None
        check(entry, path.name)
        entries[str(getattr(entry, "id"))] = entry  # noqa: B009 (the models share no base)
    expected = set(choices)
    if set(entries) != expected:
        raise InputError(
            f"{path.name}: {table}s {sorted(entries)} differ from the workload's choices "
            f"{sorted(expected)}"
        )
    return entries
