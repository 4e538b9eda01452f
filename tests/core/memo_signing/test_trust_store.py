"""Issue 22, item 4: the organisation's certificates kept once in the evaluation document (audited),
used by verify without --trust; certificates judged at the signing time and by their key usage."""

from __future__ import annotations

from datetime import timedelta

import pytest
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
from tests.core.memo_signing.conftest import ADA, GRACE
from tests.core.memo_signing.pki import NOW, Authority

from clusterbid.cli import main
from clusterbid.core.memo import credentials
from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo
from clusterbid.core.store import EvaluationDocument


def _run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _signed_memo(capsys, document, memo, pki) -> None:
    code, out = _run(
        capsys,
        "memo",
        document,
        "-o",
        memo,
        "--approver",
        "Ada Lovelace, CFO",
        "--approver",
        "Grace Hopper, CTO",
    )
    assert code == 0, out
    once = sign_memo(memo.read_bytes(), "approver-1", load_credentials(pki.ada_p12, ADA[1])).pdf
    memo.write_bytes(sign_memo(once, "approver-2", load_credentials(pki.grace_p12, GRACE[1])).pdf)


def test_certificates_kept_in_the_document_let_verify_trust_the_approvers(capsys, tmp_path, pki):
    document, memo = tmp_path / "bids.clusterbid", tmp_path / "memo.pdf"
    assert _run(capsys, "demo", document)[0] == 0
    _signed_memo(capsys, document, memo, pki)

    # Before: the document trusts nobody, so the signers are not shown as the approvers.
    code, out = _run(capsys, "verify", memo, "--evaluation", document)
    assert code == 3 and "signers not trusted" in out and "clusterbid trust" in out

    code, out = _run(capsys, "trust", document, "--add", pki.ca_pem)
    assert code == 0, out
    assert "added: ClusterBid Test Root CA (CA; issued by ClusterBid Test Root CA" in out
    assert "1 trusted certificate(s)" in out and "added at row #3, " in out  # the row that kept it
    with EvaluationDocument.open(document) as opened:
        attached = [row for row in opened.audit_rows() if row.action == "attach_artefact"]
        assert len(attached) == 1 and "application/pkix-cert" in attached[0].new_json
        assert opened.audit_report.ok

    # Issue 30: the CA was kept after that memo was made (row #1), so it does not count for it
    # (test_approver_registry.py asserts the words); a memo made now, no --trust, passes.
    assert _run(capsys, "verify", memo, "--evaluation", document)[0] == 1
    _signed_memo(capsys, document, memo, pki)
    code, out = _run(capsys, "verify", memo, "--evaluation", document)
    assert code == 0, out
    assert out.count("trusted: yes") == 2 and out.startswith("VALID: ")

    # The same CA twice is refused by name; the trail keeps one row.
    code, out = _run(capsys, "trust", document, "--add", pki.ca_pem)
    assert code == 2 and "is already trusted by this document" in out


def test_a_trust_store_takes_certificates_only(capsys, tmp_path, pki):
    document = tmp_path / "bids.clusterbid"
    assert _run(capsys, "demo", document)[0] == 0
    key, _ = pki.authority.issue("Mallory")
    secret = tmp_path / "key.pem"
    secret.write_bytes(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    code, out = _run(capsys, "trust", document, "--add", secret)
    assert code == 2 and "holds a private key; a trust store takes certificates only" in out
    code, out = _run(capsys, "trust", document, "--add", pki.ada_p12)
    assert code == 2 and "not a certificate (PEM or DER)" in out
    big = tmp_path / "big.pem"
    big.write_bytes(b"x" * (300 * 1024))
    code, out = _run(capsys, "trust", document, "--add", big)
    assert code == 2 and "larger than 256 KiB" in out
    code, out = _run(capsys, "trust", tmp_path / "bids.json")
    assert code == 2 and "give an evaluation document (.clusterbid)" in out
    with EvaluationDocument.open(document) as opened:
        assert not [row for row in opened.audit_rows() if row.action == "attach_artefact"]


def _sign_with(unsigned: bytes, authority: Authority, tmp_path, monkeypatch, **issue) -> bytes:
    """Approver 1 signs with a certificate the signing check would refuse today (expired, not yet
    valid, or not for signing): as if made on a computer whose clock or issuer allowed it."""
    path = authority.write_p12(tmp_path, "Ada Lovelace", "pw", **issue)
    monkeypatch.setattr(credentials, "check_certificate", lambda *args, **kwargs: None)
    return sign_memo(unsigned, "approver-1", load_credentials(path, "pw")).pdf


@pytest.mark.parametrize(
    "issue, words",
    [
        (
            {"valid_from": NOW - timedelta(days=400), "valid_until": NOW - timedelta(days=2)},
            "certificate had expired when the signature says it was made",
        ),
        (
            {"valid_from": NOW + timedelta(days=10), "valid_until": NOW + timedelta(days=400)},
            "certificate was not yet valid when the signature says it was made",
        ),
        (
            {"signing": False, "commitment": False},
            "certificate is not a signing certificate (its key usage is not stated",
        ),
    ],
)
def test_a_certificate_outside_its_dates_or_not_for_signing_fails_even_when_trusted(
    tmp_path, monkeypatch, pki, unsigned_memo, issue, words
):
    signed = _sign_with(unsigned_memo, pki.authority, tmp_path, monkeypatch, **issue)
    result = verify_memo(signed, [credentials.load_trust_roots([pki.ca_pem])[0]])
    report = next(r for r in result.signatures if r.field == "approver-1")
    assert any(
        words in problem and "approver-1: Ada Lovelace's" in problem for problem in report.problems
    ), report.problems
    assert not result.ok


def test_an_approvers_email_given_on_the_memo_binds_the_certificate_to_it(tmp_path, pki):
    """Issue 22, item 2: 'name, and e-mail when given'. The memo names Ada with her address; a
    certificate in her name with another address signs her field and fails, hers passes."""
    from clusterbid.core.demo import demo_evaluation
    from clusterbid.core.memo.inputs import Approver
    from clusterbid.core.memo.render import render_memo
    from clusterbid.core.scoring import score_evaluation

    ada = Approver.parse("Ada Lovelace, CFO <ada@example.org>")
    assert (ada.name, ada.role, ada.email) == ("Ada Lovelace", "CFO", "ada@example.org")
    memo = render_memo(
        score_evaluation(demo_evaluation()), approvers=[ada, Approver.parse("Grace Hopper, CTO")]
    )
    roots = credentials.load_trust_roots([pki.ca_pem])
    for options, address, holds in (
        ({"email": "mallory@example.org"}, "mallory@example.org", False),
        ({"email": "ada@example.org"}, "ada@example.org", True),
        ({"alt_email": "ada@example.org"}, "ada@example.org", True),
        ({"alt_email": "eve@example.org"}, "eve@example.org", False),
    ):
        path = pki.authority.write_p12(tmp_path, "Ada Lovelace", "pw", **options)
        signed = sign_memo(memo, "approver-1", load_credentials(path, "pw")).pdf
        problems = verify_memo(signed, roots).problems
        wrong = [p for p in problems if "e-mail" in p]
        if holds:
            assert not wrong, problems
        else:
            assert wrong == [
                f"approver-1: the certificate's e-mail is {address}, the memo names "
                "ada@example.org for Ada Lovelace"
            ], problems


def test_an_approver_email_must_be_an_address_in_angle_brackets():
    from clusterbid.core.errors import InputError
    from clusterbid.core.memo.inputs import Approver

    with pytest.raises(InputError, match="give the e-mail as <name@example.org> at the end"):
        Approver.parse("Ada Lovelace, CFO <ada at example>")
    assert (
        Approver.parse("Ada Lovelace, Chief Financial Officer, EMEA").role
        == "Chief Financial Officer, EMEA"
    )


def test_a_bundle_holding_a_certificate_already_trusted_adds_nothing(capsys, tmp_path, pki):
    document = tmp_path / "bids.clusterbid"
    assert _run(capsys, "demo", document)[0] == 0
    assert _run(capsys, "trust", document, "--add", pki.ca_pem)[0] == 0
    other = Authority.create("Second Approvers CA")
    bundle = tmp_path / "bundle.pem"
    bundle.write_bytes(other.certificate.public_bytes(Encoding.PEM) + pki.ca_pem.read_bytes())
    code, out = _run(capsys, "trust", document, "--add", bundle)
    assert code == 2 and "nothing from this file was added" in out
    with EvaluationDocument.open(document) as opened:
        assert len([r for r in opened.audit_rows() if r.action == "attach_artefact"]) == 1
