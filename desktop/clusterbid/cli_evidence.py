"""CLI verbs over evidence files: `evidence parse FILE` and `evidence attach DOC BID FILE` (wired in by cli.py)."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.cli_evidence_text import evidence_lines, nccl_lines, scaling_lines, throughput_lines
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.formats import format_names, format_spec
from clusterbid.core.evidence.provenance import MEASURERS
from clusterbid.core.evidence.reading import EvidenceReading, FabricClaim, reading_to_json

if TYPE_CHECKING:  # the operation (and what it imports) loads only when a verb runs
    from clusterbid.operations.evidence_attach import ReadingOptions

EXIT_OK, EXIT_INPUT = 0, 2


def _fail(message: str) -> int:
    print(f"clusterbid: error: {message}", file=sys.stderr)
    return EXIT_INPUT


def _read(
    path: Path,
    args: argparse.Namespace,
    fabric: FabricClaim | None = None,
    data: bytes | None = None,
) -> EvidenceReading:
    from clusterbid.operations.evidence_attach import read_evidence_file

    reading: EvidenceReading = read_evidence_file(path, _options(args), fabric, data)
    return reading


def _options(args: argparse.Namespace) -> ReadingOptions:
    from clusterbid.operations.evidence_attach import ReadingOptions

    return ReadingOptions(
        args.format,
        args.measured_by,
        args.measured_on,
        args.nic_aggregate_gb_s,
        args.fabric,
        args.claims_gdr,
        args.nodes,
        args.run,
    )


def run_parse(args: argparse.Namespace) -> int:
    """Print what the file holds, the figure the cost model would use, the flags and the grade."""
    try:
        reading = _read(Path(args.file), args)
    except InputError as exc:
        return _fail(str(exc))
    if args.json:
        out = reading_to_json(reading)
        if reading.scaling is not None and args.job_gpus:
            ex = reading.scaling.extrapolate(args.job_gpus)
            out["extrapolation"] = vars(ex) | {"mfu": reading.scaling.mfu_at(args.job_gpus)}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return EXIT_OK
    lines = [f"{reading.source}: {format_spec(reading.format).words}"]
    if reading.nccl_runs:
        lines += nccl_lines(reading)
    elif reading.throughput is not None:
        lines += throughput_lines(reading)
    else:
        lines += scaling_lines(reading, args.job_gpus)
    flags = reading.flags()
    lines.append("Flags: none" if not flags else "Flags:")
    lines += [f"  [{flag.code}] {flag.message}" for flag in flags]
    lines += [f"Note: {note}" for note in reading.notes]
    lines += evidence_lines(reading)
    print("\n".join(lines))
    return EXIT_OK


def run_attach(args: argparse.Namespace) -> int:
    """Parse first; only a file that yields usable evidence is stored, with the bid, in one transaction."""
    from clusterbid.operations.evidence_attach import attach_evidence
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

    path = Path(args.file)
    try:
        attached = attach_evidence(
            args.document,
            args.bid_id,
            path,
            _options(args),
            no_progress,
            NEVER_CANCELLED,
            use_flagged=args.use_flagged,
            user=args.user,
        )
    except InputError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{path}: cannot be read ({exc.strerror or exc})")
    reading, items, matched = attached.reading, attached.items, attached.matched
    print(
        f"Attached {path.name} to bid {args.bid_id} in {args.document}: {len(reading.evidence)} "
        "evidence item(s)"
    )
    print("\n".join(evidence_lines(reading)[1:]))
    if matched:
        print(matched)
    suspect = [e for e in items if e.suspect and not e.suspect_override]
    if suspect:
        print(
            f"{len(suspect)} figure(s) flagged as suspect are kept out of the cost model (spec "
            "figures used); "
            "to use such a figure, attach the file with --use-flagged REASON (the reason is "
            "recorded with it)"
        )
    flags = reading.flags()
    if flags:
        print(f"{len(flags)} flag(s) to review: run 'clusterbid evidence parse {path}' to see them")
        fabric = [f for f in flags if f.code in ("ran_over_sockets", "gdr_off")]
        print(
            "\n".join(f"  [{f.code}] {f.message}" for f in fabric)
        )  # the bid's own claim is contradicted
    return EXIT_OK


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date as YYYY-MM-DD, not {text!r}") from None


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of GPUs >= 1, not {text!r}")
    return int(text)


def _reading_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=("auto", *format_names()),  # core/evidence/formats.py
        default="auto",
        help="file format (default: detected from the content)",
    )
    parser.add_argument(
        "--measured-by",
        choices=MEASURERS,
        default=None,
        help="who ran an nccl-tests log (default: provider); throughput files name it themselves",
    )
    parser.add_argument(
        "--measured-on",
        type=_date,
        default=None,
        metavar="YYYY-MM-DD",
        help="date of an nccl-tests run",
    )
    _network_check_options(parser)
    parser.add_argument(
        "--run",
        type=_positive_int,
        default=None,
        metavar="N",
        help="use only run N of a file holding several (numbered as 'evidence parse' lists them)",
    )


def _network_check_options(parser: argparse.ArgumentParser) -> None:
    """What the bid offers, to flag a log whose run could not show it (NIC, nodes, fabric, GDR)."""
    parser.add_argument(
        "--nic-aggregate-gb-s",
        type=float,
        default=None,
        metavar="X",
        help="NIC bandwidth per node in GB/s, to flag 2-node busbw above it (Tree/NVLS inflation)",
    )
    parser.add_argument(
        "--nodes",
        type=_positive_int,
        default=None,
        metavar="N",
        help="nodes the run spanned, when the log's rank list and launcher line are silent: for the NIC "
        "check, and (attach) with the bid's GPUs per node as the GPU count of a log without rank "
        "lines, "
        "flagged as such",
    )
    parser.add_argument(
        "--fabric",
        default=None,
        metavar="FABRIC_ID",
        help="catalog fabric the bid offers (e.g. IB-NDR400), to flag a log that ran over TCP sockets "
        "(attach: default the bid's own fabric)",
    )
    parser.add_argument(
        "--claims-gdr",
        action="store_true",
        help="with --fabric: the bid claims GPUDirect RDMA, so a log with it disabled is flagged",
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `evidence parse` and `evidence attach`; each sets `func(args) -> int exit code`."""
    evidence = subparsers.add_parser(
        "evidence", help="read benchmark evidence (nccl-tests, training throughput, scaling)"
    )
    verbs = evidence.add_subparsers(dest="evidence_verb", metavar="ACTION", required=True)
    parse = verbs.add_parser(
        "parse",
        help="print what an evidence file holds, its flags and grade",
        description=(
            "Parse an evidence file; exit 2 with file, line and problem when it cannot be read."
        ),
    )
    parse.add_argument("file", metavar="FILE")
    parse.add_argument("--json", action="store_true", help="print JSON instead of text")
    parse.add_argument(
        "--job-gpus",
        type=_positive_int,
        default=None,
        metavar="N",
        help="extrapolate a scaling table's fit to this job size",
    )
    _reading_options(parse)
    parse.set_defaults(func=run_parse)

    attach = verbs.add_parser(
        "attach",
        help="parse an evidence file and attach it, with its figures, to a bid",
        description="Parse FILE; if it reads cleanly, store it in DOCUMENT and add its evidence to "
        "BID_ID in one transaction. A file that fails to parse changes nothing.",
    )
    attach.add_argument("document", type=Path, metavar="DOCUMENT", help="a .clusterbid document")
    attach.add_argument("bid_id", metavar="BID_ID")
    attach.add_argument("file", metavar="FILE")
    attach.add_argument(
        "--use-flagged",
        default=None,
        metavar="REASON",
        help=(
            "use figures a check flagged as suspect (e.g. above the NIC aggregate); REASON is "
            "recorded"
        ),
    )
    attach.add_argument(
        "--user", default=None, help="name recorded in the audit trail (default: your login name)"
    )
    _reading_options(attach)
    attach.set_defaults(func=run_attach)
