"""Unsigned memos for the signing tests: the real renderer when it is there, else a minimal stand-in."""

from __future__ import annotations

import hashlib
import json
from io import BytesIO

from pyhanko.pdf_utils import embed, generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo.form_lock import add_approver_fields
from clusterbid.core.memo.inputs import INPUTS_ATTACHMENT_NAME, build_memo_inputs
from clusterbid.core.scoring import score_evaluation

APPROVERS = (("Ada Lovelace", "CFO"), ("Grace Hopper", "CTO"))


def demo_inputs(evaluation=None):
    """The inputs the real memo attaches: with the record of how its pages were drawn."""
    from clusterbid.core.memo.render import rendering_libraries

    rendering = {"samples": 0, "evidence_requests": [], "libraries": rendering_libraries()}
    return build_memo_inputs(
        score_evaluation(evaluation or demo_evaluation()), approvers=APPROVERS, rendering=rendering
    )


def render_real_memo(evaluation=None) -> bytes | None:
    """The memo helper's renderer once it is merged; None until then."""
    try:
        from clusterbid.core.memo.render import render_memo
    except ImportError:
        return None
    # samples=0 (no Monte Carlo bands) records how the pages were drawn, so verify can render
    # them again and prove every page, as for a memo `clusterbid memo` made.
    return render_memo(
        score_evaluation(evaluation or demo_evaluation()), approvers=APPROVERS, samples=0
    )


def stand_in_memo(attachment: bytes, printed_sha256: str, approvers: int = 2) -> bytes:
    """Page 1 printing the SHA-256, the inputs attached, one empty visible field per approver."""
    buffer = BytesIO()
    page = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    page.setKeywords(f"clusterbid-inputs-sha256:{printed_sha256}")
    page.drawString(72, 780, "Approval memo (test stand-in)")
    page.drawString(72, 760, f"Inputs SHA-256: {printed_sha256}")
    page.showPage()
    page.drawString(72, 780, "Sign-off")
    page.showPage()
    page.save()
    writer = IncrementalPdfFileWriter(BytesIO(buffer.getvalue()))
    embed.embed_file(
        writer,
        embed.FileSpec(
            file_spec_string=INPUTS_ATTACHMENT_NAME,
            file_name=INPUTS_ATTACHMENT_NAME,
            embedded_data=embed.EmbeddedFileObject.from_file_data(
                writer, attachment, mime_type="application/json"
            ),
            description=f"Inputs of this memo, SHA-256 {printed_sha256}",
            af_relationship=generic.NameObject("/Source"),
        ),
    )
    add_approver_fields(
        writer,
        [
            (f"approver-{index}", 1, (72, 700 - 90 * index, 372, 770 - 90 * index))
            for index in range(1, approvers + 1)
        ],
    )
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def demo_memo(evaluation=None) -> bytes:
    real = render_real_memo(evaluation)
    if real is not None:
        return real
    inputs = demo_inputs(evaluation)
    return stand_in_memo(inputs.canonical_bytes(), inputs.sha256)


def memo_with_swapped_inputs() -> bytes:
    """Page 1 prints the demo's SHA-256 but the attachment says the first bid costs less."""
    inputs = demo_inputs()
    data = json.loads(inputs.canonical_bytes())
    first = data["evaluation"]["bids"][0]
    first["quote"]["provider"] = first["quote"]["provider"] + " (edited)"
    swapped = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert hashlib.sha256(swapped).hexdigest() != inputs.sha256
    return stand_in_memo(swapped, inputs.sha256)
