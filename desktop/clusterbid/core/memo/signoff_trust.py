"""What verify may trust for one memo, and why: written once for the CLI and the app.

Trust anchors come from `--trust` files, the organisation's registry file and the evaluation
document; approvers from the registry file and the document's registry. From the document, only
what was recorded at or before the audit row the memo was made at counts: a CA, a self-signed
"approver" certificate or an approver added after the memo was made is named with its row, its
date and who added it, and never makes the memo valid.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

from clusterbid.core.errors import InputError
from clusterbid.core.memo.anchor_check import memo_anchor
from clusterbid.core.memo.next_steps import Step, mark
from clusterbid.core.memo.registered_approver import RegisteredApprover
from clusterbid.core.memo.trust_store import read_certificate_file, row_words

if TYPE_CHECKING:
    from clusterbid.core.store.approvers import ApproverEntry

DOCUMENT_SUFFIX = ".clusterbid"


@dataclass(frozen=True)
class Anchor:
    """A certificate verify may chain signers to; `after_memo` says why it does not count."""

    certificate: x509.Certificate
    source: str
    after_memo: str = ""


@dataclass(frozen=True)
class Registry:
    source: str
    approvers: tuple[RegisteredApprover, ...]  # in force for this memo
    later: tuple[RegisteredApprover, ...] = ()  # recorded after the memo was made


@dataclass(frozen=True)
class SignoffTrust:
    anchors: tuple[Anchor, ...] = ()
    registries: tuple[Registry, ...] = ()
    memo_made: str | None = None  # the date of the memo's audit row, when a document shows it
    notes: tuple[str, ...] = ()

    @property
    def roots(self) -> list[asn1_x509.Certificate]:
        """The anchors that count, in the form pyHanko takes."""
        return [
            asn1_x509.Certificate.load(a.certificate.public_bytes(Encoding.DER))
            for a in self.anchors
            if not a.after_memo
        ]


def _memo_anchor(pdf: bytes) -> tuple[int, str] | None:
    try:
        anchor = memo_anchor(pdf)
    except Exception:  # noqa: BLE001 (unreadable: the anchor check reports it in its own words)
        return None
    return None if anchor is None else (anchor.seq, anchor.hash)


def _from_document(
    pdf: bytes, path: Path
) -> tuple[list[Anchor], Registry | None, str | None, list[str]]:
    from clusterbid.core.memo.trust_store import kept_trust_anchors
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.core.store.fileformat import recovery_files

    anchor = _memo_anchor(pdf)
    made_at = f"after this memo was made at row #{anchor[0]}" if anchor else ""
    notes = (
        []
        if anchor
        else [
            f"the memo records no audit row of {path.name}, so none of its trust anchors or "
            "approvers count for it"
        ]
    )
    beside = [p.name for p in recovery_files(path)]
    if beside:  # read as it lies on disk (immutable): said, so nobody thinks the change was seen
        notes.append(
            f"{', '.join(beside)} lies beside {path.name}: verify read the document as it is on "
            "disk without it and left both files untouched"
        )
    with EvaluationDocument.open(path, read_only=True) as document:
        rows = {row.seq: row for row in document.audit_rows()}
        made = rows.get(anchor[0]) if anchor else None
        if anchor and (made is None or made.hash != anchor[1]):  # another or a rewritten history
            notes.append(
                f"{path.name} does not hold the audit row this memo was made at (the anchor check "
                "says why), so none of its trust anchors or approvers count for it"
            )
            anchor, made, made_at = None, None, "the document does not hold the memo's audit row"

        def late(seq: int) -> str:
            return (
                "" if anchor and seq <= anchor[0] else (made_at or "the memo records no audit row")
            )

        anchors = [
            Anchor(cert, f"{path.name} {row_words(row)}", late(row.seq))
            for cert, row in kept_trust_anchors(document)
        ]
        entries = list(document.approver_registry().values())
        at_memo = list(document.approver_registry(anchor[0]).values()) if anchor else []
    # A retirement recorded after the memo still applies: it can only take validity away.
    retired_later = {e.key: e.retired_on for e in entries if e.retired_on}
    in_force = tuple(
        _registered(
            e, f"{path.name} {row_words(e.keys_set)}", "", e.retired_on or retired_later.get(e.key)
        )
        for e in at_memo
    )
    later = tuple(
        _registered(
            e, f"{path.name} {row_words(e.keys_set)}", made_at or "the memo records no audit row"
        )
        for e in entries
        if not anchor or e.keys_set.seq > anchor[0]
    )
    where = f"{path.name} as it stood at row #{anchor[0]}" if anchor else path.name
    # The registry as it stood at the memo's row decides; when it was empty then, approvers
    # registered since are named but neither count nor condemn a memo made before the registry.
    registry = Registry(where, in_force, later) if in_force else None
    if entries and not in_force:
        notes.append(
            f"{path.name} had no approver registered when this memo was made; registered since: "
            + "; ".join(f"{e.label} ({e.source})" for e in later)
        )
    if registry is None:
        notes.append(
            f"signers were held to the names on the memo and the certificates {path.name} trusted "
            f"when it was made ({mark(Step.REGISTER_APPROVERS, path.name)})"
        )
    return anchors, registry, made.at[:10] if made else None, notes


def _registered(
    entry: ApproverEntry, source: str, after_memo: str, until: str | None = None
) -> RegisteredApprover:
    fingerprints: frozenset[str] = frozenset().union(*(k.fingerprints() for k in entry.keys))
    return RegisteredApprover(
        entry.name,
        entry.role,
        entry.email,
        fingerprints,
        entry.valid_from,
        until or entry.retired_on,
        source,
        after_memo,
    )


def _from_file(path: Path) -> tuple[list[Anchor], Registry]:
    from clusterbid.core.memo.registry_file import read_registry_file

    registry = read_registry_file(path)
    anchors = [Anchor(c, f"registry file {path.name}") for c in registry.trust_anchors]
    anchors += [
        Anchor(c, f"registry file {path.name}, {a.approver.name}, {a.approver.role}")
        for a in registry.approvers
        for c in a.certificates
    ]
    approvers = tuple(a.approver for a in registry.approvers)
    return anchors, Registry(f"registry file {path.name}", approvers)


def signoff_trust(
    pdf: bytes,
    trust_files: list[Path | str],
    evaluation: Path | str | None = None,
    registry_file: Path | str | None = None,
) -> SignoffTrust:
    """Everything verify trusts for `pdf`; InputError when a file given cannot be read."""
    anchors = []
    for path in map(Path, trust_files):
        try:
            given = mark(Step.TRUST_GIVEN, path.name)  # "--trust ca.pem" or the app's words
            anchors += [Anchor(c, given) for c in read_certificate_file(path)]
        except InputError as exc:
            raise InputError(f"{mark(Step.TRUST_GIVEN)} {exc}") from None
    registries, notes, made = [], [], None
    if registry_file is not None:
        file_anchors, registry = _from_file(Path(registry_file))
        anchors += file_anchors
        registries.append(registry)
    if evaluation is not None and Path(evaluation).suffix == DOCUMENT_SUFFIX:
        doc_anchors, doc_registry, made, doc_notes = _from_document(pdf, Path(evaluation))
        anchors += doc_anchors
        registries += [doc_registry] if doc_registry else []
        notes += doc_notes
    return SignoffTrust(tuple(anchors), tuple(registries), made, tuple(notes))
