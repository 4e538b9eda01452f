"""The memo's form, locked at export: the approvers' signature fields and nothing else.

A form field is a place where a PDF may legally change after it is signed ("form filling"), which
is what shadow attacks use: a text field or widget planted before signing shows other content once
filled after a signature. So the memo carries no field but the approvers' signature fields, and
each field carries a /Lock that pyHanko turns into the signature's FieldMDP: approver N's
signature locks every field but the later approvers' signature fields; the last approver's locks
every field and, with /P 1 (a PDF 2.0 lock), the whole document. Approver 1 signs as a
certification signature (DocMDP, permission 2: form filling and signing only), which a PDF
allows only as the document's first signature: the approvers sign in the order the memo lists.
pyHanko, poppler and Acrobat read these entries and enforce them.
"""

from __future__ import annotations

from typing import Any

from pyhanko.sign.fields import (
    FieldMDPAction,
    FieldMDPSpec,
    MDPPerm,
    SigFieldSpec,
    append_signature_field,
)


def field_lock(names: list[str], index: int) -> FieldMDPSpec:
    """The FieldMDP lock of the index-th (0-based) of `names`: all fields but the later ones."""
    later = names[index + 1 :]
    return (
        FieldMDPSpec(FieldMDPAction.EXCLUDE, fields=later)
        if later
        else FieldMDPSpec(FieldMDPAction.ALL)
    )


def certification_level(field_count: int) -> MDPPerm:
    """Approver 1's certification: signing may follow, unless approver 1 is the only approver."""
    return MDPPerm.FILL_FORMS if field_count > 1 else MDPPerm.NO_CHANGES


Box = tuple[float, float, float, float]


def add_approver_fields(writer: Any, boxes: list[tuple[str, int, Box]]) -> None:
    """Append one locked signature field per approver (`boxes` in signing order) to `writer`.
    pyHanko types a field's box as integers; it writes any numbers (the layout's are points)."""
    names = [name for name, _, _ in boxes]
    for index, (name, page, box) in enumerate(boxes):
        last = index == len(names) - 1
        append_signature_field(
            writer,
            SigFieldSpec(
                sig_field_name=name,
                on_page=page,
                box=box,  # type: ignore[arg-type]
                field_mdp_spec=field_lock(names, index),
                doc_mdp_update_value=MDPPerm.NO_CHANGES if last and index > 0 else None,
            ),
        )
