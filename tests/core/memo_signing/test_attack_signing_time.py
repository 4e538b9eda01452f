"""Signing times and key purposes (issue 30, item 6): a clock moved back or ahead, a certificate
outside its validity, a signature before the approver before it or before the decision date, and a
TLS-server-only certificate, each fail with its reason; pdfsig is run on the same files."""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest
from cryptography.x509.oid import ExtendedKeyUsageOID, ObjectIdentifier
from tests.core.memo_signing.attacks import moved_clock, pdfsig
from tests.core.memo_signing.conftest import ADA, GRACE
from tests.core.memo_signing.pki import NOW

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.errors import InputError
from clusterbid.core.memo import credentials as credentials_module
from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo

DOCUMENT_SIGNING = ObjectIdentifier("1.3.6.1.5.5.7.3.36")  # id-kp-documentSigning, RFC 9336


def _unchecked(monkeypatch, p12, passphrase):
    """Credentials a careless or hostile signing tool would use: none of sign's own checks."""
    with monkeypatch.context() as patch:
        patch.setattr(credentials_module, "check_certificate", lambda *args, **kwargs: None)
        return load_credentials(p12, passphrase)


def _problems(pki, pdf: bytes) -> str:
    result = verify_memo(pdf, load_trust_roots([pki.ca_pem]))
    assert not result.ok
    return " | ".join(result.problems)


@pytest.fixture(scope="module")
def corpus(pki, unsigned_memo, signed_once, tmp_path_factory):
    """Name -> a memo signed by both approvers with one thing wrong in its times or certificate."""
    monkeypatch = pytest.MonkeyPatch()
    folder = tmp_path_factory.mktemp("clock")
    ada, grace = load_credentials(pki.ada_p12, ADA[1]), load_credentials(pki.grace_p12, GRACE[1])
    back, ahead = NOW - timedelta(days=600), NOW + timedelta(days=30)
    # Valid 600 days ago, expired long before today: only a moved clock makes it sign "in time".
    old_ada = load_credentials(
        pki.authority.write_p12(
            folder,
            ADA[0],
            ADA[1],
            valid_from=back - timedelta(days=30),
            valid_until=back + timedelta(days=60),
        ),
        ADA[1],
        now=back,
    )
    (folder / "later").mkdir()
    future_grace = load_credentials(
        pki.authority.write_p12(
            folder / "later", GRACE[0], GRACE[1], valid_from=NOW + timedelta(days=20)
        ),
        GRACE[1],
        now=ahead,
    )
    (folder / "expired").mkdir()
    expired_grace = _unchecked(
        monkeypatch,
        pki.authority.write_p12(
            folder / "expired",
            GRACE[0],
            GRACE[1],
            valid_from=NOW - timedelta(days=400),
            valid_until=NOW - timedelta(days=35),
        ),
        GRACE[1],
    )
    (folder / "tls").mkdir()
    tls_grace = _unchecked(
        monkeypatch,
        pki.authority.write_p12(
            folder / "tls",
            GRACE[0],
            GRACE[1],
            purposes=[ExtendedKeyUsageOID.SERVER_AUTH],
            encipherment=True,
        ),
        GRACE[1],
    )
    memos = {}
    with moved_clock(monkeypatch, back):
        backdated = sign_memo(unsigned_memo, "approver-1", old_ada).pdf
    memos["clock 600 days back, certificate expired today"] = sign_memo(
        backdated, "approver-2", grace
    ).pdf
    with moved_clock(monkeypatch, ahead):
        memos["clock 30 days ahead, certificate not yet valid today"] = sign_memo(
            signed_once, "approver-2", future_grace
        ).pdf
    memos["certificate expired when signed"] = sign_memo(
        signed_once, "approver-2", expired_grace
    ).pdf
    with moved_clock(monkeypatch, NOW - timedelta(hours=2)):
        early_ada = sign_memo(unsigned_memo, "approver-1", ada).pdf
    with moved_clock(monkeypatch, NOW - timedelta(hours=3)):
        memos["approver 2 before approver 1"] = sign_memo(early_ada, "approver-2", grace).pdf
    memos["TLS-server-only certificate"] = sign_memo(signed_once, "approver-2", tls_grace).pdf
    monkeypatch.undo()
    return memos


def test_a_clock_moved_600_days_back_fails_before_the_memos_date(pki, corpus):
    figures_date = max(
        bid.quote.quoted_on for bid in demo_evaluation().bids
    )  # no decision date given
    problems = _problems(pki, corpus["clock 600 days back, certificate expired today"])
    signed = (NOW - timedelta(days=600)).strftime("%Y-%m-%d")
    assert (
        f"approver-1: signed {signed}" in problems
        and f"before the date of the memo's figures (latest quote or measurement) {figures_date}"
        in problems
    )
    assert "the signer's clock was wrong or moved back" in problems


def test_a_clock_moved_ahead_fails_as_in_the_future_and_outside_validity(pki, corpus):
    problems = _problems(pki, corpus["clock 30 days ahead, certificate not yet valid today"])
    signed = (NOW + timedelta(days=30)).strftime("%Y-%m-%d")
    assert (
        f"approver-2: signed {signed}" in problems
        and "in the future of this computer's clock" in problems
    )
    assert "5 minutes of clock difference allowed" in problems


def test_a_certificate_expired_at_the_signing_time_fails(pki, corpus):
    problems = _problems(pki, corpus["certificate expired when signed"])
    expired = (NOW - timedelta(days=35)).strftime("%Y-%m-%d")
    assert (
        "approver-2: Grace Hopper's certificate had expired when the signature says it was made"
        in problems
    )
    assert f"expired {expired}" in problems


def test_approver_2_signing_before_approver_1_fails(pki, corpus):
    problems = _problems(pki, corpus["approver 2 before approver 1"])
    assert "approver-2: signed" in problems and "before approver-1 signed" in problems


def test_a_signature_before_the_decision_date_fails(pki):
    from tests.core.memo_signing.memo_factory import APPROVERS

    from clusterbid.core.memo.render import render_memo
    from clusterbid.core.scoring import score_evaluation

    decision = (
        NOW + timedelta(days=3)
    ).date()  # the meeting is in three days; the memo is signed today
    memo = render_memo(
        score_evaluation(demo_evaluation()), approvers=APPROVERS, decision_date=decision
    )
    memo = sign_memo(
        sign_memo(memo, "approver-1", load_credentials(pki.ada_p12, ADA[1])).pdf,
        "approver-2",
        load_credentials(pki.grace_p12, GRACE[1]),
    ).pdf
    problems = _problems(pki, memo)
    assert (
        f"approver-1: signed {NOW:%Y-%m-%d}" in problems
        and f"before the memo's decision date {decision}" in problems
    )


def test_a_tls_server_only_certificate_fails_at_verify(pki, corpus):
    problems = _problems(pki, corpus["TLS-server-only certificate"])
    assert (
        "approver-2: the signer's certificate is not for signing documents: its extended key usage "
        "allows only "
        "TLS server, not document signing or e-mail protection"
    ) in problems


def test_a_tls_server_only_certificate_is_refused_at_sign(
    capsys, monkeypatch, pki, unsigned_memo, tmp_path
):
    p12 = pki.authority.write_p12(
        tmp_path, ADA[0], ADA[1], purposes=[ExtendedKeyUsageOID.SERVER_AUTH]
    )
    with pytest.raises(
        InputError, match="extended key usage allows only TLS server, not document signing"
    ):
        load_credentials(p12, ADA[1])
    path = tmp_path / "memo.pdf"
    path.write_bytes(unsigned_memo)
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", ADA[1])
    assert main(["sign", str(path), "--field", "1", "--p12", str(p12)]) == 2
    assert "ask your issuer for a document-signing certificate" in capsys.readouterr().err
    assert path.read_bytes() == unsigned_memo


@pytest.mark.parametrize("purpose", [DOCUMENT_SIGNING, ExtendedKeyUsageOID.EMAIL_PROTECTION])
def test_document_signing_and_email_protection_certificates_sign_and_verify(
    pki, signed_once, tmp_path, purpose
):
    grace = load_credentials(
        pki.authority.write_p12(tmp_path, GRACE[0], GRACE[1], purposes=[purpose]), GRACE[1]
    )
    result = verify_memo(
        sign_memo(signed_once, "approver-2", grace).pdf, load_trust_roots([pki.ca_pem])
    )
    assert result.ok, result.problems


@pytest.mark.skipif(
    shutil.which("pdfsig") is None, reason="poppler-utils (pdfsig) is not installed"
)
def test_pdfsig_on_the_signing_time_corpus(tmp_path, pki, corpus, record_property):
    """pdfsig checks the signed bytes (valid on every memo here, as our 'intact' says); times
    before the memo or its previous approver and key purposes are not its concern."""
    for name, pdf in corpus.items():
        theirs = pdfsig(pdf, tmp_path)
        ours = verify_memo(pdf, load_trust_roots([pki.ca_pem]))
        record_property(name, f"pdfsig {theirs}; clusterbid ok={ours.ok}")
        print(f"signing time {name}: pdfsig {theirs}; clusterbid ok={ours.ok}")
        assert [v == "Signature is Valid." for v in theirs] == [s.intact for s in ours.signatures]
        assert not ours.ok
