"""Issue 30, item 5: four eyes at verify. One person signing both fields with two of her
certificates, or one key certified under two names, is refused, not only one certificate twice."""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from tests.core.memo_signing.pki import write_p12

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo import inputs
from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo
from clusterbid.core.scoring import score_evaluation


def _signed(memo: bytes, *credentials) -> bytes:
    for field, signer in enumerate(credentials, start=1):
        memo = sign_memo(memo, f"approver-{field}", signer).pdf
    return memo


@pytest.fixture(scope="module")
def ada_twice_memo() -> bytes:
    """A memo listing Ada for two roles: export refuses it, so the attacker's copy of ClusterBid
    has the check taken out (the memo is what an attacker could make by hand)."""
    from clusterbid.core.memo.render import render_memo

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(inputs, "refuse_same_person_twice", lambda people: None)
        return render_memo(
            score_evaluation(demo_evaluation()),
            approvers=[("Ada Lovelace", "CFO"), ("Ada Lovelace", "CTO")],
        )


def test_one_person_signing_both_fields_with_two_of_her_certificates_is_refused(
    tmp_path, pki, ada_twice_memo
):
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir(), second.mkdir()
    ada_1 = load_credentials(pki.authority.write_p12(first, "Ada Lovelace", "pw"), "pw")
    ada_2 = load_credentials(pki.authority.write_p12(second, "Ada Lovelace", "pw"), "pw")
    assert ada_1.certificate.sha256 != ada_2.certificate.sha256  # two certificates, two keys
    result = verify_memo(_signed(ada_twice_memo, ada_1, ada_2), load_trust_roots([pki.ca_pem]))
    assert (
        "approver-2 and approver-1 were both signed by Ada Lovelace (two certificates issued to "
        "the same name): four eyes need two different people"
    ) in result.problems
    assert not any("same certificate" in p for p in result.problems)
    assert not result.ok


def test_the_same_key_in_two_certificates_is_refused(tmp_path, pki, unsigned_memo):
    key, ada_cert = pki.authority.issue("Ada Lovelace")
    _, grace_cert = pki.authority.issue("Grace Hopper", key=key)  # Ada's key certified as Grace
    ada = load_credentials(write_p12(tmp_path, "ada.p12", key, ada_cert, pki.authority, "pw"), "pw")
    grace = load_credentials(
        write_p12(tmp_path, "grace.p12", key, grace_cert, pki.authority, "pw"), "pw"
    )
    spki = hashlib.sha256(
        key.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    ).hexdigest()
    result = verify_memo(_signed(unsigned_memo, ada, grace), load_trust_roots([pki.ca_pem]))
    assert (
        "approver-2 and approver-1 were signed with the same key (public key SHA-256 "
        f"{spki[:16]}...) in two different certificates ('Ada Lovelace' and 'Grace Hopper'): one "
        "key is one person, four eyes need two"
    ) in result.problems, result.problems
    # Every other check holds: names match the memo, certificates differ, the CA is trusted.
    assert len(result.problems) == 1


def test_two_different_approvers_pass_the_four_eyes_check(pki, signed_twice):
    result = verify_memo(signed_twice, load_trust_roots([pki.ca_pem]))
    assert not [p for p in result.problems if "four eyes" in p]
