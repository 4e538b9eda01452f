"""An approver as verify holds signers to them, from the document's rows or an organisation's
registry file (registry_file.py builds them; signoff_trust.py gathers them for one memo)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RegisteredApprover:
    """A person in a role, the fingerprints of the keys they sign with, and when they count."""

    name: str
    role: str
    email: str
    fingerprints: frozenset[str]
    valid_from: str | None
    until: str | None
    source: str  # which entry: a registry file, or the document's row
    after_memo: str = ""  # set for a change recorded after the memo was made: named, never counted

    @property
    def label(self) -> str:
        return f"{self.name}, {self.role}"
