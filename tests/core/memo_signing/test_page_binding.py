"""Verify binds the page the approvers saw to the attached inputs (issue 22, check 1)."""

from __future__ import annotations

from tests.core.memo_signing.conftest import ADA, GRACE
from tests.core.memo_signing.memo_factory import demo_inputs
from tests.core.memo_signing.tampering import swap_attachment_before_signing

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo


def _sign_both(pki, memo: bytes) -> bytes:
    once = sign_memo(memo, "approver-1", load_credentials(pki.ada_p12, ADA[1])).pdf
    return sign_memo(once, "approver-2", load_credentials(pki.grace_p12, GRACE[1])).pdf


def _another_evaluation():
    """The demo without the bid page 1 recommends: a consistent, re-scorable other evaluation."""
    evaluation = demo_evaluation()
    return evaluation.model_copy(
        update={"bids": tuple(b for b in evaluation.bids if b.id != "northwind-ib")}
    )


def test_attachment_swapped_for_another_evaluation_before_signing_fails(pki, unsigned_memo):
    other = demo_inputs(_another_evaluation())
    assert (
        other.data["results"]["ranking"][0] == "prime-efa"
    )  # the swap changes the decision (README's no. 2)
    memo = _sign_both(
        pki, swap_attachment_before_signing(unsigned_memo, other.canonical_bytes(), other.sha256)
    )
    result = verify_memo(memo, load_trust_roots([pki.ca_pem]))
    assert (
        result.inputs_match_printed and result.rescore_matches
    )  # what verify used to rely on holds
    assert not result.ok
    problems = " ".join(result.problems)
    assert f"the attached inputs hash to {other.sha256}" in problems
    # Each bid in the officer's words (issue 38: no bid ids); the bid page 1 shows is not among the
    # swapped inputs' bids, so its printed words are quoted.
    assert (
        'page 1 recommends "Northwind AI Cloud, H100-SXM" (no bid of the attached inputs), '
        "the attached inputs Hyperscale Prime, H100-SXM"
    ) in problems


def test_the_genuine_memo_names_the_page_checks_that_held(pki, signed_twice):
    result = verify_memo(signed_twice, load_trust_roots([pki.ca_pem]))
    assert result.ok, result.problems
    assert result.page_check.startswith("re-rendered from the attached inputs: identical")
    # The demo's decision as printed on page 1 (the README's demo figures): Northwind, $3,195,648.00.
    assert (
        "page 1 recommends Northwind AI Cloud, H100-SXM, as the attached inputs do"
        in result.page_checked
    )
    assert "page 1 prints the total commitment $3,195,648.00" in result.page_checked
