"""Issue 22, item 1: verify renders the attached inputs again and compares the memo as exported
byte for byte, so a page other than page 1 changed before signing is caught too."""

from __future__ import annotations

import pytest

from clusterbid.cli import main
from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo
from tests.core.memo_signing.conftest import ADA, GRACE
from tests.core.memo_signing.tampering import append_page_content


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> bytes:
    """`clusterbid memo` on the demo document: 20,000 samples, the audit anchor, evidence lines."""
    folder = tmp_path_factory.mktemp("rerender")
    document, memo = folder / "demo.clusterbid", folder / "memo.pdf"
    assert main(["demo", str(document)]) == 0
    assert main(["memo", str(document), "-o", str(memo), "--approver", "Ada Lovelace, CFO",
                 "--approver", "Grace Hopper, CTO", "--decision-date", "2026-11-20"]) == 0
    return memo.read_bytes()


def _signed(pki, pdf: bytes) -> bytes:
    once = sign_memo(pdf, "approver-1", load_credentials(pki.ada_p12, ADA[1])).pdf
    return sign_memo(once, "approver-2", load_credentials(pki.grace_p12, GRACE[1])).pdf


def test_the_genuine_memo_renders_again_to_the_same_bytes(pki, exported):
    result = verify_memo(_signed(pki, exported), load_trust_roots([pki.ca_pem]))
    assert result.page_check.startswith("re-rendered from the attached inputs: identical to the memo as "
                                        f"exported, byte for byte ({len(exported):,} bytes")
    assert result.ok, result.problems


def test_a_later_page_changed_before_signing_is_caught(pki, exported):
    """Page 1, the attachment and every signature are intact: only page 4 says something else.
    The page-1 text check cannot see it; rendering the inputs again does."""
    tampered = append_page_content(exported, "Cumulus Compute: cheapest in 100% of samples", page=3)
    result = verify_memo(_signed(pki, tampered), load_trust_roots([pki.ca_pem]))
    assert "page 1 recommends northwind-ib, as the attached inputs do" in result.page_checked
    assert all(report.intact for report in result.signatures)
    assert result.page_check == "re-rendered from the attached inputs: DIFFERENT from the memo as exported"
    assert any(p.startswith("the memo as exported is not what its attached inputs render to (first difference "
                            "at byte ") for p in result.problems)
    assert not result.ok


def test_inputs_without_the_rendering_record_fall_back_to_the_page_text_and_say_so(pki, signed_twice):
    # The session fixture's memo is rendered without a sample count, as memos made before this check.
    result = verify_memo(signed_twice, load_trust_roots([pki.ca_pem]))
    assert result.page_check.startswith("page 1 text of the memo as exported")
    assert result.page_check.endswith("not re-rendered: the attached inputs predate the record of the sample "
                                      "count and evidence lines")


def test_other_library_versions_fall_back_to_the_page_text_and_say_which():
    """Byte identity holds for the same drawing libraries only: a verifier with another matplotlib
    draws other pixels from the same inputs, so it compares page text and says why."""
    from clusterbid import __version__
    from clusterbid.core.memo.render import rendering_libraries
    from clusterbid.core.memo.rerender import why_not_rerendered

    here = rendering_libraries()
    same = {"software_version": __version__, "rendering": {"samples": 10, "libraries": dict(here)}}
    assert why_not_rerendered(same) is None
    older = {**same, "rendering": {"samples": 10, "libraries": {**here, "matplotlib": "3.0.0"}}}
    assert why_not_rerendered(older) == (f"drawn with other library versions (matplotlib 3.0.0 there, "
                                         f"{here['matplotlib']} here)")
