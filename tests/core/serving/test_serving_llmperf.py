"""Issue 37: LLMPerf summaries read beside the other serving readers.

The fixture follows ray-project/llmperf's own writer: `token_benchmark_ray.py` (metadata keys
`model`, `mean_input_tokens`, `stddev_input_tokens`, `mean_output_tokens`, `stddev_output_tokens`,
`num_concurrent_requests`, and `metrics_summary`'s `results`: per metric `quantiles` p25-p99,
`mean`, `min`, `max`, `stddev`, then `num_requests_started`, `error_rate`, `number_errors`,
`error_code_frequency`, `mean_output_throughput_token_per_s`, `num_completed_requests`,
`num_completed_requests_per_min`) flattened by `llmperf.utils.flatten_dict` with "_" under
`LLMPerfResults.to_dict` (`version` "2023-08-31", `name`, `timestamp`). Its figures are a run of
160 requests of 256 output tokens at concurrency 8 (160 x 256 / 204.6 s = 200.2 tokens/s).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from clusterbid.cli import main
from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.serving_readers import read_serving_benchmark, serving_evidence

FIXTURE = (
    Path(__file__).resolve().parents[2]
    / "data"
    / "serving"
    / "llmperf"
    / "meta-llama-Meta-Llama-3-70B-Instruct_550_256_summary.json"
)


def test_the_summary_reads_as_a_run_at_its_own_lengths_by_hand():
    text = FIXTURE.read_text(encoding="utf-8")
    run = read_serving_benchmark(text, FIXTURE.name)
    assert run.engine == "LLMPerf"
    assert run.output_tokens_per_s == 200.2
    # LLMPerf's inter-token latency counts the first token in: (10.230 - 0.270) s / 255 tokens.
    assert run.tpot_ms == pytest.approx(9.960 / 255 * 1000)  # 39.06 ms
    assert run.ttft_ms == pytest.approx(270.0)
    assert (run.prompt_tokens, run.output_tokens) == (
        548.3,
        256.0,
    )  # measured, not the requested 550
    assert run.context_cv == pytest.approx(math.hypot(149.1, 4.9) / (548.3 + 128.0))  # 0.2206
    # Little's law: 200.2 tokens/s x 39.06 ms = 7.8 sequences, the run's concurrency of 8.
    assert run.concurrent_sequences == 8 == json.loads(text)["num_concurrent_requests"]
    evidence = serving_evidence(run, 4, "buyer", FIXTURE.name, text.encode())
    # LLMPerf is the load generator, not the serving engine: the evidence names none (a tester saw
    # the memo say a run "ran on MLPerf Inference Server, not on the engine the buyer states").
    assert (evidence.scale_gpus, evidence.batch_size, evidence.engine) == (4, 8, None)
    assert evidence.prompt_tokens == 548.3 and evidence.output_tokens == 256.0


def test_the_cli_parses_an_llmperf_summary(capsys):
    assert main(["serving-evidence", "parse", str(FIXTURE), "--gpus", "4", "--json"]) == 0
    evidence = json.loads(capsys.readouterr().out)
    assert (evidence["batch_size"], evidence["engine"], evidence["value"]) == (8, None, 200.2)


@pytest.mark.parametrize(
    "change, words",
    [
        (
            {"results_num_completed_requests": 0},
            "results_num_completed_requests must be a positive number",
        ),
        ({"results_end_to_end_latency_s_mean": 0.2}, "spent no time decoding"),
        ({"results_number_output_tokens_mean": 1}, "two tokens or more"),
        ({"results_ttft_s_mean": None}, "results_ttft_s_mean must be a positive number"),
        ({"results_mean_output_throughput_token_per_s": "fast"}, "must be a positive number"),
    ],
)
def test_a_summary_that_measured_nothing_is_refused_naming_the_field(change, words):
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data.update(change)
    with pytest.raises(EvidenceParseError, match=words) as caught:
        read_serving_benchmark(json.dumps(data), "run_summary.json")
    assert "run_summary.json" in str(caught.value)


def test_a_stddev_pandas_wrote_as_nan_leaves_the_spread_unstated():
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    text = json.dumps(data).replace(
        '"results_number_input_tokens_stddev": 149.1', '"results_number_input_tokens_stddev": NaN'
    )
    assert read_serving_benchmark(text, "one_request_summary.json").context_cv is None
