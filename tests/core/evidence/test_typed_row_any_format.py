"""Issue 31, item 3 (checked again): a one-row throughput table someone typed is a claim whatever
its format (CSV or JSON) and whoever it says measured it; it cannot flip the award the way a
measurement could. The issue's case: the typed row on the demo's 12-month Cumulus term turned a
$3.2M three-month award into an $11.2M twelve-month one while page 1 reported a saving."""

from __future__ import annotations

import json

import pytest
from tests.core.evidence.test_grades_follow_artefacts import HEADER

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.evidence.reading import read_evidence
from clusterbid.core.uncertainty.decision import decide

# 70B on 512 H100s at 600,000 tokens/s: 6 x 70e9 x 600,000 / (512 x 989e12) = 49.8% MFU, above
# the workload's 42%: a figure that, taken as measured, makes the slow RoCE bid look fast.
MFU = 6 * 70e9 * 600_000 / (512 * 989e12)


def _row(measured_by: str) -> dict:
    values = [
        "llama-70b",
        "70",
        "bf16",
        "4096",
        "8",
        "4",
        "16",
        "512",
        "600000",
        "",
        "",
        "4194304",
        "",
        "H100-SXM",
        measured_by,
        "2026-11-01",
    ]
    return dict(zip(HEADER.split(","), values, strict=True))


@pytest.mark.parametrize("measured_by", ["provider", "third_party", "buyer"])
def test_a_typed_row_is_a_claim_in_csv_and_in_json_whoever_measured(measured_by):
    row = _row(measured_by)
    csv_text = HEADER + "\n" + ",".join(row.values()) + "\n"
    json_text = json.dumps(
        {"format": "clusterbid-throughput/1", "rows": [{k: v for k, v in row.items() if v != ""}]}
    )
    for text, name in ((csv_text, "typed.csv"), (json_text, "typed.json")):
        (item,) = read_evidence(text.encode(), name).evidence
        assert item.value == pytest.approx(MFU, rel=1e-9)
        assert item.grade is EvidenceGrade.PROVIDER_CLAIM, (name, measured_by)


def test_the_typed_row_does_not_move_the_award_to_the_twelve_month_term():
    """With the row attached to Cumulus (graded a claim, drawn around max(prior, 0.85 x claim)),
    the decided first stays Northwind's 3-month term, whose commitment ($3,195,648 = 512 GPUs x
    3 x 730 h x $2.85) is what page 1 approves, not Cumulus's 12-month $11.2M."""
    data = demo_evaluation().model_dump(mode="json")
    text = HEADER + "\n" + ",".join(_row("third_party").values()) + "\n"
    (item,) = read_evidence(text.encode(), "cumulus-throughput.csv").evidence
    cumulus = next(b for b in data["bids"] if b["id"] == "cumulus-roce")
    cumulus["evidence"] = [item.model_dump(mode="json")]
    scorecard, _drawn = decide(Evaluation.model_validate(data), 4_000)
    first = scorecard.ranked[0]
    assert first.bid.id == "northwind-ib"
    assert first.estimate.commitment == pytest.approx(512 * 3 * 730 * 2.85, abs=0.01)
    typed = next(s for s in scorecard.scores if s.bid.id == "cumulus-roce")
    assert typed.estimate.efficiency_evidence.grade is EvidenceGrade.PROVIDER_CLAIM
