"""Where each field of an nccl-tests result row sits (from its header line or its token count),
how its tokens read, and what a parse sets aside."""

from __future__ import annotations

from dataclasses import dataclass

_STANDARD = [
    "size",
    "count",
    "type",
    "redop",
    "root",
    "time",
    "algbw",
    "busbw",
    "#wrong",
    "time",
    "algbw",
    "busbw",
    "#wrong",
]
_OLD = [
    "size",
    "count",
    "type",
    "redop",
    "time",
    "algbw",
    "busbw",
    "error",
    "time",
    "algbw",
    "busbw",
    "error",
]
# Builds without the data check print no check column at all (the same rows with the #wrong
# columns left out); their figures are read and flagged as not checked.
_NO_CHECK = [
    "size",
    "count",
    "type",
    "redop",
    "root",
    "time",
    "algbw",
    "busbw",
    "time",
    "algbw",
    "busbw",
]
_CHECK_NAMES = ("#wrong", "error")


@dataclass(frozen=True)
class Columns:
    """Token positions of one table's rows."""

    names: tuple[str, ...]
    redop: int | None
    root: int | None
    # (time, algbw, busbw, check, check name) per half; check is None when the build prints none
    halves: tuple[tuple[int, int, int, int | None, str | None], ...]
    width: int  # tokens per row; a timestamp column prints as two

    @classmethod
    def from_names(cls, names: list[str]) -> Columns | None:
        if names[:3] != ["size", "count", "type"]:
            return None
        if names[-2:] == ["algbw", "busbw"] and names.count("busbw") == 2:
            # Older builds and some VM images omit the last half's check title but print its value.
            first_check = names[names.index("busbw") + 1]
            names = names + [first_check] if first_check in _CHECK_NAMES else names
        halves: list[tuple[int, int, int, int | None, str | None]] = []
        for i, name in enumerate(names):
            if name in ("time", "cputime") and names[i + 1 : i + 3] == ["algbw", "busbw"]:
                after = names[i + 3] if i + 3 < len(names) else None
                if after in _CHECK_NAMES:
                    halves.append((i, i + 1, i + 2, i + 3, after))
                else:
                    halves.append((i, i + 1, i + 2, None, None))
        if len(halves) != 2:
            return None
        width = len(names) + (1 if "timestamp" in names else 0)
        redop = names.index("redop") if "redop" in names else None
        root = names.index("root") if "root" in names else None
        return cls(tuple(names), redop, root, (halves[0], halves[1]), width)


STANDARD = Columns.from_names(_STANDARD)
OLD = Columns.from_names(_OLD)
BY_WIDTH = {len(names): Columns.from_names(names) for names in (_STANDARD, _OLD, _NO_CHECK)}


def ascii_int(token: str) -> bool:
    """Digits 0-9 only: str.isdigit() also accepts superscripts such as U+00B2, which int() refuses."""
    return token.isascii() and token.isdigit()


def resolution(token: str) -> float:
    """Half the value of the last printed digit: how far rounding may have moved the figure."""
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** ((int(exponent) if exponent else 0) - decimals)


class TableProblem(Exception):
    """A line that makes its table unusable; the scan sets the table aside and goes on."""

    def __init__(self, lineno: int, problem: str) -> None:
        super().__init__(problem)
        self.lineno, self.problem = lineno, problem


@dataclass(frozen=True)
class Skipped:
    """What the parser set aside, at which line, and why (shown to the officer as a note)."""

    line: int
    reason: str
