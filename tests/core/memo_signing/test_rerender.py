"""Issues 22 and 30: verify renders the attached inputs again, always, and compares the memo as
exported byte for byte, else page by page as images, so a page other than page 1 changed before
signing is caught on any version."""

from __future__ import annotations

import pytest
from tests.core.memo_signing.conftest import ADA, GRACE
from tests.core.memo_signing.tampering import append_page_content

from clusterbid.cli import main
from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> bytes:
    """`clusterbid memo` on the demo document: 20,000 samples, the audit anchor, evidence lines."""
    folder = tmp_path_factory.mktemp("rerender")
    document, memo = folder / "demo.clusterbid", folder / "memo.pdf"
    assert main(["demo", str(document)]) == 0
    assert (
        main(
            [
                "memo",
                str(document),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--approver",
                "Grace Hopper, CTO",
                "--decision-date",
                "2026-11-20",
            ]
        )
        == 0
    )
    return memo.read_bytes()


def _signed(pki, pdf: bytes) -> bytes:
    once = sign_memo(pdf, "approver-1", load_credentials(pki.ada_p12, ADA[1])).pdf
    return sign_memo(once, "approver-2", load_credentials(pki.grace_p12, GRACE[1])).pdf


def test_the_genuine_memo_renders_again_to_the_same_bytes(pki, exported):
    result = verify_memo(_signed(pki, exported), load_trust_roots([pki.ca_pem]))
    assert result.page_check.startswith(
        "re-rendered from the attached inputs: identical to the memo as "
        f"exported, byte for byte ({len(exported):,} bytes"
    )
    assert result.ok, result.problems


def test_a_later_page_changed_before_signing_is_caught(pki, exported):
    """Page 1, the attachment and every signature are intact: only page 4 says something else.
    The page-1 text check cannot see it; rendering the inputs again and comparing the pages does."""
    tampered = append_page_content(exported, "Cumulus Compute: cheapest in 100% of samples", page=3)
    result = verify_memo(_signed(pki, tampered), load_trust_roots([pki.ca_pem]))
    assert (
        "page 1 recommends Northwind AI Cloud, H100-SXM, as the attached inputs do"
        in result.page_checked
    )
    assert all(report.intact for report in result.signatures)
    assert result.page_check.endswith(": DIFFERENT") and result.verdict == "INVALID"
    assert any(
        p.startswith("page 4: its text reads ")
        and "Cumulus Compute: cheapest in 100% of samples" in p
        for p in result.problems
    ), result.problems
    assert any(
        p.startswith("page 4: '") and ", on screen and in print at x " in p for p in result.problems
    )


def test_inputs_without_the_rendering_record_cannot_prove_the_pages_and_say_so(pki):
    """A memo rendered without the record of its sample count (as memos made before it existed):
    nothing is wrong, but no page can be proven, so the verdict is INDETERMINATE, never VALID."""
    from tests.core.memo_signing.memo_factory import APPROVERS

    from clusterbid.core.demo import demo_evaluation
    from clusterbid.core.memo.render import render_memo
    from clusterbid.core.scoring import score_evaluation

    older = render_memo(score_evaluation(demo_evaluation()), approvers=APPROVERS)
    result = verify_memo(_signed(pki, older), load_trust_roots([pki.ca_pem]))
    assert result.problems == () and result.verdict == "INDETERMINATE"
    assert result.unproven == (
        "the pages cannot be proven: the attached inputs predate the record of the "
        "sample count and evidence lines",
    )


def test_other_library_versions_are_named_and_never_stop_the_render_again():
    """The recorded versions explain why bytes may differ; they are not a reason to skip the check."""
    from clusterbid import __version__
    from clusterbid.core.memo.render import rendering_libraries
    from clusterbid.core.memo.rerender import version_notes, why_not_rerendered

    here = rendering_libraries()
    same = {"software_version": __version__, "rendering": {"samples": 10, "libraries": dict(here)}}
    assert why_not_rerendered(same) is None and version_notes(same) == []
    older = {**same, "rendering": {"samples": 10, "libraries": {**here, "matplotlib": "3.0.0"}}}
    assert why_not_rerendered(older) is None
    assert version_notes(older) == [
        f"drawn with other library versions (matplotlib 3.0.0 there, {here['matplotlib']} here)"
    ]
