"""Render the memo PDF: story, attached inputs, empty signature fields; deterministic bytes."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.embed import EmbeddedFileObject, EmbeddedFileParams, FileSpec, embed_file
from reportlab import rl_config

from clusterbid.core.memo import archival, page_one
from clusterbid.core.memo.approval_statement import approval_terms
from clusterbid.core.memo.charts_section import chart_images
from clusterbid.core.memo.content import MemoContent
from clusterbid.core.memo.decision_checks import decision_date_words
from clusterbid.core.memo.fewer_collections import fewer_collections
from clusterbid.core.memo.form_lock import add_approver_fields
from clusterbid.core.memo.inputs import (
    INPUTS_ATTACHMENT_NAME,
    Approver,
    MemoInputs,
    RecommendationOverride,
    _approver,
    build_memo_inputs,
)
from clusterbid.core.memo.layout import PageHeader, SignatureBoxes, memo_document, numbered_canvas
from clusterbid.core.memo.memo_kinds import memo_kind
from clusterbid.core.memo.methodology import ATTACHMENT_NAME as METHODOLOGY_ATTACHMENT
from clusterbid.core.memo.story import build_story
from clusterbid.core.safe_files import write_bytes_atomically
from clusterbid.core.scoring import Scorecard

if TYPE_CHECKING:  # imported in render_memo: a training memo never loads the serving model
    from clusterbid.core.serving_scoring import ServingScorecard
from clusterbid.resources import resource_path

# Binary streams instead of ASCII85: the pure-Python encoder took a seventh of the export time.
rl_config.useA85 = 0


class _DeterministicWriter(archival.ArchivalWriter):
    """pyHanko draws the second /ID half from os.urandom and stamps /ModDate with the clock;
    both are replaced with values derived from the inputs so the same inputs give the same bytes
    (the XMP packet is then written from these, archival.py)."""

    def __init__(self, stream, *, second_id: bytes, modified: dt.datetime):
        super().__init__(stream)
        self._document_id = generic.ArrayObject(
            [self._document_id[0], generic.ByteStringObject(second_id)]
        )
        self._fixed_modified = modified

    def _info_written(self) -> None:
        if self._info is not None:
            info = self._info.get_object()
            info[generic.pdf_name("/ModDate")] = generic.pdf_date(self._fixed_modified)
            info.pop(
                "/Trapped", None
            )  # reportlab's; no XMP property of PDF/A's predefined ones mirrors it


def _story_pdf(content: MemoContent, images, sink: SignatureBoxes) -> bytes:
    buffer = io.BytesIO()
    header = PageHeader(content.title, content.memo_number, content.confidentiality, content.as_of)
    memo_document(buffer, header).build(
        build_story(content, images, sink), canvasmaker=numbered_canvas(header)
    )
    return buffer.getvalue()


def _finish(pdf: bytes, inputs: MemoInputs, sink: SignatureBoxes, created: dt.date) -> bytes:
    stamp = dt.datetime(created.year, created.month, created.day, tzinfo=dt.UTC)
    writer = _DeterministicWriter(
        io.BytesIO(pdf), second_id=bytes.fromhex(inputs.sha256[:32]), modified=stamp
    )
    _attach(
        writer,
        INPUTS_ATTACHMENT_NAME,
        inputs.canonical_bytes(),
        "application/json",
        f"ClusterBid memo inputs, SHA-256 {inputs.sha256}",
        stamp,
    )
    # The whole methodology of this version: the appendix prints the sections approvers need.
    _attach(
        writer,
        METHODOLOGY_ATTACHMENT,
        resource_path("methodology.md").read_bytes(),
        "text/markdown",
        "How ClusterBid scores a bid: the full methodology of the version that made this memo",
        stamp,
    )
    add_approver_fields(
        writer, sink.boxes
    )  # locked: nothing but the next approver may sign after each
    # PDF/A-3b: the inputs and methodology as associated files, the sRGB output intent, XMP
    archival.associate(writer, INPUTS_ATTACHMENT_NAME, archival.SOURCE)
    archival.associate(writer, METHODOLOGY_ATTACHMENT, archival.SUPPLEMENT)
    archival.add_output_intent(writer)
    archival.add_metadata(writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _attach(
    writer: _DeterministicWriter,
    name: str,
    data: bytes,
    mime_type: str,
    description: str,
    stamp: dt.datetime,
) -> None:
    """Embed one file, dated the memo's day (not now), so the same inputs give the same bytes."""
    embedded = EmbeddedFileObject.from_file_data(
        writer,
        data,
        mime_type=mime_type,
        params=EmbeddedFileParams(creation_date=stamp, modification_date=stamp),
    )
    embed_file(
        writer,
        FileSpec(
            file_spec_string=name, file_name=name, embedded_data=embedded, description=description
        ),
    )


RENDERING_LIBRARIES = ("matplotlib", "numpy", "pillow", "pyhanko", "reportlab")


def rendering_libraries() -> dict[str, str]:
    """The versions of the libraries whose output is in the memo's bytes: a verifier with others
    draws other bytes for the same inputs, so verify compares bytes only when these match. Read
    from the installed distributions' folder names in one pass over the path (importlib.metadata
    looked each up separately: a tenth of a second of verify); unknown (e.g. a frozen bundle,
    which carries one fixed set) is "not installed" on both sides alike."""
    import sys

    found = dict.fromkeys(RENDERING_LIBRARIES, "not installed")
    for folder in map(Path, sys.path):
        try:
            names = [entry.name for entry in folder.iterdir() if entry.name.endswith(".dist-info")]
        except OSError:
            continue
        for name in names:
            project, _, version = name[: -len(".dist-info")].partition("-")
            key = project.lower().replace("_", "-")
            if key in found and found[key] == "not installed":
                found[key] = version
    return found


@fewer_collections()  # a fifth of a long memo's CPU seconds (fewer_collections.py)
def render_memo(
    scorecard: Scorecard | ServingScorecard,
    *,
    approvers,
    uncertainty: Any = None,
    sensitivity: Any = None,
    notes: str = "",
    override: RecommendationOverride | None = None,
    evidence_requests: tuple[str, ...] = (),
    audit_anchor: dict[str, object] | None = None,
    decision_date: dt.date | None = None,
    samples: int | None = None,
    made_by: dict[str, Any] | None = None,
    rationale: str = "",
    odds_against: str | None = None,
    panel: dict[str, Any] | None = None,
) -> bytes:
    """The memo as PDF bytes; raises InputError for an override without justification or a bad approver.
    A ServingScorecard gets the serving memo (core/memo/serving_memo.py). decision_date is the
    approval meeting's (kept in the attached inputs); without it page 1 says none was given.
    `samples`: the Monte Carlo sample count behind `uncertainty`; given, it and the evidence lines
    are kept in the attached inputs, so `clusterbid verify` can render the memo again and compare
    bytes (core/memo/rerender.py).
    `rationale`: the officer's reason for paying more than a cheaper passing bid (kept in the
    attached inputs). `odds_against`: the bid the samples' "costs less than" counts compare with,
    when not the model's first (an override the Monte Carlo was run against).
    `panel`: the evaluation panel's page in words (core/panel/summary.py), kept in the inputs
    only when there is one, so a memo without a panel is the bytes it was before panels.
    `made_by`: verify's re-render passes the software and library versions the memo's attachment
    records ({"software_version", "libraries"}), so the attachment, its hash and page 1 come out
    as they were; the pages are then drawn by the libraries installed here."""
    people = tuple(_approver(a) for a in approvers)
    made_by = made_by or {}
    libraries = made_by.get("libraries") or rendering_libraries()
    rendering = (
        None
        if samples is None
        else {
            "samples": int(samples),
            "evidence_requests": list(evidence_requests),
            "libraries": libraries,
        }
    )
    if rendering is not None and panel:
        rendering["panel"] = panel
    version = (
        {"software_version": str(made_by["software_version"])}
        if made_by.get("software_version")
        else {}
    )
    inputs = build_memo_inputs(
        scorecard,
        approvers=people,
        notes=notes,
        override=override,
        audit_anchor=audit_anchor,
        decision_date=decision_date,
        rendering=rendering,
        rationale=rationale,
        **version,
    )
    if memo_kind(scorecard).own_pages:  # the kind's own memo (core/memo/memo_kinds.py)
        from clusterbid.core.memo.serving_memo import render_serving_memo

        pdf, sink, as_of = render_serving_memo(
            scorecard,
            inputs,
            people,
            notes.strip(),
            override,
            decision_date_words(inputs.data.get("decision_date")),
        )
        return _finish(pdf, inputs, sink, as_of)
    content = MemoContent.from_scorecard(
        scorecard,
        inputs,
        approvers=people,
        uncertainty=uncertainty,
        sensitivity=sensitivity,
        notes=notes.strip(),
        override=override,
        rationale=rationale,
        odds_against=odds_against,
    )
    chosen = next(
        (s for s in scorecard.ranked if s.bid.id == (override.bid_id if override else s.bid.id)),
        None,
    )
    content = dataclasses.replace(
        content,
        evidence_requests=tuple(evidence_requests),
        decision_date=decision_date_words(inputs.data.get("decision_date")),
        not_verified_line=page_one.not_verified(
            scorecard, content.unverified, tuple(evidence_requests)
        ),
        expired=tuple(page_one.expired_quotes(scorecard, chosen, inputs.data.get("decision_date"))),
        approval_terms=approval_terms(inputs.data, inputs.sha256),
        panel=panel or None,
    )
    sink = SignatureBoxes()
    pdf = _story_pdf(content, chart_images(scorecard, uncertainty, sensitivity), sink)
    return _finish(pdf, inputs, sink, content.as_of)


def export_memo(path: Path | str, scorecard: Scorecard, **kwargs) -> tuple[Path, str]:
    """Write the memo next to its final name and move it into place; returns (path, file SHA-256)."""
    target = Path(path)
    pdf = render_memo(scorecard, **kwargs)
    write_bytes_atomically(
        target, pdf
    )  # a full disk leaves neither a half memo nor a stray temporary file
    return target, hashlib.sha256(pdf).hexdigest()


__all__ = ["Approver", "export_memo", "render_memo"]
