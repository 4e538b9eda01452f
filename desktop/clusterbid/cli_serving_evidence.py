"""CLI verbs over serving benchmark output: `serving-evidence parse FILE` and
`serving-evidence attach DOCUMENT BID_ID FILE` (wired in by cli.py; formats in
resources/evidence-formats.md, "Serving benchmarks")."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from clusterbid.core.errors import InputError

EXIT_OK, EXIT_INPUT = 0, 2
MAX_BYTES = 32 * 1024 * 1024


def _fail(message: str) -> int:
    print(f"clusterbid: error: {message}", file=sys.stderr)
    return EXIT_INPUT


def _read(path: Path, args: argparse.Namespace):
    """(raw bytes, the run, the evidence it yields), or InputError naming the file and problem."""
    from clusterbid.core.evidence.serving_readers import read_serving_benchmark, serving_evidence
    from clusterbid.core.evidence.serving_run import RunContext

    try:
        from clusterbid.core.safe_read import read_regular

        data = read_regular(path, MAX_BYTES)  # devices and FIFOs refused before any read
        if len(data) > MAX_BYTES:
            raise InputError(f"{path}: larger than {MAX_BYTES // 2**20} MiB: not one serving benchmark run")
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text; give the benchmark's JSON or its printed report") from None
    run = read_serving_benchmark(text, str(path))
    if args.gpu_model is not None:
        from clusterbid.core.catalog import default_catalog

        known = default_catalog().gpus
        if args.gpu_model not in known:
            raise InputError(f"--gpu-model {args.gpu_model[:40]!r} is not in the catalog; give one of: {', '.join(known)}")
    context = RunContext(
        gpu_model=args.gpu_model, precision=args.precision, kv_cache_precision=args.kv_cache_precision,
        pipeline_parallel=args.pipeline_parallel, expert_parallel=args.expert_parallel,
        engine_version=args.engine_version, prompt_tokens=args.prompt_tokens, batch=args.batch,
        system_gpus=args.system_gpus,
    )
    return data, run, serving_evidence(run, args.gpus, args.measured_by, path.name, data, context)


def run_parse(args: argparse.Namespace) -> int:
    try:
        _, run, evidence = _read(Path(args.file), args)
    except InputError as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(evidence.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return EXIT_OK
    print(f"{args.file}: {run.engine} serving benchmark")
    print(f"  {evidence.description}")
    print(f"  grade {evidence.grade.value}, sha256 {evidence.artefact_sha256[:12]}...")
    return EXIT_OK


def run_attach(args: argparse.Namespace) -> int:
    """Parse first; a file that reads cleanly is stored with the bid's new evidence in one transaction."""
    from clusterbid.core.evidence.serving_readers import run_findings
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.core.workloads import is_serving

    path = Path(args.file)
    try:
        data, run, evidence = _read(path, args)
        with EvaluationDocument.open(args.document, user=args.user) as document:
            evidence, flag = _flagged(document.evaluation, args.bid_id, evidence, args.use_above_model)
            media_type = "application/json" if data.lstrip().startswith(b"{") else "text/plain"
            evaluation = document.attach_evidence(args.bid_id, path.name, data, [evidence], media_type=media_type)
    except InputError as exc:
        return _fail(str(exc))
    print(f"Attached {path.name} to bid {args.bid_id} in {args.document}: {evidence.description}")
    if flag:
        decided = (f"used, for the reason recorded: {evidence.suspect_override}" if evidence.suspect_override
                   else "not used until you record a reason (--use-above-model REASON)")
        print(f"Flagged: {flag}. Decision: {decided}")
    if is_serving(evaluation):
        w = evaluation.workload
        for note in run_findings(run, w.prompt_tokens, w.output_tokens, w.tpot_target_ms):
            print(f"Note: {note}")
    return EXIT_OK


def _flagged(evaluation, bid_id: str, evidence, reason: str | None):
    """(the evidence, with its flag and the officer's reason where it reads above the model's
    ceiling for this bid and workload; the flag in words or None). Issue 37: never refused."""
    from clusterbid.core.catalog import default_catalog
    from clusterbid.core.costmodel.serving_flagged import ceiling_flag
    from clusterbid.core.evidence.model import Evidence
    from clusterbid.core.workloads import is_serving

    bid = next((b for b in evaluation.bids if b.id == bid_id), None)
    if bid is None or not is_serving(evaluation):
        return evidence, None  # the store names a missing bid; training documents have no ceiling here
    flag = ceiling_flag(evaluation.workload, bid, evidence, default_catalog())
    if flag is None:
        return evidence, None
    changes = {"suspect": flag[:1000], "suspect_override": reason[:500] if reason else None}
    return Evidence.model_validate(evidence.model_dump() | changes), flag


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of GPUs >= 1, not {text!r}")
    return int(text)


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gpus", type=_positive_int, required=True, metavar="N",
                        help="GPUs of the one replica the benchmark ran on (its tensor-parallel size)")
    parser.add_argument("--measured-by", choices=("buyer", "third_party", "provider"), default="provider",
                        help="who ran the benchmark (default: provider)")
    # Issue 37: what the run was, where the file does not say; the calibration solves at this shape.
    run = parser.add_argument_group("the run, where the file does not say")
    run.add_argument("--gpu-model", metavar="GPU", help="catalog id of the GPU the run used (e.g. H100-SXM)")
    run.add_argument("--precision", choices=("bf16", "fp8"), help="weight and matmul precision of the run")
    run.add_argument("--kv-cache-precision", choices=("bf16", "fp8"), help="KV cache precision of the run")
    run.add_argument("--pipeline-parallel", type=_positive_int, metavar="N", help="pipeline stages of the replica")
    run.add_argument("--expert-parallel", type=_positive_int, metavar="N", help="expert parallelism of the run")
    run.add_argument("--engine-version", metavar="VERSION", help="the serving engine's version")
    run.add_argument("--prompt-tokens", type=_positive_int, metavar="N", help="mean prompt tokens of the run")
    run.add_argument("--batch", type=_positive_int, metavar="N",
                     help="sequences one replica ran at once (needed when the file gives no time per token)")
    run.add_argument("--system-gpus", type=_positive_int, metavar="N",
                     help="GPUs a whole-system figure was measured on (MLPerf summaries)")


def register(subparsers: argparse._SubParsersAction) -> None:
    serving = subparsers.add_parser("serving-evidence", help="read serving benchmarks (vLLM, SGLang, GenAI-Perf, LLMPerf, trtllm-bench, MLPerf)")
    verbs = serving.add_subparsers(dest="serving_evidence_verb", metavar="ACTION", required=True)
    parse = verbs.add_parser("parse", help="print the serving evidence a benchmark file yields",
                             description="Exit 2 with the file, line and problem when it cannot be read.")
    parse.add_argument("file", metavar="FILE")
    parse.add_argument("--json", action="store_true", help="print the evidence as JSON")
    _options(parse)
    parse.set_defaults(func=run_parse)
    attach = verbs.add_parser("attach", help="attach a serving benchmark, with its evidence, to a bid",
                              description="Parse FILE; if it reads cleanly, store it in DOCUMENT and add its evidence "
                              "to BID_ID in one transaction. A file that fails to parse changes nothing.")
    attach.add_argument("document", type=Path, metavar="DOCUMENT", help="a .clusterbid document")
    attach.add_argument("bid_id", metavar="BID_ID")
    attach.add_argument("file", metavar="FILE")
    attach.add_argument("--user", default=None, help="name recorded in the audit trail (default: your login name)")
    attach.add_argument("--use-above-model", metavar="REASON", default=None,
                        help="use a figure that reads above the model's ceiling for this bid, for the reason given "
                        "(recorded with the evidence)")
    _options(attach)
    attach.set_defaults(func=run_attach)
