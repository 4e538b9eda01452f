"""What is approved is in the signature (issue 30, item 7): each signature's /Reason and its signed
signer-attributes-v2 description state the amount, provider, bid, memo and inputs SHA-256; the
sign-off page and the stamp print them; a signature stating anything else fails."""

from __future__ import annotations

import shutil
import subprocess
from io import BytesIO

import pytest
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import signers
from pyhanko.sign.fields import SigSeedSubFilter
from tests.core.memo_signing.attacks import pdfsig
from tests.core.memo_signing.conftest import ADA, GRACE
from tests.core.memo_signing.memo_factory import demo_inputs

from clusterbid.core.memo import signing
from clusterbid.core.memo.approval_statement import approval_statement, signed_statements
from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo

DOCTORED = "a total commitment of USD 1,395,648.00 to Northwind AI Cloud, bid northwind-ib"


def _expected(number: int) -> str:
    # The demo's decision, by hand from the README: Northwind reserves 512 GPUs for 3 months,
    # $3,195,648 committed; the memo's number is CB- and the inputs hash's first 8 hex digits.
    sha = demo_inputs().sha256
    return (
        f"Approver {number} approves a total commitment of USD 3,195,648.00 to Northwind AI Cloud, "
        f"H100-SXM; memo CB-{sha[:8].upper()}, inputs SHA-256 {sha}"
    )


def test_each_signature_states_what_it_approves_in_reason_and_signed_attribute(signed_twice):
    for number, sig in enumerate(PdfFileReader(BytesIO(signed_twice)).embedded_signatures, start=1):
        assert str(sig.sig_object["/Reason"]) == _expected(number)
        assert signed_statements(sig.signer_info) == [_expected(number)]


def test_the_signers_remark_follows_the_statement(pki, unsigned_memo):
    signed = sign_memo(
        unsigned_memo,
        "approver-1",
        load_credentials(pki.ada_p12, ADA[1]),
        remark="Subject to the\nbudget review",
    ).pdf
    sig = PdfFileReader(BytesIO(signed)).embedded_signatures[0]
    assert str(sig.sig_object["/Reason"]) == _expected(1) + "; remark: Subject to the budget review"


@pytest.fixture(scope="module")
def corpus(pki, signed_once) -> dict[str, bytes]:
    grace = load_credentials(pki.grace_p12, GRACE[1])
    monkeypatch = pytest.MonkeyPatch()
    memos = {}
    with monkeypatch.context() as patch:  # a signing tool stating another amount, in both places
        patch.setattr(
            signing, "approval_statement", lambda data, sha, n: f"Approver {n} approves {DOCTORED}"
        )
        memos["another amount stated"] = sign_memo(signed_once, "approver-2", grace).pdf
    with (
        monkeypatch.context() as patch
    ):  # the signed attribute right, /Reason edited before signing
        patch.setattr(
            signing,
            "reason_text",
            lambda statement, remark="": statement.replace("USD 3,195,648.00", "USD 1,395,648.00"),
        )
        memos["reason differs from the signed attribute"] = sign_memo(
            signed_once, "approver-2", grace
        ).pdf
    writer = IncrementalPdfFileWriter(
        BytesIO(signed_once)
    )  # another tool: a plain reason, no attribute
    memos["no statement"] = signers.sign_pdf(
        writer,
        signers.PdfSignatureMetadata(
            field_name="approver-2", reason="Approved", subfilter=SigSeedSubFilter.PADES
        ),
        signers.SimpleSigner(grace.certificate, grace.key, None),
        existing_fields_only=True,
    ).getvalue()
    return memos


def _problems(pki, pdf: bytes) -> str:
    result = verify_memo(pdf, load_trust_roots([pki.ca_pem]))
    assert not result.ok
    return " | ".join(result.problems)


def test_a_signature_stating_the_bid_by_its_id_as_before_still_holds(pki, signed_once, monkeypatch):
    """Memos signed before bids were named in words state "to Northwind AI Cloud, bid
    northwind-ib": the same approval, still accepted; any other statement still fails (above)."""
    grace = load_credentials(pki.grace_p12, GRACE[1])
    monkeypatch.setattr(
        signing,
        "approval_statement",
        lambda data, sha, n: approval_statement(data, sha, n, legacy=True),
    )
    memo = sign_memo(signed_once, "approver-2", grace).pdf
    (sig,) = [
        s for s in PdfFileReader(BytesIO(memo)).embedded_signatures if s.field_name == "approver-2"
    ]
    assert ", bid northwind-ib; memo CB-" in str(sig.sig_object["/Reason"])
    result = verify_memo(memo, load_trust_roots([pki.ca_pem]))
    assert result.ok, result.problems


def test_a_signature_stating_another_amount_fails_naming_both(pki, corpus):
    problems = _problems(pki, corpus["another amount stated"])
    assert (
        f"approver-2: the signature's reason says 'Approver 2 approves {DOCTORED}', but the "
        "attached "
        f"inputs approve {_expected(2)!r}" in problems
    )
    assert (
        "approver-2: the statement signed in the signature's attributes is 'Approver 2 approves "
        f"{DOCTORED}'" in problems
    )
    assert "approver-1:" not in problems  # approver 1 stated the right amount


def test_a_reason_that_differs_from_the_signed_attribute_fails(pki, corpus):
    problems = _problems(pki, corpus["reason differs from the signed attribute"])
    assert "approver-2: the signature's reason says" in problems and "USD 1,395,648.00" in problems
    assert "statement signed in the signature's attributes" not in problems


def test_a_signature_with_no_statement_fails(pki, corpus):
    problems = _problems(pki, corpus["no statement"])
    assert "approver-2: the signature's reason says 'Approved'" in problems
    assert "nothing (no signer-attributes-v2 description)" in problems


@pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed"
)
def test_the_sign_off_page_and_the_stamp_print_the_statement(tmp_path, signed_twice):
    path = tmp_path / "signed.pdf"
    path.write_bytes(signed_twice)
    text = " ".join(
        subprocess.run(
            ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    sha = demo_inputs().sha256
    page = _expected(1).replace("Approver 1", "Approver N")
    assert f'Each signature states, in its reason and in a signed attribute: "{page}"' in text
    for number in (1, 2):  # the stamps: the statement wrapped, the SHA-256 in two halves
        assert (
            f"Approver {number} approves a total commitment of USD 3,195,648.00 to Northwind"
            in text
        )
    assert text.count(f"inputs SHA-256 {sha[:32]} {sha[32:]}") == 2


@pytest.mark.skipif(
    shutil.which("pdfsig") is None, reason="poppler-utils (pdfsig) is not installed"
)
def test_pdfsig_on_the_statement_corpus(tmp_path, pki, corpus, record_property):
    for name, pdf in corpus.items():
        theirs = pdfsig(pdf, tmp_path)
        ours = verify_memo(pdf, load_trust_roots([pki.ca_pem]))
        record_property(name, f"pdfsig {theirs}; clusterbid ok={ours.ok}")
        print(f"statement {name}: pdfsig {theirs}; clusterbid ok={ours.ok}")
        assert [v == "Signature is Valid." for v in theirs] == [s.intact for s in ours.signatures]
        assert not ours.ok
