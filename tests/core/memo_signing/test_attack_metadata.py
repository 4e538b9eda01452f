"""Metadata edited after signing fails, read revision by revision (issue 30, item 3): the document
information rewritten in place (the same object in a later revision, as PDF editors save it) and
the XMP packet added or rewritten in place. pdfsig is run on the same files."""

from __future__ import annotations

import shutil
from io import BytesIO

import pytest
from pyhanko.pdf_utils.reader import PdfFileReader
from tests.core.memo_signing.attacks import (
    edit_info_in_place,
    pdfsig,
    pdfsig_whole_file,
    set_xmp,
    xmp_packet,
)
from tests.core.memo_signing.conftest import ADA, GRACE

from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo

EDITED = "Edited after signing"
TITLE, DESCRIPTION = "Approval memo CB-TEST", "Approve the Northwind term"


@pytest.fixture(scope="module")
def corpus(pki, unsigned_memo, signed_once, signed_twice) -> dict[str, bytes]:
    grace = load_credentials(pki.grace_p12, GRACE[1])
    with_xmp = sign_memo(
        set_xmp(unsigned_memo, xmp_packet(TITLE, DESCRIPTION)),
        "approver-1",
        load_credentials(pki.ada_p12, ADA[1]),
    ).pdf
    return {
        "/Info /Title in place after approver-1": sign_memo(
            edit_info_in_place(signed_once, "/Title", EDITED), "approver-2", grace
        ).pdf,
        "/Info /Author in place after approver-2": edit_info_in_place(
            signed_twice, "/Author", EDITED
        ),
        "XMP added after approver-2": set_xmp(signed_twice, xmp_packet(EDITED, DESCRIPTION)),
        "XMP title rewritten in place after approver-1": sign_memo(
            set_xmp(with_xmp, xmp_packet(EDITED, DESCRIPTION)), "approver-2", grace
        ).pdf,
        "XMP description rewritten in place after approver-2": set_xmp(
            sign_memo(with_xmp, "approver-2", grace).pdf, xmp_packet(TITLE, EDITED)
        ),
    }


def _problems(pki, pdf: bytes) -> str:
    result = verify_memo(pdf, load_trust_roots([pki.ca_pem]))
    assert not result.ok
    return " | ".join(result.problems)


def _info_ref(pdf: bytes, revision: int):
    resolver = PdfFileReader(BytesIO(pdf)).get_historical_resolver(revision)
    return resolver.trailer_view.raw_get("/Info").reference.idnum


@pytest.mark.parametrize(
    "name, key",
    [
        ("/Info /Title in place after approver-1", "/Title"),
        ("/Info /Author in place after approver-2", "/Author"),
    ],
)
def test_document_information_edited_in_place_fails(pki, corpus, unsigned_memo, name, key):
    pdf = corpus[name]
    # The attack is in place: the last revision's /Info is the exported memo's object, rewritten.
    assert _info_ref(pdf, 0) == _info_ref(
        pdf, PdfFileReader(BytesIO(pdf)).xrefs.total_revisions - 1
    )
    exported = str(PdfFileReader(BytesIO(unsigned_memo)).trailer_view["/Info"].get(key, "")) or None
    problems = _problems(pki, pdf)
    assert f"document information {key} changed after the first signature" in problems
    assert f"{exported!r} became {EDITED!r}" in problems


def test_xmp_added_after_signing_fails(pki, corpus):
    # The memo is PDF/A and carries an XMP packet from export (core/memo/archival.py): a packet
    # put in its place after the signatures is a change of every property it had, named.
    problems = _problems(pki, corpus["XMP added after approver-2"])
    assert "XMP metadata changed after the first signature" in problems
    assert "conformance: 'B' became None" in problems  # the PDF/A claim itself went


@pytest.mark.parametrize(
    "name, changed",
    [
        ("XMP title rewritten in place after approver-1", f"title: {TITLE!r} became {EDITED!r}"),
        (
            "XMP description rewritten in place after approver-2",
            f"description: {DESCRIPTION!r} became {EDITED!r}",
        ),
    ],
)
def test_xmp_rewritten_in_place_fails_naming_the_property(pki, corpus, name, changed):
    problems = _problems(pki, corpus[name])
    assert "XMP metadata changed after the first signature" in problems and changed in problems


def test_a_memo_with_xmp_untouched_after_signing_passes(pki, unsigned_memo):
    once = sign_memo(
        set_xmp(unsigned_memo, xmp_packet(TITLE, DESCRIPTION)),
        "approver-1",
        load_credentials(pki.ada_p12, ADA[1]),
    ).pdf
    twice = sign_memo(once, "approver-2", load_credentials(pki.grace_p12, GRACE[1])).pdf
    result = verify_memo(twice, load_trust_roots([pki.ca_pem]))
    assert not [p for p in result.problems if "metadata" in p or "document information" in p]


@pytest.mark.skipif(
    shutil.which("pdfsig") is None, reason="poppler-utils (pdfsig) is not installed"
)
def test_pdfsig_on_the_metadata_corpus(tmp_path, pki, corpus, record_property):
    """pdfsig finds every signature valid on these memos (metadata is outside what it checks); an
    edit after the last signature shows only as that signature not covering the whole file."""
    for name, pdf in corpus.items():
        theirs = pdfsig(pdf, tmp_path)
        ours = verify_memo(pdf, load_trust_roots([pki.ca_pem]))
        record_property(name, f"pdfsig {theirs}; clusterbid ok={ours.ok}")
        print(f"metadata {name}: pdfsig {theirs}; clusterbid ok={ours.ok}")
        assert [v == "Signature is Valid." for v in theirs] == [s.intact for s in ours.signatures]
        assert pdfsig_whole_file(pdf, tmp_path) == [False, "after approver-1" in name]
        assert not ours.ok
