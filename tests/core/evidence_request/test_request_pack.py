"""The request-for-evidence pack on the demo: the nccl-tests command lines parse as
all_reduce_perf's own options, and the pack asks for what the app can read back."""

from __future__ import annotations

import getopt
import json
import re
import shlex
from pathlib import Path

import pytest

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evidence_request.model import RequestPack

# all_reduce_perf's options as NVIDIA/nccl-tests declares them in src/common.cu (commit a0b82b2,
# July 2026): the getopt_long short-option string and the long names of `longopts`.
SHORT = "t:g:b:e:i:f:n:m:w:N:p:I:K:c:o:d:r:z:y:T:hG:C:a:R:x:D:V:J:S:M:u:"
LONG = [
    "nthreads=",
    "ngpus=",
    "minbytes=",
    "maxbytes=",
    "stepbytes=",
    "stepfactor=",
    "iters=",
    "agg_iters=",
    "warmup_iters=",
    "run_cycles=",
    "parallel_init=",
    "check=",
    "op=",
    "datatype=",
    "root=",
    "blocking=",
    "stream_null=",
    "timeout=",
    "cudagraph=",
    "report_cputime=",
    "report_timestamps=",
    "output_file=",
    "average=",
    "local_register=",
    "cta_policy=",
    "device_implementation=",
    "device_cta_count=",
    "memory=",
    "unalign=",
    "per_iter_timing=",
    "per_iter_skip=",
    "help",
]
PUBLIC_LOG = (
    Path(__file__).parents[2] / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"
)


def parsesize(text: str) -> float:
    """src/common.cu parsesize(): a number with an optional K/M/G suffix (powers of 1024)."""
    match = re.fullmatch(r"([0-9.]+)\s*([KkMmGg]?)", text)
    assert match, f"{text!r} is not a size all_reduce_perf reads"
    return (
        float(match.group(1)) * {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}[match.group(2).lower()]
    )


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> RequestPack:
    folder = tmp_path_factory.mktemp("pack")
    demo = folder / "demo.json"
    demo.write_text(demo_evaluation().model_dump_json(), encoding="utf-8")
    assert (
        main(
            [
                "request-evidence",
                str(demo),
                "--bid",
                "cumulus-roce",
                "-o",
                str(folder / "out"),
                "--issued-on",
                "2026-11-02",
                "--deadline",
                "2026-11-16",
                "--samples",
                "4000",
            ]
        )
        == 0
    )
    written = sorted((folder / "out").iterdir())
    assert [p.name for p in written] == [
        "cumulus-roce-evidence-request-2026-11-02.json",
        "cumulus-roce-evidence-request-2026-11-02.md",
    ]
    markdown = written[1].read_text(encoding="utf-8")
    parsed = RequestPack.model_validate(json.loads(written[0].read_text(encoding="utf-8")))
    for request in parsed.requests:  # the provider's document carries every id and command
        assert request.request_id in markdown
        assert all(
            run.command_line() in markdown and run.return_as in markdown for run in request.runs
        )
    assert (
        "2026-11-16" in markdown and "northwind" not in markdown.lower()
    )  # no rival named to a provider
    return parsed


def test_nccl_command_lines_parse_as_all_reduce_perfs_options(pack):
    bid = next(b for b in demo_evaluation().bids if b.id == "cumulus-roce")
    nccl = next(r for r in pack.requests if r.input == "busbw")
    assert nccl.runs, "the busbw request must say what to run"
    for run in nccl.runs:
        words = shlex.split(run.command_line())
        program = next(i for i, w in enumerate(words) if w.endswith("/all_reduce_perf"))
        options, rest = getopt.gnu_getopt(
            words[program + 1 :], SHORT, LONG
        )  # raises on an unknown option
        assert rest == []
        given = dict(options)
        assert given["-g"] == "1"  # one GPU per MPI rank
        low, high, factor = parsesize(given["-b"]), parsesize(given["-e"]), int(given["-f"])
        sizes = [low * factor**k for k in range(64) if low * factor**k <= high]
        assert (
            sum(s >= 2**30 for s in sizes) >= 2
        )  # the plateau the app reads needs sizes of 1 GiB and up
        launcher = words[words.index("mpirun") : program]
        assert (
            launcher[launcher.index("-np") + 1]
            == str(run.gpus)
            == str(run.nodes * bid.capacity.gpus_per_node)
        )
        assert run.environment["NCCL_DEBUG"] == "INFO" and run.return_as.startswith(
            nccl.request_id + "_"
        )
    algos = {(run.nodes, run.environment.get("NCCL_ALGO")) for run in nccl.runs}
    block_nodes = bid.capacity.largest_contiguous_block_gpus // bid.capacity.gpus_per_node
    assert algos == {
        (n, a) for n in {2, block_nodes} for a in ("Ring", None)
    }  # Ring and the default


def test_the_sizes_mean_what_the_tool_printed_for_them():
    """The public log ran all_reduce_perf with the same -b/-e/-f/-g; the header it printed is the
    tool's own reading of them: minBytes 8 maxBytes 8589934592, factor 2, 1 GPU per rank."""
    text = PUBLIC_LOG.read_text(encoding="utf-8")
    assert "all_reduce_perf -b 8 -e 8G -f 2 -g 1" in text
    header = re.search(r"nGpus (\d+) minBytes (\d+) maxBytes (\d+) step: (\d+)\(factor\)", text)
    assert header.groups() == ("1", str(int(parsesize("8"))), str(int(parsesize("8G"))), "2")


def test_the_training_request_states_the_workload_and_a_scale(pack):
    w = demo_evaluation().workload
    training = next(r for r in pack.requests if r.input == "baseline_mfu")
    text = " ".join(training.instructions)
    for fact in (
        f"sequence length {w.sequence_length:,}",
        f"TP {w.tensor_parallel}",
        f"PP {w.pipeline_parallel}",
        w.precision,
        f"{w.global_batch_tokens:,} tokens",
    ):
        assert fact in text
    assert f"{training.request_id}_throughput.csv" in text and training.formats == [
        "throughput-csv",
        "throughput-json",
    ]


def test_refusals(tmp_path, capsys):
    demo = tmp_path / "demo.json"
    demo.write_text(demo_evaluation().model_dump_json(), encoding="utf-8")
    assert main(["request-evidence", str(demo), "--bid", "nobody", "-o", str(tmp_path / "o")]) == 2
    assert "--bid 'nobody': no such bid" in capsys.readouterr().err
    assert (
        main(
            [
                "request-evidence",
                str(demo),
                "--bid",
                "cumulus-roce",
                "-o",
                str(tmp_path / "o"),
                "--issued-on",
                "2026-11-02",
                "--deadline",
                "2026-11-01",
            ]
        )
        == 2
    )
    assert "must come after the day of issue" in capsys.readouterr().err
    assert main(["request-evidence", str(demo), "--status"]) == 2
    assert "live in a .clusterbid document" in capsys.readouterr().err
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_a_gated_bid_gets_its_pack_but_no_value(tmp_path, capsys):
    demo = tmp_path / "demo.json"
    evaluation = demo_evaluation()
    demo.write_text(evaluation.model_dump_json(), encoding="utf-8")
    from clusterbid.core.scoring import score_evaluation

    gated = next(s.bid.id for s in score_evaluation(evaluation).scores if s.rank is None)
    assert (
        main(
            [
                "request-evidence",
                str(demo),
                "--bid",
                gated,
                "-o",
                str(tmp_path / "o"),
                "--samples",
                "2000",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert f"{gated} fails a gate, so the Monte Carlo does not sample it" in out
    assert len(list((tmp_path / "o").iterdir())) == 2


def test_a_bid_that_states_no_reliability_figures_gets_a_pack_that_says_so(tmp_path):
    """Unstated figures are None in the bid: the pack asks for them and names the default it used,
    never "the bid states 72" (and before this it failed on the missing number)."""
    data = demo_evaluation().model_dump(mode="json")
    bid = data["bids"][0]
    for name in ("failures_per_1000_gpu_days", "node_replacement_hours", "uptime_sla_percent"):
        bid["reliability"][name] = None
        bid["provenance"].pop(f"reliability.{name}", None)
    source = tmp_path / "unstated.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "pack"
    assert (
        main(
            [
                "request-evidence",
                str(source),
                "--bid",
                bid["id"],
                "-o",
                str(out),
                "--samples",
                "2000",
            ]
        )
        == 0
    )
    questions = json.loads(next(out.glob("*.json")).read_text(encoding="utf-8"))["questions"]
    # The documented defaults, the cautious ends of their ranges (issue 31): 2.6 per 1,000
    # GPU-days (0.2-2.6), 72 h (4-72), 95% (95-99.9).
    assert "the bid does not state it; we assumed 2.6, not stated (default used)" in questions[0]
    assert "the bid does not state it; we assumed 72 hours" in questions[1]
    assert "the bid does not state it; we assumed 95%" in questions[2]
    assert not any("the bid states" in q for q in questions)
