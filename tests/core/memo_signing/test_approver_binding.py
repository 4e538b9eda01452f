"""Each approver field is signed by that approver's own certificate (issue 22, check 2)."""

from __future__ import annotations

from io import BytesIO

import pytest
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import fields
from tests.core.memo_signing.conftest import ADA, GRACE

from clusterbid.cli import main
from clusterbid.core.errors import InputError
from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo

MALLORY = ("Mallory Mallet", "mallory-passphrase")


@pytest.fixture(scope="module")
def mallory(pki):
    return load_credentials(pki.authority.write_p12(pki.folder, *MALLORY), MALLORY[1])


def _problems(pki, memo: bytes, **options) -> str:
    result = verify_memo(memo, load_trust_roots([pki.ca_pem]), **options)
    assert not result.ok
    return " | ".join(result.problems)


def _with_extra_field(pdf: bytes, name: str) -> bytes:
    writer = IncrementalPdfFileWriter(BytesIO(pdf))
    fields.append_signature_field(
        writer, fields.SigFieldSpec(sig_field_name=name, on_page=0, box=(72, 72, 272, 142))
    )
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_trusted_certificate_issued_to_someone_else_fails(pki, unsigned_memo, mallory):
    # Mallory's certificate comes from the trusted CA: trust alone used to let it pass.
    once = sign_memo(unsigned_memo, "approver-1", mallory).pdf
    memo = sign_memo(once, "approver-2", load_credentials(pki.grace_p12, GRACE[1])).pdf
    problems = _problems(pki, memo)
    assert (
        "approver-1: signed by a certificate issued to Mallory Mallet, but the memo names Ada "
        "Lovelace" in problems
    )
    assert "approver-2" not in problems


def test_one_certificate_signing_both_fields_fails(pki, unsigned_memo):
    ada = load_credentials(pki.ada_p12, ADA[1])
    memo = sign_memo(sign_memo(unsigned_memo, "approver-1", ada).pdf, "approver-2", ada).pdf
    problems = _problems(pki, memo)
    assert "approver-2: signed with the same certificate as approver-1" in problems
    assert (
        "approver-2: signed by a certificate issued to Ada Lovelace, but the memo names Grace "
        "Hopper" in problems
    )


def test_an_extra_field_added_after_export_and_signed_fails(pki, signed_twice, mallory):
    memo = sign_memo(_with_extra_field(signed_twice, "approver-3"), "approver-3", mallory).pdf
    problems = _problems(pki, memo)
    assert (
        "approver-3: a signature field that is not one of the memo's approver fields (approver-1, "
        "approver-2)" in problems
    )


def test_approver_2_cannot_sign_before_approver_1_and_is_told_why(
    capsys, monkeypatch, pki, unsigned_memo, memo_file
):
    # Approver 1's signature certifies the memo (issue 30): a PDF allows that only as its first one.
    path = memo_file(unsigned_memo)
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", GRACE[1])
    assert main(["sign", str(path), "--field", "2", "--p12", str(pki.grace_p12)]) == 2
    err = capsys.readouterr().err
    assert (
        "approver-1 has not signed yet" in err
        and "approver 1's signature certifies the memo" in err
    )
    assert path.read_bytes() == unsigned_memo


def test_approver_1_cannot_certify_after_another_tool_signed_approver_2(pki, unsigned_memo):
    from pyhanko.sign import signers
    from pyhanko.sign.fields import SigSeedSubFilter

    grace = load_credentials(pki.grace_p12, GRACE[1])
    writer = IncrementalPdfFileWriter(BytesIO(unsigned_memo))
    out = signers.sign_pdf(
        writer,
        signers.PdfSignatureMetadata(field_name="approver-2", subfilter=SigSeedSubFilter.PADES),
        signers.SimpleSigner(grace.certificate, grace.key, None),
        existing_fields_only=True,
    )
    with pytest.raises(InputError, match="Certification signatures must be the first signature"):
        sign_memo(out.getvalue(), "approver-1", load_credentials(pki.ada_p12, ADA[1]))


def test_a_self_made_certificate_bearing_the_approvers_name_is_never_shown_as_holding(
    pki, signed_once, tmp_path
):
    from tests.core.memo_signing.pki import Authority

    forger = Authority.create("Forger's Own CA")
    fake_grace = load_credentials(forger.write_p12(tmp_path, *GRACE), GRACE[1])
    memo = sign_memo(signed_once, "approver-2", fake_grace).pdf
    without_trust = verify_memo(memo)
    assert without_trust.verdict == "INDETERMINATE"
    assert any(p.startswith("signers not trusted") for p in without_trust.unproven)
    with_trust = verify_memo(memo, load_trust_roots([pki.ca_pem]))
    assert [s.trusted for s in with_trust.signatures] == [True, False] and not with_trust.ok
