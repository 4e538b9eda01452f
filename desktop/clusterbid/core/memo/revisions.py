"""Every revision of a memo, for `clusterbid verify --explain`: its bytes, what it added and which
check covers it. A memo is the exported file (one or more revisions before the first signature)
and one incremental update per signature; anything else written after a signature is named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

EXPORTED = (
    "the memo as exported: every page proven against the re-render of its attached inputs, "
    "page 1 against the attachment's hash and figures, the inputs re-scored"
)

AFTER = "each earlier signature's analysis of what followed it"


@dataclass(frozen=True)
class Revision:
    number: int  # 1-based, in file order
    start: int  # byte offset where the revision begins
    end: int  # byte offset just past its %%EOF
    added: str
    checked_by: str

    def words(self) -> str:
        return (
            f"revision {self.number}, bytes {self.start:,}-{self.end:,}: {self.added}\n"
            f"    checked by: {self.checked_by}"
        )


def _ends(pdf: bytes, reader: Any) -> list[int]:
    ends = []
    for revision in range(reader.xrefs.total_revisions):
        found = pdf.find(b"%%EOF", reader.xrefs.get_startxref_for_revision(revision))
        ends.append(len(pdf) if found < 0 else found + len(b"%%EOF"))
    return ends


def _has_dss(reader: Any, revision: int) -> bool:
    try:
        return "/DSS" in reader.get_historical_root(revision)
    except Exception:  # noqa: BLE001 (a damaged history: the signatures' own checks say so)
        return False


def memo_revisions(pdf: bytes, reader: Any, embedded: list[Any]) -> tuple[Revision, ...]:
    """The revisions of `pdf` in file order; () when its history cannot be read."""
    try:
        ends = _ends(pdf, reader)
        signed = {int(sig.signed_revision): str(sig.field_name) for sig in embedded}
        stamped = {int(ts.signed_revision) for ts in reader.embedded_timestamp_signatures}
        first_signed = min(signed, default=len(ends))
        found = []
        for revision, end in enumerate(ends):
            start = ends[revision - 1] if revision else 0
            objects = len(reader.xrefs.explicit_refs_in_revision(revision))
            if revision < first_signed:
                added = (
                    "the pages as drawn"
                    if revision == 0
                    else f"{objects} object(s) before any signature (attachments, empty fields)"
                )
                checked = EXPORTED
            elif revision in signed:
                field = signed[revision]
                added = f"signature field {field} filled ({objects} object(s))"
                checked = (
                    f"{field}'s signature: intact, covers every byte before it, signer trusted and "
                    "named for this field; each earlier signature's analysis of what followed it"
                )
            elif revision in stamped:
                added = f"document timestamp of the archive seal ({objects} object(s))"
                checked = f"{AFTER} (a seal's timestamp allowed after the last signature)"
            elif _has_dss(reader, revision) and not _has_dss(reader, revision - 1):
                added = f"validation data (DSS, {objects} object(s))"
                checked = f"{AFTER} (validation data allowed)"
            else:
                added = f"{objects} object(s) changed, not a signature"
                checked = f"{AFTER} (anything but a signature fails)"
            found.append(Revision(revision + 1, start, end, added, checked))
        if ends and ends[-1] < len(pdf.rstrip()):
            found.append(
                Revision(
                    len(ends) + 1,
                    ends[-1],
                    len(pdf),
                    "bytes after the last %%EOF",
                    "every signature's coverage (bytes no signature covers fail)",
                )
            )
        return tuple(found)
    except Exception:  # noqa: BLE001 (a damaged file: its own checks fail it; this is a courtesy)
        return ()
