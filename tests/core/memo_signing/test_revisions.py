"""What was written after each signature, in words, and metadata edits (issue 22, check 3)."""

from __future__ import annotations

from io import BytesIO

import pytest
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from tests.core.memo_signing.tampering import append_page_content

from clusterbid.core.memo.credentials import load_trust_roots
from clusterbid.core.memo.signoff import format_verification
from clusterbid.core.memo.verification import verify_memo


def _edit_info(pdf: bytes, key: str, value: str) -> bytes:
    """An incremental update rewriting one entry of the document information, as a PDF editor does."""
    writer = IncrementalPdfFileWriter(BytesIO(pdf))
    info = generic.DictionaryObject(dict(writer.trailer["/Info"].items()))
    info[generic.NameObject(key)] = generic.TextStringObject(value)
    writer.set_info(info)
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize("key", ["/Title", "/Author"])
def test_metadata_edited_after_signing_fails(pki, signed_twice, key):
    result = verify_memo(
        _edit_info(signed_twice, key, "Edited after signing"), load_trust_roots([pki.ca_pem])
    )
    assert not result.ok
    assert any(
        p.startswith(f"document information {key} changed after the first signature")
        and "became 'Edited after signing'" in p
        for p in result.problems
    ), result.problems


def test_each_signature_says_what_was_written_after_it(pki, signed_twice):
    result = verify_memo(signed_twice, load_trust_roots([pki.ca_pem]))
    first, second = result.signatures
    # Approver 2 filling their field is the only thing written after approver 1 signed;
    # nothing follows approver 2, whose signature covers the whole file.
    assert first.changes_after == "form fields filled: approver-2"
    assert second.changes_after == "nothing (the signature covers the whole file)"
    report = format_verification("memo.pdf", result)
    assert "changed after this signature: form fields filled: approver-2" in report


def test_page_content_drawn_in_an_incremental_update_is_named_and_refused(pki, signed_twice):
    result = verify_memo(append_page_content(signed_twice), load_trust_roots([pki.ca_pem]))
    assert not result.ok
    assert [s.changes_after for s in result.signatures] == [
        "content, attachments, fields or structure changed (refused)"
    ] * 2
