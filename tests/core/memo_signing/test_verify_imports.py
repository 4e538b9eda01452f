"""`clusterbid verify` checks a signed memo without importing the charts, the renderer or Qt."""

from __future__ import annotations

from tests.conftest import EXAMPLES
from tests.core.cli_imports import HEAVY, imported_by


def test_verify_of_a_signed_memo_imports_no_chart_pdf_renderer_or_qt(pki, signed_twice, memo_file):
    memo = memo_file(signed_twice)
    code, packages = imported_by(["verify", str(memo), "--trust", str(pki.ca_pem),
                                  "--evaluation", str(EXAMPLES / "demo-evaluation.json")])
    assert code == 0  # every check held, so the whole verification path ran
    assert "pyhanko" in packages
    loaded = packages & set(HEAVY)
    assert not loaded, f"`clusterbid verify` imported {sorted(loaded)}"
