"""Officers read words, not the evidence format's ids. The demo carries no evidence, so the scan
of what the app and memo show never met these: attach a typed scaling table and a public
nccl-tests log to the demo, and read every line `evidence parse` and `score` print."""

from __future__ import annotations

import re
from pathlib import Path

from clusterbid.cli import main
from clusterbid.core.evidence.model import EvidenceGrade, EvidenceKind
from clusterbid.core.evidence_request.summary import asks
from clusterbid.core.store import EvaluationDocument
from clusterbid.core.uncertainty.sampling import sample_plan_costs
from clusterbid.core.uncertainty.value_of_information import value_from_samples

DATA = Path(__file__).resolve().parents[2] / "data"
SCALING = DATA / "throughput" / "scaling.csv"
REAL_LOG = DATA / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"
# Every id the format uses for a kind, a grade or a measurer that is not also an English word
# ("other", "derived" are both).
IDS = re.compile(
    r"\b("
    + "|".join(v for v in [*EvidenceKind, *EvidenceGrade, "third_party"] if "_" in v)
    + r")\b"
)


def _printed(capsys, argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def test_parse_and_score_name_evidence_in_words(capsys, tmp_path):
    document = tmp_path / "demo.clusterbid"
    _printed(capsys, ["demo", str(document)])
    parsed = _printed(capsys, ["evidence", "parse", str(SCALING)])
    parsed += _printed(capsys, ["evidence", "parse", str(REAL_LOG)])
    _printed(capsys, ["evidence", "attach", str(document), "northwind-ib", str(SCALING)])
    scored = _printed(capsys, ["score", str(document)])
    # The figures are there, in words: the table's 512-GPU row is 39.1% MFU (scaling.csv).
    assert "training MFU 39.1% at 512 GPUs" in parsed
    assert "a claim without raw data" in scored
    assert "all-reduce bus bandwidth 338.82 GB/s at 16 GPUs" in parsed
    # The requests worth making (the app's panel, the memo's "most worth asking").
    with EvaluationDocument.open(document, read_only=True) as opened:
        evaluation = opened.evaluation
    voi = value_from_samples(sample_plan_costs(evaluation, 2_000))
    requested = "\n".join(a.text for a in asks(evaluation, voi, limit=10))
    assert "(now: provider's claim, no raw data" in requested  # Northwind's MFU, now a claim
    found = sorted({m.group(0) for m in IDS.finditer(parsed + scored + requested)})
    assert found == [], f"format ids shown to the officer: {found}"
