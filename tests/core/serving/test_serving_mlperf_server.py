"""An MLPerf Server summary as LoadGen prints it (issue 37 item 6): "Completed tokens per second"
and the mean time per output token under Additional Stats, so the sequences a replica held at the
latency limits follow by Little's law instead of the engine's configured batch (its cap).

Before, the reader knew only the Offline lines ("Tokens per second:") and refused a real Server
summary as "not an LLM result"; the validation script wrote a Server run in the Offline words.
"""

from __future__ import annotations

import pytest

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.serving_readers import read_serving_benchmark, serving_evidence
from clusterbid.core.evidence.serving_run import RunContext

# mlcommons/inference_results_v4.1, closed/NVIDIA/results/DGX-H100_H100-SXM-80GBx8_TRT/
# llama2-70b-99.9/Server/performance/run_1/mlperf_log_summary.txt (the lines read, and their
# neighbours). NVIDIA's Server config for it: TP2 replicas, batch 1,024 each, 8 GPUs.
MLPERF_SERVER_H100 = """================================================
MLPerf Results Summary
================================================
SUT name : llama2-70b-Server-SUT-LoadGen
Scenario : Server
Mode     : PerformanceOnly
Completed samples per second    : 74.42
Completed tokens per second: 21605.79
Result is : VALID
  Performance constraints satisfied : Yes

================================================
Additional Stats
================================================
Scheduled samples per second : 75.10
Mean latency (ns)               : 44954547225

Completed tokens per second                 : 21605.79
Mean First Token latency (ns)               : 275926440
99.00 percentile first token latency (ns)   : 461278089

Mean Time to Output Token (ns)               : 154960329
99.00 percentile time to output token (ns)   : 175354317
"""
CONTEXT = RunContext(
    gpu_model="H100-SXM",
    precision="fp8",
    kv_cache_precision="fp8",
    batch=1024,
    system_gpus=8,
    model="llama2-70b-99.9",
)


def test_a_server_summary_reads_its_rate_and_mean_latencies() -> None:
    run = read_serving_benchmark(MLPERF_SERVER_H100, "mlperf_log_summary.txt")
    assert run.engine == "MLPerf Inference Server" and run.whole_system
    assert run.output_tokens_per_s == 21605.79
    assert run.output_tokens == pytest.approx(21605.79 / 74.42)  # 290.3 tokens per request
    assert run.tpot_ms == pytest.approx(154.960329)  # the mean, not the 99th percentile
    assert run.ttft_ms == pytest.approx(275.926440)


def test_the_sequences_held_at_the_limits_replace_the_configured_batch() -> None:
    run = read_serving_benchmark(MLPERF_SERVER_H100, "mlperf_log_summary.txt")
    evidence = serving_evidence(run, 2, "third_party", "mlperf_log_summary.txt", b"x", CONTEXT)
    # One of four TP2 replicas: 21,605.79 / 4 = 5,401.45 tokens/s; x 0.15496 s = 837.0 sequences.
    assert evidence.value == pytest.approx(5401.4475)
    assert evidence.batch_size == 837
    assert "the configured batch 1,024 is the engine's cap, not what it held" in (
        evidence.description
    )
    assert evidence.model_name == "Llama-2-70B" and evidence.model_active_params_billions == 69.0


def test_a_server_summary_still_needs_the_system_s_gpus() -> None:
    run = read_serving_benchmark(MLPERF_SERVER_H100, "mlperf_log_summary.txt")
    with pytest.raises(EvidenceParseError, match="--system-gpus"):
        serving_evidence(run, 2, "third_party", "s.txt", b"x", RunContext(batch=1024))


def test_a_bad_latency_line_is_refused_naming_its_line() -> None:
    bad = MLPERF_SERVER_H100.replace("154960329", "fast")
    with pytest.raises(EvidenceParseError) as caught:
        read_serving_benchmark(bad, "mlperf_log_summary.txt")
    assert (
        caught.value.line
        == bad.splitlines().index("Mean Time to Output Token (ns)               : fast") + 1
    )
    assert "Mean Time to Output Token (ns): expected a number" in str(caught.value)


def test_a_summary_states_no_engine_so_the_evidence_names_none() -> None:
    """MLPerf is a benchmark, not an engine: the summary names its scenario and SUT, never the
    engine (that is in the submission's system description, another file). A tester saw "The
    serving benchmark ran on MLPerf Inference Server, not on the engine the buyer states"."""
    from clusterbid.core.costmodel.engine_efficiency import engine_of_run, other_engine_note

    run = read_serving_benchmark(MLPERF_SERVER_H100, "mlperf_log_summary.txt")
    evidence = serving_evidence(run, 2, "third_party", "mlperf_log_summary.txt", b"x", CONTEXT)
    assert evidence.engine is None
    assert evidence.description.startswith("MLPerf Inference Server benchmark")
    assert engine_of_run(evidence.engine) is None
    note = other_engine_note("tensorrt-llm", evidence.engine)
    assert note is not None and "MLPerf" not in note
    assert "does not state the engine it ran on" in note and "TensorRT-LLM" in note
    assert other_engine_note("not-stated", evidence.engine) is None  # nothing to compare with


def test_the_officer_can_name_the_engine_a_summary_does_not() -> None:
    # A review: the memo asked which engine an MLPerf run used, and nothing could answer it. The
    # officer's engine (--engine, the dialog's "Serving engine") is recorded where the file names
    # none; a file that names its engine refuses another.
    from dataclasses import replace

    from test_serving_readers import VLLM_TEXT

    from clusterbid.core.costmodel.engine_efficiency import other_engine_note

    run = read_serving_benchmark(MLPERF_SERVER_H100, "mlperf_log_summary.txt")
    named = replace(CONTEXT, engine="TensorRT-LLM")
    evidence = serving_evidence(run, 2, "third_party", "mlperf_log_summary.txt", b"x", named)
    assert evidence.engine == "TensorRT-LLM"
    assert other_engine_note("tensorrt-llm", evidence.engine) is None
    vllm_run = read_serving_benchmark(VLLM_TEXT, "vllm.txt")
    with pytest.raises(EvidenceParseError, match="the file names its engine"):
        serving_evidence(vllm_run, 1, "buyer", "vllm.txt", b"x", RunContext(engine="SGLang"))


def test_the_engine_given_is_checked_said_back_and_never_cut(tmp_path) -> None:
    # A last tester: a 200-character engine was cut to 64 silently, "   " was refused as "at
    # least 1 character", and a vLLM file refused --engine vLLM.
    from tests.core.serving.test_serving_readers import VLLM_TEXT

    from clusterbid.core.errors import InputError
    from clusterbid.operations.serving_evidence import ServingRunOptions, read_serving_file

    summary = tmp_path / "mlperf_log_summary.txt"
    summary.write_text(MLPERF_SERVER_H100)
    base = {"system_gpus": 8, "prompt_tokens": 222, "gpu_model": "H100-SXM"}
    with pytest.raises(InputError, match="200 characters; give at most 64"):
        read_serving_file(summary, ServingRunOptions(2, engine="x" * 200, **base))
    blank = read_serving_file(summary, ServingRunOptions(2, engine="   ", **base)).evidence
    assert blank.engine is None
    vllm = tmp_path / "vllm.txt"
    vllm.write_text(VLLM_TEXT)
    same = read_serving_file(vllm, ServingRunOptions(1, engine="vllm")).evidence
    assert same.engine == "vLLM"


def test_the_engine_or_a_lone_version_is_said_back_at_attach(tmp_path, capsys) -> None:
    # A last tester: the engine typed was never said back, and a lone version was kept silently.
    from tests.conftest import EXAMPLES

    from clusterbid.cli import main

    document = tmp_path / "s.clusterbid"
    assert (
        main(["new", str(document), "--from", str(EXAMPLES / "demo-serving-evaluation.json")]) == 0
    )
    summary = tmp_path / "mlperf_log_summary.txt"
    summary.write_text(MLPERF_SERVER_H100)
    base = ["serving-evidence", "attach", str(document), "quarry-h100", str(summary), "--gpus", "2"]
    base += ["--system-gpus", "8", "--prompt-tokens", "222", "--measured-by", "third_party"]
    capsys.readouterr()
    assert main([*base, "--engine", "TensorRT-LLM"]) == 0
    assert (
        "Note: engine TensorRT-LLM, as you gave it (the file names none)" in capsys.readouterr().out
    )
    other = tmp_path / "t.clusterbid"
    assert main(["new", str(other), "--from", str(EXAMPLES / "demo-serving-evaluation.json")]) == 0
    base[2] = str(other)
    capsys.readouterr()
    assert main([*base, "--engine-version", "4.1"]) == 0
    said = capsys.readouterr().out
    assert "engine version 4.1 kept, but the file names no engine: give the engine too" in said
