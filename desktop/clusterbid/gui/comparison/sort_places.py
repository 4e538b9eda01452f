"""Places in an order, for a sort that Qt runs one comparison at a time (issue 32)."""

from __future__ import annotations

from functools import cmp_to_key
from typing import Any


def _less(a: object, b: object) -> bool:
    """Keys of one kind compare as they are; a number against a text compares their texts."""
    try:
        return bool(a < b)  # type: ignore[operator]
    except TypeError:
        return str(a) < str(b)


def order_places(keys: list[Any]) -> list[int]:
    """Each key's place in ascending order (0 first); equal keys share one place, so a stable
    sort on the places orders rows exactly as one on the keys, ties included."""
    rows = list(range(len(keys)))
    try:
        rows.sort(key=lambda row: keys[row])
    except TypeError:  # mixed kinds: the comparison the table always used

        def compare(i: int, j: int) -> int:
            return -1 if _less(keys[i], keys[j]) else int(_less(keys[j], keys[i]))

        rows.sort(key=cmp_to_key(compare))
    places = [0] * len(keys)
    place = 0
    for before, row in zip([None, *rows], rows):
        if before is not None and _less(keys[before], keys[row]):
            place += 1
        places[row] = place
    return places
