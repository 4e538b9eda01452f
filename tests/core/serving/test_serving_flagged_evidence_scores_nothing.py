"""A serving benchmark kept on file but flagged above the model's ceiling and not used earns no
evidence score (found by a tester, issue 37 item 2): attaching an MLPerf summary read without its
prompt length to Quarry GPU printed "Decision: not used", yet Quarry's evidence criterion went to
1.0 and its weighted score from 0.829 to 0.879, first; a file claiming 1e300 tokens/s did the same.
The memo's "What was not verified" now names the unused file. With the officer's recorded reason
the figure is used, and counts."""

from __future__ import annotations

import json

import pytest
from tests.conftest import EXAMPLES

from clusterbid.core.documents import read_evaluation
from clusterbid.core.memo.serving_tables import unverified
from clusterbid.core.serving_scoring import score_serving_evaluation

DEMO = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
# 1e300 tokens/s of one two-GPU replica at batch 64: far above any H100's peak.
ABSURD = {
    "kind": "serving_decode_throughput",
    "scale_gpus": 2,
    "value": 1e300,
    "unit": "tokens/s",
    "grade": "measured_independent",
    "batch_size": 64,
    "measured_by": "third_party",
    "artefact_sha256": "cd" * 32,
    "prompt_tokens": 1000,
    "output_tokens": 600,
}


def _vllm_result(path, inputs: float, outputs: float, tokens_per_s: float, tpot_ms: float) -> None:
    """A vLLM benchmark_serving result of 10 requests with these totals and rates."""
    path.write_text(
        json.dumps(
            {
                "backend": "vllm",
                "completed": 10,
                "total_input_tokens": inputs,
                "total_output_tokens": outputs,
                "output_throughput": tokens_per_s,
                "mean_tpot_ms": tpot_ms,
                "median_tpot_ms": tpot_ms,
                "duration": 1,
            }
        )
    )


def _with_quarry_evidence(evidence: dict):
    data = DEMO.model_dump(mode="json")
    quarry = next(b for b in data["bids"] if b["id"] == "quarry-h100")
    quarry["evidence"] = [*quarry.get("evidence", []), evidence]
    return score_serving_evaluation(type(DEMO).model_validate(data))


def _score(scorecard, bid_id: str):
    return next(s for s in scorecard.scores if s.bid.id == bid_id)


def test_a_flagged_unused_benchmark_earns_nothing_and_moves_no_rank():
    before = score_serving_evaluation(DEMO)
    after = _with_quarry_evidence(ABSURD)
    quarry = _score(after, "quarry-h100")
    assert quarry.estimate.throughput_evidence is None  # flagged, not used
    assert quarry.criteria["evidence"] == 0.0
    # Nothing else about Quarry changed, so neither did its score or anybody's rank.
    assert quarry.weighted_score == pytest.approx(_score(before, "quarry-h100").weighted_score)
    assert [s.bid.id for s in after.ranked] == [s.bid.id for s in before.ranked]
    line = next(line for line in unverified(after) if line.startswith("Quarry"))
    assert (
        "reads as faster than these GPUs can run and was not used, nor counted as evidence" in line
    )


def test_with_the_officers_recorded_reason_the_figure_is_used_and_counts():
    # A third party's run within reach (1,600 tokens/s on 2 GPUs at batch 64), so it is used.
    plausible = {**ABSURD, "value": 1600.0}
    quarry = _score(_with_quarry_evidence(plausible), "quarry-h100")
    assert quarry.estimate.throughput_evidence is not None
    assert quarry.criteria["evidence"] == 1.0  # measured independently: the top grade


def test_a_file_whose_littles_law_holds_more_sequences_than_any_engine_is_refused_in_words(
    tmp_path, capsys
):
    # 1e300 tokens/s at 20 ms per token is 2e298 sequences at once on one replica: the reader
    # clamped it to 65,536 and printed a 300-digit figure; now it is refused and says why.
    from clusterbid.cli import main

    path = tmp_path / "huge.json"
    _vllm_result(path, inputs=100, outputs=100, tokens_per_s=1e300, tpot_ms=20)
    assert main(["serving-evidence", "parse", str(path), "--gpus", "1"]) == 2
    said = capsys.readouterr().err
    assert "2e+298 sequences at once on one replica" in said
    assert "check the file's output throughput and time per output token" in said
    assert len(said) < 400  # one line, no 300-digit figure


def test_a_figure_no_engine_factor_can_reproduce_is_never_said_to_be_used(tmp_path, capsys):
    # A tester attached a figure faster than the all-reduces alone allow with a recorded reason:
    # the attach printed "Decision: used, for the reason recorded", the score "not used".
    from clusterbid.cli import main

    document = tmp_path / "s.clusterbid"
    assert (
        main(["new", str(document), "--from", str(EXAMPLES / "demo-serving-evaluation.json")]) == 0
    )
    run = tmp_path / "fast.json"  # 5,000,000 tokens/s at 5 ms a token: 25,000 sequences at once
    _vllm_result(run, inputs=10000, outputs=6000, tokens_per_s=5000000, tpot_ms=5)
    capsys.readouterr()
    argv = ["serving-evidence", "attach", str(document), "quarry-h100", str(run), "--gpus", "8"]
    assert main([*argv, "--use-above-model", "provider insists"]) == 0
    said = capsys.readouterr().out
    assert "Decision: not used: no engine factor can reproduce it" in said
    assert "Decision: used" not in said


def test_a_figure_outside_what_evidence_may_hold_is_refused_naming_the_field(tmp_path, capsys):
    # 1e301 output tokens over 10 requests: the refusal was pydantic's last line alone, a link.
    from clusterbid.cli import main

    path = tmp_path / "tokens.json"
    _vllm_result(path, inputs=100, outputs=1e301, tokens_per_s=1000, tpot_ms=20)
    assert main(["serving-evidence", "parse", str(path), "--gpus", "1"]) == 2
    said = capsys.readouterr().err
    assert "the run's output_tokens: Input should be less than or equal to" in said
    assert "errors.pydantic.dev" not in said
