"""The app's Sign dialog lists a memo's fields from the form alone, without verify's page proof."""

from __future__ import annotations

import pytest

from clusterbid.core.errors import InputError
from clusterbid.core.memo import page_proof, rerender
from clusterbid.core.memo.signoff import SignatureFields, signature_fields


@pytest.fixture
def no_page_proof(monkeypatch):
    """Listing fields must not re-render or compare pages: either would fail the test."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("the field listing ran the page proof")

    monkeypatch.setattr(page_proof, "prove_pages", refuse)
    monkeypatch.setattr(rerender, "rerender_memo", refuse)


def test_fields_of_a_memo_as_it_goes_round(no_page_proof, unsigned_memo, signed_once, signed_twice):
    # The demo memo names two approvers (memo_factory.APPROVERS): approver-1 signs, then approver-2.
    assert signature_fields(unsigned_memo) == SignatureFields((), ("approver-1", "approver-2"))
    assert signature_fields(signed_once) == SignatureFields(("approver-1",), ("approver-2",))
    assert signature_fields(signed_twice) == SignatureFields(("approver-1", "approver-2"), ())


def test_a_file_that_is_no_pdf_or_a_damaged_one_is_said_in_words(no_page_proof, unsigned_memo):
    with pytest.raises(InputError, match="not a PDF file"):
        signature_fields(b"PK\x03\x04 a zip, not a memo")
    damaged = unsigned_memo[:200] + b"\x00" * 5000  # the header kept, the body and xref gone
    with pytest.raises(InputError, match="damaged"):
        signature_fields(damaged)
