"""Serving benchmark output read into evidence, checked against figures in the public outputs."""

from __future__ import annotations

import json

import pytest
from serving_builders import serving_bid, serving_workload

from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.evidence.serving_readers import (
    read_serving_benchmark,
    run_findings,
    serving_evidence,
)

# The headline keys of a vLLM 0.6 `benchmark_serving.py --save-result` file, as published by
# Lambda (LambdaLabsML/vllm-benchmark, results/prompt_320/4xH100-80GB-SXM/
# Meta-Llama-3.1-70B-Instruct-FP8_tp4_len2048.json); per-request lists left out.
VLLM_JSON = json.dumps(
    {
        "backend": "vllm",
        "model_id": "neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8",
        "num_prompts": 320,
        "request_rate": "inf",
        "duration": 18.746879167010775,
        "completed": 320,
        "total_input_tokens": 65578,
        "total_output_tokens": 62996,
        "output_throughput": 3360.3459775243664,
        "mean_ttft_ms": 2576.5644568905373,
        "mean_tpot_ms": 76.24951978623933,
        "median_tpot_ms": 32.45024212030476,
    }
)
VLLM_TEXT = """============ Serving Benchmark Result ============
Successful requests:                     32
Benchmark duration (s):                  150.87
Total input tokens:                      65536
Total generated tokens:                  65536
Request throughput (req/s):              0.21
Output token throughput (tok/s):         434.40
Mean TTFT (ms):                          7279.56
Mean TPOT (ms):                          70.14
"""
# GenAI-Perf's profile export keys (genai-perf 0.0.x, triton-inference-server docs), one run.
GENAI_PERF_JSON = json.dumps(
    {
        "time_to_first_token": {"unit": "ms", "avg": 195.84, "p50": 175.05},
        "inter_token_latency": {"unit": "ms", "avg": 35.2, "p50": 34.73},
        "output_token_throughput": {"unit": "tokens/sec", "avg": 52.69},
        "output_sequence_length": {"unit": "tokens", "avg": 64.0},
        "input_sequence_length": {"unit": "tokens", "avg": 256.0},
    }
)
# trtllm-bench throughput report, as printed in TensorRT-LLM's perf-overview.md (v1.0 era).
TRTLLM_TEXT = """===========================================================
= PERFORMANCE OVERVIEW
===========================================================
Request Throughput (req/sec):                     43.2089
Total Output Throughput (tokens/sec):             5530.7382
Per GPU Output Throughput (tokens/sec/gpu):       5530.7382
Average time-to-first-token [TTFT] (ms):          52667.0339
Average time-per-output-token [TPOT] (ms):        182.9639
"""


def test_a_vllm_result_json_gives_throughput_latency_and_lengths():
    run = read_serving_benchmark(VLLM_JSON, "vllm.json")
    assert run.engine == "vLLM" and run.output_tokens_per_s == pytest.approx(3360.346)
    assert run.prompt_tokens == pytest.approx(65578 / 320) and run.output_tokens == pytest.approx(
        62996 / 320
    )
    # Little's law: 3,360.35 tokens/s x 0.07625 s = 256.2 sequences, the run's max-num-seqs 256.
    assert run.concurrent_sequences == 256


def test_the_console_summaries_and_genai_perf_read_the_same_way():
    text = read_serving_benchmark(VLLM_TEXT, "vllm.txt")
    assert (text.output_tokens_per_s, text.tpot_ms, text.prompt_tokens) == (434.40, 70.14, 2048.0)
    assert text.concurrent_sequences == round(434.40 * 0.07014)  # 30.5 -> 30
    genai = read_serving_benchmark(GENAI_PERF_JSON, "profile_export_genai_perf.json")
    assert (genai.engine, genai.concurrent_sequences) == ("GenAI-Perf", 2)  # 52.69 x 0.0352 = 1.85
    trt = read_serving_benchmark(TRTLLM_TEXT, "trtllm.txt")
    assert (trt.engine, trt.concurrent_sequences) == (
        "TensorRT-LLM",
        1012,
    )  # 5,530.74 x 0.18296 = 1,011.9


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not valid JSON"),
        (
            '{"output_throughput": 10, "completed": 3, "total_input_tokens": 1, '
            '"total_output_tokens": 1}',
            "mean_tpot_ms",
        ),
        (
            VLLM_JSON.replace("3360.3459775243664", "-1"),
            "output_throughput must be a positive number",
        ),
        ('{"output_token_throughput": 5}', "output_token_throughput must be an object"),
        ("hello", "not a serving benchmark"),
        (TRTLLM_TEXT.replace("182.9639", "fast"), "expected a number"),
    ],
)
def test_bad_files_are_refused_with_the_field_named(text, words):
    with pytest.raises(EvidenceParseError, match=words):
        read_serving_benchmark(text, "bad")


def test_a_run_attached_calibrates_the_bid_at_the_measured_latency():
    # 1,000 tokens/s at 30 ms per token on one H100: 30 sequences at once. The run's own lengths
    # (issue 37) are 32,000 / 32 = 1,000-token prompts and 65,536 / 32 = 2,048-token outputs, so a
    # step reads 70e9 + 30 x 327,680 x (1,000 + 1,024) = 89.90e9 bytes in 30 ms (TP1: no
    # all-reduce; the matmuls, 2 x 70e9 x 44.6 tokens / 989.5e12 = 6.3 ms, hide under the reads),
    # so the HBM efficiency is 89.90e9 / (3.35e12 x 0.030) = 0.8945.
    text = VLLM_TEXT.replace("434.40", "1000").replace("70.14", "30").replace("65536", "32000", 1)
    run = read_serving_benchmark(text, "run.txt")
    evidence = serving_evidence(run, 1, "buyer", "run.txt", text.encode())
    assert evidence.grade is EvidenceGrade.MEASURED_INDEPENDENT and evidence.batch_size == 30
    bid = serving_bid(evidence=[evidence.model_dump(mode="json")])
    e = estimate_serving(serving_workload(tensor_parallel=1), [bid]).bids[0]
    assert e.hbm_efficiency == pytest.approx(
        (70e9 + 30 * 327_680 * 2024) / (3.35e12 * 0.030), rel=1e-9
    )
    provider = serving_evidence(run, 1, "provider", "run.txt", text.encode())
    assert provider.grade is EvidenceGrade.MEASURED_PROVIDER


def test_differences_from_the_service_are_said_in_words():
    run = read_serving_benchmark(VLLM_JSON, "vllm.json")  # 205 / 197 tokens, 76 ms per token
    notes = run_findings(run, prompt_tokens=1000, output_tokens=600, tpot_target_ms=30)
    assert len(notes) == 3 and "above the 30 ms target" in notes[2]
    with pytest.raises(EvidenceParseError, match="measured_by"):
        serving_evidence(run, 4, "vendor", "vllm.json", b"x")
