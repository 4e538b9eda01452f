"""A trtllm-bench throughput report states the model, its weight quantization and its KV-cache
dtype above the performance figures: the reader carries them into the evidence, so a run that
states FP8 and FP8 is not noted as leaving its precisions unstated (nor widened for them), and its
model is named. The officer's own statement still wins.

The report's block, as TensorRT-LLM's tensorrt_llm/bench/dataclasses/reporting.py prints it
(report_statistics: "= PYTORCH BACKEND" / "= ENGINE DETAILS" with "Model:", "TensorRT LLM
Version:", "Dtype:", "KV Cache Dtype:", "Quantization:"), with the values of the example in its
docs/source/performance/perf-benchmarking.md (v0.17: meta-llama/Llama-3.1-8B, bfloat16, FP8, FP8).
"""

from __future__ import annotations

from serving_builders import serving_bid, serving_workload
from test_serving_readers import TRTLLM_TEXT

from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.evidence.serving_readers import read_serving_benchmark, serving_evidence
from clusterbid.core.evidence.serving_run import RunContext

HEADER = """===========================================================
= PYTORCH BACKEND
===========================================================
Model:\t\t\tmeta-llama/Llama-3.1-8B
Model Path:\t\tNone
TensorRT LLM Version:\t0.21.0
Dtype:\t\t\tbfloat16
KV Cache Dtype:\t\tFP8
Quantization:\t\tFP8

===========================================================
= WORLD + RUNTIME INFORMATION
===========================================================
TP Size:                1
PP Size:                1

"""
REPORT = HEADER + TRTLLM_TEXT
# v0.17's ENGINE DETAILS block (perf-benchmarking.md), spaces and the older version label.
OLDER = (
    "Model:                  meta-llama/Llama-3.1-8B\n"
    "Engine Directory:       /tmp/meta-llama/Llama-3.1-8B/tp_1_pp_1\n"
    "TensorRT-LLM Version:   0.17.0\n"
    "Dtype:                  bfloat16\n"
    "KV Cache Dtype:         None\n"
    "Quantization:           None\n"
)


def _evidence(text: str, context: RunContext | None = None):
    run = read_serving_benchmark(text, "trtllm.txt")
    return serving_evidence(run, 1, "buyer", "trtllm.txt", text.encode(), context)


def test_the_report_s_precisions_model_and_version_reach_the_evidence() -> None:
    evidence = _evidence(REPORT, RunContext(gpu_model="H100-SXM", prompt_tokens=128))
    assert (evidence.precision, evidence.kv_cache_precision) == ("fp8", "fp8")
    assert evidence.model_name == "Llama-3.1-8B" and evidence.engine_version == "0.21.0"
    assert "of Llama-3.1-8B" in evidence.description


def test_unquantized_weights_and_kv_cache_are_the_model_s_dtype() -> None:
    # "None" is no quantization: weights and KV cache are held in the Dtype, bfloat16 (2 bytes).
    evidence = _evidence(OLDER + TRTLLM_TEXT)
    assert (evidence.precision, evidence.kv_cache_precision) == ("bf16", "bf16")
    assert evidence.engine_version == "0.17.0"
    # FP8 weights with an unquantized KV cache (perf-benchmarking.md's PyTorch example).
    mixed = _evidence(
        OLDER.replace("Quantization:           None", "Quantization: FP8") + TRTLLM_TEXT
    )
    assert (mixed.precision, mixed.kv_cache_precision) == ("fp8", "bf16")


def test_a_precision_the_model_cannot_hold_stays_unstated() -> None:
    # NVFP4 weights (4 bits) and an INT8 KV cache are neither bf16 nor fp8: left to the officer.
    text = REPORT.replace("Quantization:\t\tFP8", "Quantization:\t\tNVFP4")
    evidence = _evidence(text.replace("KV Cache Dtype:\t\tFP8", "KV Cache Dtype:\t\tINT8"))
    assert (evidence.precision, evidence.kv_cache_precision) == (None, None)


def test_what_the_officer_gives_wins_over_the_report() -> None:
    context = RunContext(precision="bf16", kv_cache_precision="bf16", model="Llama-3.1-70B")
    evidence = _evidence(REPORT, context)
    assert (evidence.precision, evidence.kv_cache_precision) == ("bf16", "bf16")
    assert evidence.model_name == "Llama-3.1-70B"


def test_a_run_that_states_its_precisions_is_not_noted_for_leaving_them_out() -> None:
    context = RunContext(gpu_model="H100-SXM", prompt_tokens=128)
    evidence = _evidence(REPORT, context)
    bid = serving_bid(evidence=[evidence.model_dump(mode="json")])
    notes = estimate_serving(serving_workload(tensor_parallel=1), [bid]).bids[0].calibration_notes
    # This report leaves out REQUEST DETAILS (its average input and output lengths): the prompt
    # is the officer's, so the output length is all the note may still name.
    unstated = [n for n in notes if n.startswith("The run does not state")]
    assert unstated == [n for n in unstated if "precision" not in n]
    assert unstated and "output length" in unstated[0]


def test_a_pipeline_parallel_run_s_replica_is_tp_size_times_its_stages(tmp_path) -> None:
    # A review found "TP Size 2" with two pipeline stages taken as a 2-GPU replica (TP1 x PP2),
    # and the right 4 GPUs refused: the replica is TP Size x stages.
    from clusterbid.operations.serving_evidence import ServingRunOptions, read_serving_file

    path = tmp_path / "report.txt"  # a report that does not state its PP Size: the officer does
    text = REPORT.replace("TP Size:                1", "TP Size:                2")
    path.write_text(text.replace("PP Size:                1\n", ""))
    for typed in (None, 4):
        evidence = read_serving_file(
            path, ServingRunOptions(typed, pipeline_parallel=2, prompt_tokens=128)
        ).evidence
        assert (evidence.scale_gpus, evidence.tensor_parallel, evidence.pipeline_parallel) == (
            4,
            2,
            2,
        )
    try:
        read_serving_file(path, ServingRunOptions(2, pipeline_parallel=2, prompt_tokens=128))
    except Exception as refused:  # InputError or EvidenceParseError, both said in words
        assert "TP Size 2 with 2 pipeline stages" in str(refused) and "(4)" in str(refused)
    else:
        raise AssertionError("a 2-GPU replica of a TP2 x PP2 run was accepted")


def test_a_report_s_own_pp_size_sets_its_stages(tmp_path) -> None:
    # A tester's report said "TP Size: 2" and "PP Size: 2": attached at 2 GPUs it was taken as a
    # 2-GPU replica with no stages, its tokens/s per GPU doubled. The report's PP Size counts.
    from clusterbid.core.errors import InputError
    from clusterbid.operations.serving_evidence import ServingRunOptions, read_serving_file

    path = tmp_path / "report.txt"
    text = REPORT.replace("TP Size:                1", "TP Size:                2")
    path.write_text(text.replace("PP Size:                1", "PP Size:                2"))
    evidence = read_serving_file(path, ServingRunOptions(None, prompt_tokens=128)).evidence
    assert (evidence.scale_gpus, evidence.tensor_parallel, evidence.pipeline_parallel) == (4, 2, 2)
    for wrong in (
        ServingRunOptions(2, prompt_tokens=128),
        ServingRunOptions(None, pipeline_parallel=1, prompt_tokens=128),
    ):
        try:
            read_serving_file(path, wrong)
        except (InputError, ValueError) as refused:
            assert "report says" in str(refused)
        else:
            raise AssertionError(f"{wrong} was accepted")
