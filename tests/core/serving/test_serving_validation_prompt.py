"""The serving validation's MLPerf rows use the documented mean prompt of MLPerf's Llama-2-70B set
(issue 37, target b), on the product's path: the workload's prompt and the file an officer attaches.

Source: MLCommons' reference dataset for MLPerf Inference Llama-2-70B,
open_orca_gpt4_tokenized_llama.sampled_24576.pkl (mlcommons/inference language/llama2-70b,
processorca.py --seqlen_limit=1024), column tok_input_length: 5,463,976 prompt tokens over its
24,576 samples (min 48, max 1,021). Published as sums bound to the file's SHA-256 in
FlashLab-MBZUAI/HBFSim validation/calibration/h100-llama2-70b-calibration-protocol.json (commit
96cf1b37, "input_tokens": {"min": 48, "max": 1021, "sum": 5463976}, "rows": 24576), and per
sample in openshift-psap/performance-dashboard mlperf-data/summaries/llama2-70b-99.csv (commit
7cd1065d), whose input_length column sums to the same. Before target b the rows were rated at an
assumed 512.
"""

from __future__ import annotations

from pathlib import Path

from tests.validation.serving_gap_evidence import largest_prompt_holding_the_batch
from tests.validation.serving_through_product import evidence_file
from tests.validation.serving_validation import ROWS, _workload

PROMPT_TOKENS, SAMPLES = 5_463_976, 24_576
DOCUMENTED_MEAN = round(PROMPT_TOKENS / SAMPLES)  # 222.33: the workload's prompt is whole tokens
MLPERF = [r for r in ROWS if r.group.startswith("MLPerf")]


def test_every_mlperf_row_is_rated_at_the_set_s_mean_prompt():
    assert DOCUMENTED_MEAN == 222 and len(MLPERF) == 4  # Server and Offline, H100 and H200
    for row in MLPERF:
        # One figure: the source states it, so no spread of guesses is run beside it.
        assert row.prompt == (DOCUMENTED_MEAN,), row.label
        assert _workload(row, row.prompt[0], None).prompt_tokens == DOCUMENTED_MEAN


def test_the_file_attached_for_an_mlperf_row_carries_the_mean(tmp_path: Path):
    # An MLPerf summary states no prompt length: the officer types the set's mean beside it.
    for n, row in enumerate(MLPERF):
        folder = tmp_path / str(n)
        folder.mkdir()
        _, options = evidence_file(row, folder)
        assert options.prompt_tokens == DOCUMENTED_MEAN, row.label


def test_the_mean_is_one_each_submission_s_configured_batch_holds():
    # A tuned submission sets its batch to what fits: at the set's mean prompt the configured
    # batch (1,024 per H100 TP2 pair, 896 otherwise) must fit HBM by the model's memory rule, so
    # the largest mean prompt it holds is at or above the documented mean.
    for row in MLPERF:
        bound = largest_prompt_holding_the_batch(row, _workload)
        assert bound is not None and bound >= DOCUMENTED_MEAN, (row.label, bound)


def test_the_other_rows_keep_the_lengths_their_sources_state():
    # TensorRT-LLM perf-overview.md (commit 00f37686): fixed 1,000 or 128 prompt tokens. Lambda's
    # ShareGPT run (benchmark_v0.md, its 4xH100 result JSON): 65,578 prompt tokens over 320.
    trt = {r.prompt for r in ROWS if r.group == "TRT-LLM"}
    vllm = {r.prompt for r in ROWS if r.group == "vLLM"}
    assert trt == {(1000,), (128,)}
    assert vllm == {(round(65_578 / 320),)}
