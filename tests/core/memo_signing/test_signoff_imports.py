"""`sign` and `verify` import only what they use: sign no models, charts, renderer or Qt; verify
the renderer only to render a memo's pages again, never Qt; neither a network client (aiohttp,
which pyHanko's timestamp client and certificate fetchers import: core/memo/offline_pyhanko.py)."""

from __future__ import annotations

from tests.conftest import EXAMPLES
from tests.core.cli_imports import HEAVY, imported_by
from tests.core.memo_signing.conftest import ADA


def test_verify_loads_the_renderer_only_to_render_the_pages_again(pki, signed_twice, memo_file):
    """A memo recording how it was drawn is rendered again (reportlab, in this process; its charts
    are kept or drawn in the chart worker); never Qt."""
    memo = memo_file(signed_twice)
    code, packages = imported_by(
        [
            "verify",
            str(memo),
            "--trust",
            str(pki.ca_pem),
            "--evaluation",
            str(EXAMPLES / "demo-evaluation.json"),
        ]
    )
    assert code == 0  # VALID: every check held, so the whole verification path ran
    assert {"pyhanko", "reportlab", "pypdfium2"} <= packages
    loaded = packages & {"PySide6", "shiboken6", "aiohttp"}
    assert not loaded, f"`clusterbid verify` imported {sorted(loaded)}"


def test_verify_of_a_memo_that_cannot_be_rendered_again_loads_no_renderer(pki, memo_file):
    """Inputs without the record of how the pages were drawn cannot be rendered again: no
    renderer, chart library or Qt is loaded (and the pages are reported not proven)."""
    from tests.core.memo_signing.memo_factory import APPROVERS, stand_in_memo

    from clusterbid.core.demo import demo_evaluation
    from clusterbid.core.memo.credentials import load_credentials
    from clusterbid.core.memo.inputs import build_memo_inputs
    from clusterbid.core.memo.signing import sign_memo
    from clusterbid.core.scoring import score_evaluation

    # No record of how the pages were drawn (as memos made before it): nothing can be rendered.
    inputs = build_memo_inputs(score_evaluation(demo_evaluation()), approvers=APPROVERS)
    unsigned = stand_in_memo(inputs.canonical_bytes(), inputs.sha256)
    memo = memo_file(sign_memo(unsigned, "approver-1", load_credentials(pki.ada_p12, ADA[1])).pdf)
    code, packages = imported_by(["verify", str(memo), "--trust", str(pki.ca_pem)])
    assert code == 1  # INVALID: the stand-in's page 1 prints no recommended bid
    loaded = packages & set(HEAVY)
    assert not loaded, f"`clusterbid verify` imported {sorted(loaded)}"


def test_sign_imports_neither_the_models_nor_the_cost_model(
    pki, unsigned_memo, memo_file, monkeypatch
):
    memo = memo_file(unsigned_memo)
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", ADA[1])
    code, packages = imported_by(
        [
            "sign",
            str(memo),
            "--field",
            "1",
            "--p12",
            str(pki.ada_p12),
            "-o",
            str(memo.with_name("signed.pdf")),
        ]
    )
    assert code == 0 and memo.with_name("signed.pdf").stat().st_size > len(unsigned_memo)
    loaded = packages & {*HEAVY, "numpy", "pydantic", "pypdfium2", "aiohttp"}
    assert not loaded, f"`clusterbid sign` imported {sorted(loaded)}"


# The serving memo's own modules: its printed figures, its scoring and its Monte Carlo, and the
# serving cost model behind them. The serving workload's model (core/serving_workload.py) stays:
# an evaluation's workload may be either kind, so reading one knows both.
SERVING_ONLY = (
    "clusterbid.core.memo.serving_printed",
    "clusterbid.core.memo.serving_memo",
    "clusterbid.core.serving_scoring",
    "clusterbid.core.uncertainty.serving_montecarlo",
    "clusterbid.core.costmodel.serving",
)


# The benchmark readers verify never runs: an evaluation's bids need the Evidence model alone
# (core/evidence/__init__.py imports each reader when it is asked for).
EVIDENCE_READERS = (
    "clusterbid.core.evidence.reading",
    "clusterbid.core.evidence.nccl_text",
    "clusterbid.core.evidence.nccl_json",
    "clusterbid.core.evidence.scaling",
    "clusterbid.core.evidence.throughput_readers",
)


def test_verify_of_a_training_memo_loads_no_serving_module(pki, signed_twice, memo_file):
    """A training memo is rendered and re-scored by the training modules alone (core/kinds.py
    and core/memo/memo_kinds.py import each kind's own inside its functions), and no evidence
    reader is loaded."""
    from tests.core.cli_imports import modules_imported_by

    memo = memo_file(signed_twice)
    code, modules = modules_imported_by(["verify", str(memo), "--trust", str(pki.ca_pem)])
    assert code == 0  # VALID: the re-render and the re-score ran
    assert {"clusterbid.core.memo.render", "clusterbid.core.scoring"} <= modules
    loaded = modules & set(SERVING_ONLY)
    assert not loaded, f"`clusterbid verify` of a training memo imported {sorted(loaded)}"
    assert "clusterbid.core.evidence.model" in modules
    readers = modules & set(EVIDENCE_READERS)
    assert not readers, f"`clusterbid verify` imported the evidence readers {sorted(readers)}"
