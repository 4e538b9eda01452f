"""CLI verbs over evidence files: `evidence parse FILE` and `evidence attach DOC BID FILE` (wired in by cli.py)."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.evidence.formats import format_names, format_spec
from clusterbid.core.evidence.nccl_result import size_text
from clusterbid.core.evidence.provenance import MEASURERS
from clusterbid.core.evidence.reading import EvidenceReading, FabricClaim, reading_to_json
from clusterbid.core.evidence.throughput import recipe_words

EXIT_OK, EXIT_INPUT = 0, 2


def _fail(message: str) -> int:
    print(f"clusterbid: error: {message}", file=sys.stderr)
    return EXIT_INPUT


_size = size_text


def _read(
    path: Path,
    args: argparse.Namespace,
    fabric: FabricClaim | None = None,
    data: bytes | None = None,
) -> EvidenceReading:
    from clusterbid.operations.evidence_attach import read_evidence_file

    return read_evidence_file(path, _options(args), fabric, data)


def _options(args: argparse.Namespace):
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


def _nccl_lines(reading: EvidenceReading) -> list[str]:
    lines = []
    for index, run in enumerate(reading.nccl_runs, start=reading.first_run_number):
        where = f" (line {run.first_line})" if run.first_line else ""
        setup = ", ".join(filter(None, [
            run.collective or "collective unknown",
            " ".join(filter(None, [run.data_type, run.redop])) or None,
            f"{run.ranks} ranks" if run.ranks else "ranks unknown",
            f"{len(run.hosts)} hosts ({', '.join(run.hosts)})" if run.hosts else None,
            run.gpu_model,
        ]))  # fmt: skip
        sizes = (
            f" from {_size(run.rows[0].size_bytes)} to {_size(run.rows[-1].size_bytes)}"
            if run.rows
            else ""
        )
        lines.append(f"Run {index}{where}: {setup}; {len(run.rows)} size rows{sizes}")
        if run.plateau is not None:
            lines.append(
                f"  busbw {'plateau' if run.plateau.saturated else 'lower bound'}: "
                f"{run.plateau.describe()}"
            )
        else:
            lines.append("  busbw plateau: none (no size row with busbw above 0)")
        if run.topology is not None:
            lines.append(
                f"  NCCL INFO ({run.topology.info_lines} lines): {run.topology.describe()}"
            )
        lines += _curve_lines(run)
        if run.avg_busbw_line_gb_s is not None:
            lines.append(
                f"  '# Avg bus bandwidth' line: {run.avg_busbw_line_gb_s:g} GB/s (a note only: it "
                "averages every size)"
            )
    return lines


def _curve_lines(run) -> list[str]:
    """The per-size curve, always: a sweep that never saturates is judged by its shape."""
    titles = ("oop time us", "algbw", "busbw", "ip time us", "algbw", "busbw")
    lines = [
        "    "
        + f"{'size':>9}"
        + "".join(f" {t:>12}" if "time" in t else f" {t:>8}" for t in titles)
    ]
    for row in run.rows:
        o, i = row.out_of_place, row.in_place
        lines.append(
            f"    {_size(row.size_bytes):>9} {o.time_us:>12g} {o.algbw_gb_s:>8g} "
            f"{o.busbw_gb_s:>8g} "
            f"{i.time_us:>12g} {i.algbw_gb_s:>8g} {i.busbw_gb_s:>8g}"
        )
    return lines


def _throughput_lines(reading: EvidenceReading) -> list[str]:
    assert reading.throughput is not None
    lines = [f"{len(reading.throughput.results)} row(s):"]
    for r in reading.throughput.results:
        row = r.row
        where = f"line {row.line}" if row.line else "row"
        tokens = f"{r.tokens_per_second:,.0f} tokens/s, " if r.tokens_per_second else ""
        lines.append(
            f"  {where}: {row.model} ({row.active_params_b:g}B active, {row.precision}, seq "
            f"{row.sequence_length}), "
            f"TP{row.tp} PP{row.pp}{f' CP{row.cp}' if row.cp > 1 else ''} DP{row.dp} on {row.gpus} "
            f"{row.gpu_model}{recipe_words(row)}: "
            f"{tokens}MFU {r.mfu:.2%} [{r.mfu_method}]"
        )
    return lines


def _scaling_lines(reading: EvidenceReading, job_gpus: int | None) -> list[str]:
    table = reading.scaling
    assert table is not None
    s, fit = table.setup, table.fit
    lines = [
        f"{s.model} ({s.active_params_b:g}B active, {s.precision}) on {s.gpu_model}, {fit.points} "
        "sizes:",
        f"  {'GPUs':>8} {'tokens/s':>14} {'MFU':>7} {'efficiency':>11} {'fitted':>7}",
    ]
    for p in table.points:
        lines.append(
            f"  {p.gpus:>8,} {p.tokens_per_second:>14,.0f} {p.mfu:>7.2%} {p.efficiency:>11.1%} "
            f"{p.fitted_efficiency:>7.1%}"
        )
    lines.append(
        f"Fit: tokens/s = {fit.coefficient:.4g} x N^{fit.exponent:.4f}; RMS relative residual "
        f"{fit.rms_relative_error:.2%} "
        f"(efficiency relative to {fit.base_gpus} GPUs)"
    )
    if job_gpus is not None:
        ex = table.extrapolate(job_gpus)
        lines.append(
            f"At the job size, {job_gpus:,} GPUs: {ex.tokens_per_second:,.0f} tokens/s, efficiency "
            f"{ex.efficiency:.1%}, "
            f"MFU {table.mfu_at(job_gpus):.2%}"
        )
        if ex.warning:
            lines.append(f"  WARNING: {ex.warning}")
    return lines


def _evidence_lines(reading: EvidenceReading) -> list[str]:
    lines = ["Evidence (the file is the raw artefact, sha256 " + reading.sha256[:16] + "...):"]
    for item in reading.evidence:
        date = item.measured_on.isoformat() if item.measured_on else "date not given"
        lines.append(
            f"  {item.kind.value} {item.value:g} {item.unit} at {item.scale_gpus:,} GPUs: grade "
            f"{item.grade.value} "
            f"(measured by {item.measured_by}, {date})"
        )
    if not reading.evidence:
        lines.append("  none usable by the cost model")
    return lines


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
        lines += _nccl_lines(reading)
    elif reading.throughput is not None:
        lines += _throughput_lines(reading)
    else:
        lines += _scaling_lines(reading, args.job_gpus)
    flags = reading.flags()
    lines.append("Flags: none" if not flags else "Flags:")
    lines += [f"  [{flag.code}] {flag.message}" for flag in flags]
    lines += [f"Note: {note}" for note in reading.notes]
    lines += _evidence_lines(reading)
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
    print("\n".join(_evidence_lines(reading)[1:]))
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
    parser.add_argument(
        "--run",
        type=_positive_int,
        default=None,
        metavar="N",
        help="use only run N of a file holding several (numbered as 'evidence parse' lists them)",
    )


def register(subparsers: argparse._SubParsersAction) -> None:
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
