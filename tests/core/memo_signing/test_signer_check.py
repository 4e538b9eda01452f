"""Signing refuses, before a byte is written, a certificate that is not the named approver's or
that already signed another field (issue 38 item 2); verify would catch both only afterwards."""

from __future__ import annotations

import pytest
from tests.core.memo_signing.conftest import ADA, GRACE
from tests.core.memo_signing.pki import write_p12

from clusterbid.cli import main
from clusterbid.core.errors import InputError
from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.inputs import Approver
from clusterbid.core.memo.signer_check import earlier_signers, refuse_wrong_signer, signer_refusal
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.signoff import memo_approvers

MALLORY = ("Mallory Mallet", "mallory-passphrase")


@pytest.fixture(scope="module")
def mallory_p12(pki):
    return pki.authority.write_p12(pki.folder, *MALLORY)


def test_the_memo_names_ada_and_grace_in_field_order(unsigned_memo):
    # The two approvers memo_factory puts in the memo: the rule below compares against them.
    assert [(a.name, a.role) for a in memo_approvers(unsigned_memo)] == [
        ("Ada Lovelace", "CFO"),
        ("Grace Hopper", "CTO"),
    ]


def test_the_cli_refuses_a_certificate_issued_to_someone_else_and_writes_nothing(
    capsys, monkeypatch, unsigned_memo, memo_file, mallory_p12
):
    path = memo_file(unsigned_memo)
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", MALLORY[1])
    assert main(["sign", str(path), "--field", "1", "--p12", str(mallory_p12)]) == 2
    err = capsys.readouterr().err
    assert (
        "issued to Mallory Mallet, but the memo names Ada Lovelace (CFO) for approver field 1"
        in err
    )
    assert "nothing was signed" in err and "Traceback" not in err
    assert path.read_bytes() == unsigned_memo


def test_the_named_approver_signs_as_before(capsys, monkeypatch, unsigned_memo, memo_file, pki):
    path = memo_file(unsigned_memo)
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", ADA[1])
    assert main(["sign", str(path), "--field", "1", "--p12", str(pki.ada_p12)]) == 0
    assert [who.field for who in earlier_signers(path.read_bytes())] == ["approver-1"]


def test_ada_cannot_fill_graces_field_after_her_own(pki, signed_once):
    ada = load_credentials(pki.ada_p12, ADA[1])
    with pytest.raises(InputError, match="issued to Ada Lovelace, but the memo names Grace Hopper"):
        refuse_wrong_signer(signed_once, memo_approvers(signed_once), "approver-2", ada)
    # Grace's own certificate is accepted for her field.
    grace = load_credentials(pki.grace_p12, GRACE[1])
    assert (
        refuse_wrong_signer(signed_once, memo_approvers(signed_once), "approver-2", grace) is None
    )


def test_the_same_key_certified_under_the_second_name_is_refused(pki, tmp_path):
    # One key, certified to Ada and again to Grace: one person holding both certificates.
    key, ada_cert = pki.authority.issue("Ada Lovelace")
    _, grace_cert = pki.authority.issue("Grace Hopper", key=key)
    ada = load_credentials(write_p12(tmp_path, "a.p12", key, ada_cert, pki.authority, "pw"), "pw")
    grace = load_credentials(
        write_p12(tmp_path, "g.p12", key, grace_cert, pki.authority, "pw"), "pw"
    )
    from tests.core.memo_signing.memo_factory import demo_memo

    once = sign_memo(demo_memo(), "approver-1", ada).pdf
    refusal = signer_refusal(memo_approvers(once), "approver-2", grace, earlier_signers(once))
    assert refusal is not None
    assert refusal.startswith("this key already signed the field of approver 1 (Ada Lovelace, CFO)")


def test_a_certificate_reused_on_a_memo_without_an_approver_list_is_refused(pki, signed_once):
    # Without names to compare, the certificate itself is what tells the second signature apart.
    ada = load_credentials(pki.ada_p12, ADA[1])
    refusal = signer_refusal([], "approver-2", ada, earlier_signers(signed_once))
    assert refusal is not None and refusal.startswith(
        "this certificate already signed the field of approver 1"
    )


def test_the_email_the_memo_gives_must_be_on_the_certificate(pki, tmp_path):
    p12 = pki.authority.write_p12(tmp_path, "Ada Lovelace", "pw", alt_email="ada@example.org")
    ada = load_credentials(p12, "pw")
    named = [Approver("Ada Lovelace", "CFO", "ada.lovelace@example.org")]
    refusal = signer_refusal(named, "approver-1", ada, [])
    assert (
        refusal is not None
        and "e-mail is ada@example.org, but the memo names ada.lovelace@example.org" in refusal
    )
    assert (
        signer_refusal([Approver("Ada Lovelace", "CFO", "ADA@example.org")], "approver-1", ada, [])
        is None
    )
