"""Issue 37 item 4 (in part): cost per million output tokens and the blended cost per million
tokens, prompts and outputs together (what API prices quote), both printed."""

from __future__ import annotations

import pytest
from serving_builders import serving_bid, serving_workload
from tests.conftest import evaluation_dict

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.serving_json import serving_scorecard_to_json
from clusterbid.core.serving_report import format_serving_table, serving_comparison_rows
from clusterbid.core.serving_scoring import score_serving_evaluation


def test_blended_cost_spreads_the_same_bill_over_prompt_and_output_tokens():
    workload = serving_workload(prompt_tokens=1000, output_tokens=600, average_requests_per_s=4)
    data = evaluation_dict() | {
        "workload": workload.model_dump(mode="json"),
        "bids": [serving_bid().model_dump(mode="json")],
    }
    scorecard = score_serving_evaluation(Evaluation.model_validate(data))
    e = scorecard.scores[0].estimate
    seconds = 730 * 3600  # a month of 730 hours
    # 4 requests/s of 1,000 + 600 tokens: 6,400 tokens/s; of them 2,400 output tokens/s.
    by_hand_output = e.monthly_cost / (2_400 * seconds) * 1e6
    by_hand_blended = e.monthly_cost / (6_400 * seconds) * 1e6
    assert e.cost_per_million_tokens == pytest.approx(by_hand_output, rel=1e-12)
    figures = serving_scorecard_to_json(scorecard)["bids"][0]["figures"]
    assert float(figures["cost_per_million_tokens_input_and_output"]["amount"]) == pytest.approx(
        by_hand_blended, abs=0.005
    )
    row = serving_comparison_rows(scorecard)[0]
    assert float(row["cost per million tokens, input and output [USD]"]) == pytest.approx(
        by_hand_blended, abs=0.005
    )
    table = format_serving_table(scorecard)
    assert "per M in+out" in table and f"{by_hand_blended:.2f}" in table
