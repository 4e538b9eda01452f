"""`sign` and `verify` import only what they use: no charts, PDF renderer or Qt; sign no models."""

from __future__ import annotations

from tests.conftest import EXAMPLES
from tests.core.memo_signing.conftest import ADA
from tests.core.cli_imports import HEAVY, imported_by


def test_verify_of_a_signed_memo_imports_no_chart_pdf_renderer_or_qt(pki, signed_twice, memo_file):
    memo = memo_file(signed_twice)
    code, packages = imported_by(["verify", str(memo), "--trust", str(pki.ca_pem),
                                  "--evaluation", str(EXAMPLES / "demo-evaluation.json")])
    assert code == 0  # every check held, so the whole verification path ran
    assert "pyhanko" in packages
    loaded = packages & set(HEAVY)
    assert not loaded, f"`clusterbid verify` imported {sorted(loaded)}"


def test_sign_imports_neither_the_models_nor_the_cost_model(pki, unsigned_memo, memo_file,
                                                            monkeypatch):
    memo = memo_file(unsigned_memo)
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", ADA[1])
    code, packages = imported_by(["sign", str(memo), "--field", "1", "--p12", str(pki.ada_p12),
                                  "-o", str(memo.with_name("signed.pdf"))])
    assert code == 0 and memo.with_name("signed.pdf").stat().st_size > len(unsigned_memo)
    loaded = packages & {*HEAVY, "numpy", "pydantic"}
    assert not loaded, f"`clusterbid sign` imported {sorted(loaded)}"
