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
    return data, run, serving_evidence(run, args.gpus, args.measured_by, path.name, data)


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
            media_type = "application/json" if data.lstrip().startswith(b"{") else "text/plain"
            evaluation = document.attach_evidence(args.bid_id, path.name, data, [evidence], media_type=media_type)
    except InputError as exc:
        return _fail(str(exc))
    print(f"Attached {path.name} to bid {args.bid_id} in {args.document}: {evidence.description}")
    if is_serving(evaluation):
        w = evaluation.workload
        for note in run_findings(run, w.prompt_tokens, w.output_tokens, w.tpot_target_ms):
            print(f"Note: {note}")
    return EXIT_OK


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of GPUs >= 1, not {text!r}")
    return int(text)


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gpus", type=_positive_int, required=True, metavar="N",
                        help="GPUs of the one replica the benchmark ran on (its tensor-parallel size)")
    parser.add_argument("--measured-by", choices=("buyer", "third_party", "provider"), default="provider",
                        help="who ran the benchmark (default: provider)")


def register(subparsers: argparse._SubParsersAction) -> None:
    serving = subparsers.add_parser("serving-evidence", help="read serving benchmarks (vLLM, GenAI-Perf, trtllm-bench)")
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
    _options(attach)
    attach.set_defaults(func=run_attach)
