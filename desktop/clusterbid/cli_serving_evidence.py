"""CLI verbs over serving benchmark output: `serving-evidence parse FILE` and
`serving-evidence attach DOCUMENT BID_ID FILE` (wired in by cli.py; formats in
resources/evidence-formats.md, "Serving benchmarks")."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError
from clusterbid.core.evidence.model import grade_words

if TYPE_CHECKING:
    from clusterbid.operations.serving_evidence import ServingRunOptions

EXIT_OK, EXIT_INPUT = 0, 2


def _fail(message: str) -> int:
    print(f"clusterbid: error: {message}", file=sys.stderr)
    return EXIT_INPUT


def _options(args: argparse.Namespace) -> ServingRunOptions:
    """The run as the options describe it; InputError for a GPU the catalog does not know."""
    from clusterbid.operations.serving_evidence import ServingRunOptions

    if args.gpu_model is not None:
        from clusterbid.core.catalog import default_catalog

        known = default_catalog().gpus
        if args.gpu_model not in known:
            raise InputError(
                f"--gpu-model {args.gpu_model[:40]!r} is not in the catalog; give one of: "
                f"{', '.join(known)}"
            )
    return ServingRunOptions(
        gpus=args.gpus,
        measured_by=args.measured_by,
        gpu_model=args.gpu_model,
        precision=args.precision,
        kv_cache_precision=args.kv_cache_precision,
        pipeline_parallel=args.pipeline_parallel,
        expert_parallel=args.expert_parallel,
        engine_version=args.engine_version,
        engine=args.engine,
        prompt_tokens=args.prompt_tokens,
        batch=args.batch,
        system_gpus=args.system_gpus,
        model_active_params_billions=args.model_billions,
        model=args.model,
    )


def run_parse(args: argparse.Namespace) -> int:
    from clusterbid.operations.serving_evidence import read_serving_file

    try:
        reading = read_serving_file(Path(args.file), _options(args))
    except InputError as exc:
        return _fail(str(exc))
    run, evidence = reading.run, reading.evidence
    if args.json:
        print(json.dumps(evidence.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return EXIT_OK
    print(f"{args.file}: {run.engine} serving benchmark")
    print(f"  {evidence.description}")
    grade = grade_words(evidence.grade, evidence.measured_by)
    digest = evidence.artefact_sha256 or ""  # always set for a file read here; typed optional
    print(f"  {grade}, sha256 {digest[:12]}...")
    return EXIT_OK


def run_attach(args: argparse.Namespace) -> int:
    """Parse first; a file that reads cleanly is stored with the bid's new evidence in one
    transaction (operations/serving_evidence.py, as the serving window attaches it)."""
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.operations.serving_evidence import attach_serving_evidence, flag_decision

    path = Path(args.file)
    try:
        options = _options(args)
        with EvaluationDocument.open(args.document, user=args.user) as document:
            attached = attach_serving_evidence(
                document, args.bid_id, path, options, use_above_model=args.use_above_model
            )
    except InputError as exc:
        return _fail(str(exc))
    evidence = attached.evidence
    print(f"Attached {path.name} to bid {args.bid_id} in {args.document}: {evidence.description}")
    if attached.flag:
        decided = flag_decision(
            attached, "not used until you record a reason (--use-above-model REASON)"
        )
        print(f"Flagged: {attached.flag}. Decision: {decided}")
    for note in attached.notes:
        print(f"Note: {note}")
    if attached.request:
        print(attached.request)
    return EXIT_OK


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of GPUs >= 1, not {text!r}")
    return int(text)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--gpus",
        type=_positive_int,
        required=True,
        metavar="N",
        help="GPUs of the one replica the benchmark ran on (its tensor-parallel size)",
    )
    parser.add_argument(
        "--measured-by",
        choices=("buyer", "third_party", "provider"),
        default="provider",
        help="who ran the benchmark (default: provider)",
    )
    # Issue 37: what the run was, where the file does not say; the calibration solves at this shape.
    _add_run_context(parser.add_argument_group("the run, where the file does not say"))


def _add_engine(run: argparse._ArgumentGroup) -> None:
    run.add_argument("--engine-version", metavar="VERSION", help="the serving engine's version")
    run.add_argument(
        "--engine",
        metavar="NAME",
        help="the serving engine the run used, when the file names none (MLPerf, GenAI-Perf, "
        'LLMPerf): e.g. "TensorRT-LLM" or "vLLM"',
    )


def _add_run_context(run: argparse._ArgumentGroup) -> None:
    run.add_argument(
        "--gpu-model", metavar="GPU", help="catalog id of the GPU the run used (e.g. H100-SXM)"
    )
    run.add_argument(
        "--precision", choices=("bf16", "fp8"), help="weight and matmul precision of the run"
    )
    run.add_argument(
        "--kv-cache-precision", choices=("bf16", "fp8"), help="KV cache precision of the run"
    )
    run.add_argument(
        "--pipeline-parallel",
        type=_positive_int,
        metavar="N",
        help="pipeline stages of the replica",
    )
    run.add_argument(
        "--expert-parallel", type=_positive_int, metavar="N", help="expert parallelism of the run"
    )
    _add_engine(run)
    run.add_argument(
        "--prompt-tokens", type=_positive_int, metavar="N", help="mean prompt tokens of the run"
    )
    run.add_argument(
        "--batch",
        type=_positive_int,
        metavar="N",
        help="sequences one replica ran at once (needed when the file gives no time per token)",
    )
    run.add_argument(
        "--system-gpus",
        type=_positive_int,
        metavar="N",
        help="GPUs a whole-system figure was measured on (MLPerf summaries)",
    )
    run.add_argument(
        "--model-billions",
        type=float,
        metavar="B",
        help="active parameters of the model the run served, in billions, when it is not the "
        "service's (a 70B benchmark offered for an 8B service)",
    )
    run.add_argument(
        "--model",
        metavar="NAME",
        help="the model the run served, by name (Llama-3.1-70B; resources/catalog/models.toml "
        "lists them): its KV cache per token and weights carry the engine factor to the "
        "service's model; unstated, the model the file names",
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serving = subparsers.add_parser(
        "serving-evidence",
        help="read serving benchmarks (vLLM, SGLang, GenAI-Perf, LLMPerf, trtllm-bench, MLPerf)",
    )
    verbs = serving.add_subparsers(dest="serving_evidence_verb", metavar="ACTION", required=True)
    parse = verbs.add_parser(
        "parse",
        help="print the serving evidence a benchmark file yields",
        description="Exit 2 with the file, line and problem when it cannot be read.",
    )
    parse.add_argument("file", metavar="FILE")
    parse.add_argument("--json", action="store_true", help="print the evidence as JSON")
    _add_run_options(parse)
    parse.set_defaults(func=run_parse)
    attach = verbs.add_parser(
        "attach",
        help="attach a serving benchmark, with its evidence, to a bid",
        description="Parse FILE; if it reads cleanly, store it in DOCUMENT and add its evidence "
        "to BID_ID in one transaction. A file that fails to parse changes nothing.",
    )
    attach.add_argument("document", type=Path, metavar="DOCUMENT", help="a .clusterbid document")
    attach.add_argument("bid_id", metavar="BID_ID")
    attach.add_argument("file", metavar="FILE")
    attach.add_argument(
        "--user", default=None, help="name recorded in the audit trail (default: your login name)"
    )
    attach.add_argument(
        "--use-above-model",
        metavar="REASON",
        default=None,
        help="use a figure that reads above the model's ceiling for this bid, for the reason given "
        "(recorded with the evidence)",
    )
    _add_run_options(attach)
    attach.set_defaults(func=run_attach)
