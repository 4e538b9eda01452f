"""Anchor a document's audit chain outside the document: the memo records the head it was made from.

A chain whose head lives only in the same file cannot show a rewrite: someone who edits a row
and recomputes every hash after it, forges a decision row, or restores an older copy leaves a
chain that verifies. The memo, once signed, is a copy of the head that nobody can change without
breaking a signature; `clusterbid verify MEMO --evaluation DOC.clusterbid` checks that the
document's chain still holds that row with that hash.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from clusterbid.core.store.verify import verify_audit_chain

HASH_PATTERN = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class AuditAnchor:
    """The audit row (number and hash) a memo was made from."""

    seq: int
    hash: str

    @classmethod
    def from_head(cls, head: tuple[int, str]) -> AuditAnchor:
        return cls(int(head[0]), head[1])

    @classmethod
    def from_json(cls, value: object) -> AuditAnchor | None:
        """The anchor a memo's inputs carry; None when there is none (a memo made from JSON),
        ValueError when it is there but malformed (a tampered attachment)."""
        if value is None:
            return None
        if not isinstance(value, dict) or not isinstance(value.get("seq"), int) or value["seq"] < 1:
            raise ValueError(
                "the memo's audit anchor is malformed: it needs a row number of 1 or more"
            )
        if not isinstance(value.get("hash"), str) or not HASH_PATTERN.fullmatch(value["hash"]):
            raise ValueError(
                "the memo's audit anchor is malformed: its hash is not 64 lower-case hex digits"
            )
        return cls(value["seq"], value["hash"])

    def as_json(self) -> dict[str, object]:
        return {"seq": self.seq, "hash": self.hash}

    def describe(self) -> str:
        """The words a page prints: the full hash, so a reader can compare it by eye or tool."""
        return f"audit row #{self.seq}, hash {self.hash}"


def check_anchor(path: Path | str, anchor: AuditAnchor | None) -> list[str]:
    """Problems with the document at `path` as the source of a memo anchored at `anchor`
    (an empty list when its chain verifies and still holds that row with that hash)."""
    path = Path(path)
    if anchor is None:
        return [
            f"the memo records no audit anchor, so it cannot be tied to {path.name}'s history "
            "(it was made from a JSON evaluation or by a version before anchors)"
        ]
    report = verify_audit_chain(path)
    problems = [] if report.ok else [f"{path.name} fails its audit: {report.reason}"]
    row = next((r for r in report.rows if r.seq == anchor.seq), None)
    if row is None:
        last = report.rows[-1].seq if report.rows else 0
        problems.append(
            f"{path.name}'s audit trail has no row #{anchor.seq} (it ends at #{last}), but the "
            "memo "
            "was made at that row: the document was rolled back or is another evaluation"
        )
    elif row.hash != anchor.hash:
        problems.append(
            f"{path.name}'s audit row #{anchor.seq} has hash {row.hash[:16]}..., the memo was made "
            "at "
            f"{anchor.hash[:16]}...: the trail was rewritten since, or this is another evaluation"
        )
    return problems
