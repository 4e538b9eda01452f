"""Verify a memo: its signatures, every page against a re-render of its attached inputs, page 1
against the attachment, a re-score, and an evaluation; one three-state verdict."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from io import BytesIO

from asn1crypto import x509 as asn1_x509
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import fields

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.approver_binding import check_approvers, identity_of
from clusterbid.core.memo.attachment import read_attached_inputs
from clusterbid.core.memo.inputs import (
    INPUTS_ATTACHMENT_NAME,
    parse_memo_inputs,
    rescore_memo_inputs,
)
from clusterbid.core.memo.long_term import LongTermReport, long_term_reports
from clusterbid.core.memo.metadata_check import metadata_changes
from clusterbid.core.memo.next_steps import Step, mark
from clusterbid.core.memo.page_proof import prove_pages
from clusterbid.core.memo.printed_page import bind_page_to_inputs, first_revision
from clusterbid.core.memo.registry_check import check_registry
from clusterbid.core.memo.released_versions import figures_judged
from clusterbid.core.memo.revisions import Revision, memo_revisions
from clusterbid.core.memo.seal_fields import seal_timestamp_fields
from clusterbid.core.memo.signature_check import SignatureReport, check_signature
from clusterbid.core.memo.signoff_checks import signoff_problems
from clusterbid.core.memo.signoff_trust import SignoffTrust
from clusterbid.core.memo.verification_differences import compare_evaluation, compare_results
from clusterbid.core.uncertainty.decision import decisions_shared

PDF_PROBE = 1024
EVALUATION_DIFFERS = "the memo's evaluation is not the one given"  # verification_since.py


VALID, INDETERMINATE, INVALID = "VALID", "INDETERMINATE", "INVALID"  # ETSI EN 319 102-1's words


@dataclass(frozen=True)
class MemoVerification:
    """Everything `clusterbid verify` reports. `problems` are findings proven wrong (INVALID);
    `unproven` what could not be proven here (INDETERMINATE: no trust anchor, a field not yet
    signed, a page that cannot be compared); VALID only when neither has any."""

    signatures: tuple[SignatureReport, ...] = ()
    unsigned_fields: tuple[str, ...] = ()
    inputs_sha256: str | None = None  # of the attachment as found
    printed_sha256: str | None = None  # as the memo states it
    inputs_match_printed: bool = False
    rescore_matches: bool | None = None  # None when the inputs could not be re-scored
    rescore_differences: tuple[str, ...] = ()
    evaluation_matches: bool | None = None  # None when no evaluation was given
    evaluation_differences: tuple[str, ...] = ()
    # the evaluation was edited after the memo was made, in words (verification_since.py)
    changed_since: str | None = None
    trust_checked: bool = False
    page_check: str = "not possible"  # how every page was compared with the attached inputs
    page_checked: tuple[str, ...] = ()  # page 1's checks that held, in words
    pages_proven: bool = False
    version_notes: tuple[str, ...] = ()  # recorded software and libraries against this computer's
    revisions: tuple[Revision, ...] = ()
    signer_chains: tuple[str, ...] = ()  # per signer: certificate, trust anchor, registry entry
    long_term: tuple[LongTermReport, ...] = ()  # per signature: ETSI indication, level, proven time
    problems: tuple[str, ...] = field(default=())
    unproven: tuple[str, ...] = field(default=())

    @property
    def verdict(self) -> str:
        return INVALID if self.problems else INDETERMINATE if self.unproven else VALID

    @property
    def ok(self) -> bool:
        return self.verdict == VALID


def looks_like_pdf(pdf: bytes) -> bool:
    # A damaged memo (say, one flipped header byte) must still be verified and fail, not be
    # refused as "not a PDF": either end of the file marking it as PDF is enough.
    return b"%PDF-" in pdf[:PDF_PROBE] or b"%%EOF" in pdf[-PDF_PROBE:]


def _first_signature_offset(embedded) -> int | None:
    offsets = []
    for sig in embedded:
        try:
            offsets.append(int(sig.byte_range[1]))
        except (TypeError, IndexError, ValueError):
            continue
    return min(offsets, default=None)


def _check_inputs(
    raw: bytes | None,
    stated: tuple[str, ...],
    evaluation: Evaluation | None,
    exported: bytes,
    images: bool = True,
) -> dict:
    """The attached inputs: their hash against the one printed, re-scored, the pages drawn again
    from them, and (given) the evaluation they must be."""
    found: dict = {"printed_sha256": stated[0] if len(stated) == 1 else None}
    problems: list[str] = []
    unproven: list[str] = []
    if raw is None:
        problems.append(
            f"the memo carries no {INPUTS_ATTACHMENT_NAME} attachment; its figures cannot be "
            "checked"
        )
        return {**found, "problems": problems, "unproven": unproven}
    found["inputs_sha256"] = digest = hashlib.sha256(raw).hexdigest()
    swapped = _digest_problem(stated, digest)
    if swapped:
        problems.append(swapped)
    else:
        found["inputs_match_printed"] = True
    try:
        data = parse_memo_inputs(raw)
        differences = compare_results(data.get("results"), rescore_memo_inputs(data))
    except InputError as exc:
        problems.append(f"the attached inputs cannot be re-scored: {exc}")
        data = None
    binding = bind_page_to_inputs(exported, digest, data)
    found["page_checked"] = binding.checked
    problems += binding.problems
    unproven += binding.unproven
    if data is None:
        unproven.append(
            "the pages cannot be proven: the attached inputs cannot be read to render them again"
        )
    else:
        pages_problems, pages_unproven = _pages_and_figures(
            data, differences, exported, images, found
        )
        problems += pages_problems
        unproven += pages_unproven
    found["approvers"] = data.get("approvers") if isinstance(data, dict) else None
    found["data"] = data if isinstance(data, dict) else None  # for the sign-off checks
    if evaluation is not None:
        problems += _against_evaluation(data, evaluation, found)
    return {**found, "problems": problems, "unproven": unproven}


def _pages_and_figures(
    data: dict, differences: list[str], exported: bytes, images: bool, found: dict
) -> tuple[list[str], list[str]]:
    """The pages drawn again from the inputs against the exported ones, then the figures
    re-scored against those printed: noted in `found`, returned as (problems, unproven)."""
    proof = prove_pages(data, exported, images=images)
    found["page_check"], found["pages_proven"] = proof.method, proof.proven
    found["version_notes"] = proof.notes
    problems, unproven = list(proof.problems), list(proof.unproven)
    found["rescore_matches"] = not differences
    found["rescore_differences"] = tuple(differences)
    # Other figures are forged unless another release's model may honestly give them.
    figures_problems, figures_unproven = figures_judged(data, differences)
    problems += figures_problems
    unproven += figures_unproven
    return problems, unproven


def _digest_problem(stated: tuple[str, ...], digest: str) -> str:
    """What is wrong with the SHA-256 the memo states for its inputs; empty when it is theirs."""
    if not stated:
        return (
            "the memo states no SHA-256 for its inputs (document keywords or attachment "
            "description)"
        )
    if len(stated) > 1:
        return (
            f"the memo states {len(stated)} different SHA-256 values for its inputs: "
            f"{', '.join(stated)}"
        )
    if stated[0] != digest:
        return (
            f"the attached inputs were swapped: their SHA-256 is {digest}, the memo states "
            f"{stated[0]}"
        )
    return ""


def _against_evaluation(data: dict | None, evaluation: Evaluation, found: dict) -> list[str]:
    """The evaluation the officer gave against the one attached: noted in `found`, with the
    first five differences as a problem."""
    differences = compare_evaluation(None if data is None else data.get("evaluation"), evaluation)
    found["evaluation_matches"] = not differences
    found["evaluation_differences"] = tuple(differences)
    if differences:
        return [f"{EVALUATION_DIFFERS}: {'; '.join(differences[:5])}"]
    return []


def verify_memo(
    pdf: bytes,
    trust_roots: list[asn1_x509.Certificate] = (),
    evaluation: Evaluation | None = None,
    *,
    ordered: bool = True,
    signoff: SignoffTrust | None = None,
    validation_time: datetime | None = None,
) -> MemoVerification:
    """Every check `clusterbid verify` makes; InputError only when `pdf` is not a PDF at all.
    `ordered`: the approvers must have signed in the order the memo lists them. `signoff`: the
    trust anchors and approver registries for this memo (signoff_trust.py); its counted anchors
    are trusted besides `trust_roots`, and each signer is held to its registries."""
    if signoff is not None:
        trust_roots = [*trust_roots, *signoff.roots]
    if not looks_like_pdf(pdf):
        raise InputError("not a PDF file; give the memo PDF exported by ClusterBid")
    trust_roots = list(trust_roots)
    try:
        reader = PdfFileReader(BytesIO(pdf), strict=False)
        embedded = list(reader.embedded_regular_signatures)
        unsigned = tuple(
            str(name) for name, _, _ in fields.enumerate_sig_fields(reader, filled_status=False)
        )
        sealed = seal_timestamp_fields(reader, embedded)  # the archive seal's timestamps
        every_field = [
            str(name)
            for name, _, _ in fields.enumerate_sig_fields(reader)
            if str(name) not in sealed
        ]
        signers = [identity_of(sig) for sig in embedded]
        metadata = metadata_changes(reader, embedded)
        attached = read_attached_inputs(reader)
    except Exception as exc:  # a damaged PDF fails verification with the reason, it is not a crash
        return MemoVerification(
            trust_checked=bool(trust_roots),
            problems=(f"the PDF is damaged and cannot be read ({type(exc).__name__}: {exc})",),
        )
    reports = tuple(check_signature(sig, trust_roots) for sig in embedded)
    # how long the signatures will verify (informational: the checks above decide the verdict)
    long_term = long_term_reports(reader, embedded, trust_roots, validation_time)
    problems = [problem for report in reports for problem in report.problems] + metadata
    unproven = []
    if not reports:
        unproven.append("the memo carries no signatures: nobody has approved it yet")
    elif not trust_roots:
        # Anyone can make a certificate bearing an approver's name: without a trusted CA or
        # approver certificate nothing shows the signatures were made by the people named.
        unproven.append(
            "signers not trusted: no trusted certificate was given, so nothing shows "
            f"these certificates belong to the approvers named ({mark(Step.KEEP_CERTIFICATES)})"
        )
    if unsigned:
        unproven.append(
            f"not yet signed: {', '.join(unsigned)} (the memo is not approved until "
            "every approver has signed)"
        )
    exported = first_revision(pdf, _first_signature_offset(embedded))
    signed_bytes_changed = any(not report.intact for report in reports)
    with decisions_shared():  # the re-score and the re-render decide on the same draws: once
        inputs = _check_inputs(
            attached.raw,
            attached.printed_sha256,
            evaluation,
            exported,
            images=not signed_bytes_changed,
        )
    problems += inputs.pop("problems")
    problems += signoff_problems(
        reader, embedded, inputs.pop("data", None), inputs.get("inputs_sha256")
    )
    unproven += inputs.pop("unproven")
    approvers = inputs.pop("approvers", None)
    if approvers is None:
        problems.append(
            "the approvers the memo names cannot be read, so no signature can be tied to one"
        )
    else:
        problems += check_approvers(approvers, signers, every_field, ordered)
    chains: tuple[str, ...] = ()
    if signoff is not None and approvers is not None:
        findings = check_registry(
            signoff, approvers, signers, {r.field: r.signing_time for r in reports}
        )
        chains, problems = findings.lines, problems + list(findings.problems)
    return MemoVerification(
        signatures=reports,
        unsigned_fields=unsigned,
        trust_checked=bool(trust_roots),
        signer_chains=chains,
        revisions=memo_revisions(pdf, reader, embedded),
        long_term=long_term,
        problems=tuple(problems),
        unproven=tuple(unproven),
        **inputs,
    )
