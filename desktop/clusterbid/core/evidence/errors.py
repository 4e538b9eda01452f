"""The error every evidence parser raises: source, 1-based line and the problem, in one message."""

from __future__ import annotations

from clusterbid.core.errors import InputError


class EvidenceParseError(InputError):
    """An evidence artefact could not be read; the message says where and what is wrong.

    The message reads "<source> line <n>: <problem>" (or "<source>: <problem>" when the problem
    is not tied to one line), so the GUI can show it as is and the user can open the file there.
    """

    def __init__(self, source: str, line: int | None, problem: str) -> None:
        self.source = source
        self.line = line
        self.problem = problem
        where = f"{source} line {line}" if line is not None else source
        super().__init__(f"{where}: {problem}")
