"""Issue 31, item 3: grades follow artefacts. The run's own output (an nccl-tests log) is a
measurement; a summary row someone typed (a throughput CSV), attached or not, is a claim."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.evidence.reading import read_evidence
from clusterbid.core.uncertainty.decision import decide

DATA = Path(__file__).resolve().parents[2] / "data"
REAL_LOG = DATA / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"
HEADER = (
    "model,active_params_b,precision,sequence_length,tp,pp,dp,gpus,tokens_per_second,step_time_s,mfu,"
    "global_batch_tokens,mfu_denominator,gpu_model,measured_by,measured_on"
)
# One row a provider typed: 70B on 512 H100s at 600,000 tokens/s. By hand, 6 x 70e9 x 600,000 /
# (512 x 989e12) = 49.8% MFU (6N), well above the workload's 42%.
ONE_ROW = (
    HEADER + "\nllama-70b,70,bf16,4096,8,4,16,512,600000,,,4194304,,H100-SXM,provider,2026-11-01\n"
)


def test_a_typed_row_is_a_claim_and_the_raw_log_a_measurement(tmp_path):
    typed = read_evidence(ONE_ROW.encode(), "cumulus-throughput.csv")
    (row,) = typed.evidence
    assert row.value == pytest.approx(6 * 70e9 * 600_000 / (512 * 989e12), rel=1e-9)
    assert row.grade is EvidenceGrade.PROVIDER_CLAIM  # the file is kept, but it is what was typed
    assert row.artefact_sha256 == hashlib.sha256(ONE_ROW.encode()).hexdigest()
    raw = read_evidence(REAL_LOG.read_bytes(), REAL_LOG.name, measured_by="provider")
    assert {e.grade for e in raw.evidence} == {EvidenceGrade.MEASURED_PROVIDER}


def test_a_typed_row_on_a_bid_is_drawn_as_silence_around_its_haircut_figure():
    """Attached to Cumulus (the demo's 12-month term), the typed row's MFU is drawn on the same
    shared streams as the bids without evidence, centred on max(prior, 0.85 x claim): it can move
    the bid no further than 85% of what it states, never as far as a measurement would."""
    data = demo_evaluation().model_dump(mode="json")
    (row,) = read_evidence(ONE_ROW.encode(), "cumulus-throughput.csv").evidence
    cumulus = next(b for b in data["bids"] if b["id"] == "cumulus-roce")
    cumulus["evidence"] = [row.model_dump(mode="json")]
    from clusterbid.core.evaluation import Evaluation

    evaluation = Evaluation.model_validate(data)
    scorecard, drawn = decide(evaluation, 4_000)
    estimate = next(s.estimate for s in scorecard.scores if s.bid.id == "cumulus-roce")
    assert estimate.efficiency_evidence.grade is EvidenceGrade.PROVIDER_CLAIM
    mfu = next(i for i in drawn.bids["cumulus-roce"].inputs if i.name == "baseline_mfu")
    northwind = next(i for i in drawn.bids["northwind-ib"].inputs if i.name == "baseline_mfu")
    assert mfu.shared_streams == northwind.shared_streams and mfu.sigma == northwind.sigma == 0.0
    centre = max(estimate.spec_baseline_mfu, 0.85 * estimate.baseline_mfu)
    assert mfu.median_factor * mfu.point == pytest.approx(centre, rel=1e-9)
    assert estimate.baseline_mfu > estimate.spec_baseline_mfu  # the claim is above the prediction
