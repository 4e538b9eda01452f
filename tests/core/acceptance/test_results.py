"""Files returned after handover, matched to the acceptance plan's tests by name and read by the
evidence readers: a real nccl-tests log above the demo winner's 2-node threshold passes, the same
log below a faster fabric's threshold fails and shows the remedy owed; the what-if re-score is
recorded in the audit trail and never changes the bid's claims."""

from __future__ import annotations

import shutil
from pathlib import Path

from clusterbid.cli import main
from clusterbid.core.bid import Bid
from clusterbid.core.store import EvaluationDocument

DATA = Path(__file__).parents[2] / "data" / "nccl-tests"
PUBLIC_LOG = DATA / "public" / "all_reduce_2x8xH100_tcpxo.log"
# The public log's largest busbw at 1 GiB and above, read off its rows by eye: 8 GiB out of place.
PUBLIC_PLATEAU = 338.82


def _demo(tmp_path: Path, capsys, xdr: bool = False) -> Path:
    document = tmp_path / "demo.clusterbid"
    assert main(["demo", str(document)]) == 0
    if xdr:  # the winner's fabric at twice the port rate: 8 x 800 Gb/s XDR
        with EvaluationDocument.open(document) as doc:
            old = doc.evaluation.bids[0]
            fields = {name: getattr(old, name) for name in Bid.model_fields}
            fabric = old.fabric.model_copy(
                update={"technology": "IB-XDR800", "nic_line_rate_gbit_s": 800.0}
            )
            doc.replace_bid(old.id, Bid.model_validate({**fields, "fabric": fabric}))
    assert (
        main(
            [
                "acceptance-plan",
                str(document),
                "--bid",
                "northwind-ib",
                "-o",
                str(tmp_path / "annex"),
                "--issued-on",
                "2026-11-20",
            ]
        )
        == 0
    )
    capsys.readouterr()
    return document


def _returned(tmp_path: Path, source: Path, name: str) -> Path:
    path = tmp_path / "returned" / name
    path.parent.mkdir(exist_ok=True)
    shutil.copyfile(source, path)
    return path


def test_the_public_log_passes_the_demo_winners_two_node_test_by_a_hand_computed_margin(
    tmp_path, capsys
):
    document = _demo(tmp_path, capsys)
    log = _returned(tmp_path, PUBLIC_LOG, "ACC-busbw-2nodes_allreduce_default.log")
    assert main(["acceptance-status", str(document), "--attach", str(log)]) == 0
    out = capsys.readouterr().out
    threshold = 0.9 * 8 * 400 / 8 * 0.94  # 90% of 8 NICs x 400 Gb/s at NDR400's 0.94: 338.4 GB/s
    assert threshold <= PUBLIC_PLATEAU
    assert f"passed, measured {PUBLIC_PLATEAU:g} GB/s (pass at least {threshold:g} GB/s)" in out
    assert "ACC-busbw-job-block" in out and "missing: nothing returned yet" in out


def test_the_public_log_below_a_faster_fabrics_threshold_fails_and_shows_the_remedy(
    tmp_path, capsys
):
    document = _demo(tmp_path, capsys, xdr=True)
    with EvaluationDocument.open(document) as doc:
        claims_before = doc.evaluation.bids[0].model_dump()
    log = _returned(tmp_path, PUBLIC_LOG, "ACC-busbw-2nodes_allreduce_ring.log")
    assert main(["acceptance-status", str(document), "--attach", str(log), "--what-if"]) == 0
    out = capsys.readouterr().out
    threshold = 0.9 * 8 * 800 / 8 * 0.94  # 676.8 GB/s
    assert threshold > PUBLIC_PLATEAU
    assert f"failed, measured {PUBLIC_PLATEAU:g} GB/s (pass at least {threshold:g} GB/s)" in out
    assert "remedy owed: not stated in the bid: negotiate it before signature" in out
    assert (
        "What-if with the measured figures (all-reduce bus bandwidth 338.82 GB/s on 16 GPUs)" in out
    )
    with EvaluationDocument.open(document) as doc:
        assert (
            doc.evaluation.bids[0].model_dump() == claims_before
        )  # the claims that won are untouched
        names = [i.name for i in doc.artefacts()]
        rows = [
            r
            for r in doc.audit_rows()
            if r.new_json and "acceptance-what-if-northwind-ib" in r.new_json
        ]
    assert "ACC-busbw-2nodes_allreduce_ring.log" in names
    assert len(rows) == 1  # the what-if is one audited row, not an edit of the bid


def test_a_log_at_another_scale_is_named_and_not_counted(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    log = _returned(tmp_path, PUBLIC_LOG, "ACC-busbw-job-block_allreduce_default.log")
    assert main(["acceptance-status", str(document), "--attach", str(log)]) == 0
    out = capsys.readouterr().out
    assert "ran on 16 GPUs; the test asks 512: not counted" in out
    line = next(x for x in out.splitlines() if x.startswith("ACC-busbw-job-block"))
    assert "missing" in line


def test_a_file_that_names_no_test_or_the_wrong_format_is_refused_and_nothing_is_kept(
    tmp_path, capsys
):
    document = _demo(tmp_path, capsys)
    good = _returned(tmp_path, PUBLIC_LOG, "ACC-busbw-2nodes_allreduce_default.log")
    stray = _returned(tmp_path, PUBLIC_LOG, "results.log")
    assert main(["acceptance-status", str(document), "--attach", str(good), str(stray)]) == 2
    err = capsys.readouterr().err
    assert (
        "results.log: the name does not begin with a test id" in err
        and "nothing was attached" in err
    )
    csv = (
        Path(__file__).parents[3]
        / "resources"
        / "examples"
        / "evidence"
        / "training-throughput.csv"
    )
    wrong = _returned(tmp_path, csv, "ACC-busbw-2nodes_results.csv")
    assert main(["acceptance-status", str(document), "--attach", str(wrong)]) == 2
    assert (
        "read as throughput-csv, but test ACC-busbw-2nodes reads nccl-text, nccl-json"
        in capsys.readouterr().err
    )
    with EvaluationDocument.open(document) as doc:
        assert not [i for i in doc.artefacts() if i.name.startswith("ACC-")]


def test_a_recorded_failure_of_a_test_without_a_file_shows_the_remedy(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    assert (
        main(
            [
                "acceptance-status",
                str(document),
                "--record",
                "ACC-replacement",
                "--outcome",
                "fail",
                "--measured",
                "9.5",
                "--note",
                "node drained at 10:00, replacement healthy at 19:30",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("ACC-replacement"))
    assert "failed, measured 9.5 hours (pass at most 4 hours)" in line
    assert "remedy owed: not stated in the bid" in out
    assert (
        main(
            [
                "acceptance-status",
                str(document),
                "--record",
                "ACC-busbw-2nodes",
                "--outcome",
                "pass",
                "--note",
                "looked fine",
            ]
        )
        == 2
    )
    assert "this test is judged from its returned files" in capsys.readouterr().err


HEADER = (
    "model,active_params_b,precision,sequence_length,tp,pp,dp,gpus,tokens_per_second,step_time_s,"
    "global_batch_tokens,gpu_model,measured_by,measured_on\n"
)


def test_the_reference_step_time_is_judged_at_the_workloads_layout_only(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    with EvaluationDocument.open(document) as doc:
        from clusterbid.core.acceptance.export import kept_plan

        threshold = kept_plan(doc, "northwind-ib").test("ACC-step-time").threshold
    # The demo workload: 70B, TP 8, PP 4, DP 16 on 512 H100, sequence 4,096, 4,194,304 tokens a step.
    slow = tmp_path / "ACC-step-time_throughput.csv"
    slow.write_text(
        HEADER + f"llama-70b,70,bf16,4096,8,4,16,512,,{threshold + 0.5:.3f},4194304,H100-SXM,buyer,"
        "2026-11-20\n"
        "llama-70b,70,bf16,8192,8,4,16,512,,9.0,4194304,H100-SXM,buyer,2026-11-20\n",
        encoding="utf-8",
    )
    assert main(["acceptance-status", str(document), "--attach", str(slow)]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("ACC-step-time"))
    # The 9 s row ran at sequence 8,192: not the workload's shape, so only the slow row counts.
    assert f"failed, measured {float(f'{threshold + 0.5:.3f}'):.6g} s" in line
    assert "ran at sequence length 8,192 (the test asks 4,096): not counted" in out


def test_the_handover_test_fails_once_the_date_passes_with_tests_not_passed(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    log = _returned(tmp_path, PUBLIC_LOG, "ACC-busbw-2nodes_allreduce_default.log")
    assert (
        main(["acceptance-status", str(document), "--attach", str(log), "--today", "2027-01-15"])
        == 0
    )
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("ACC-handover"))
    assert "missing" in line  # the demo winner's stated handover day: still time
    assert main(["acceptance-status", str(document), "--today", "2027-01-16"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("ACC-handover"))
    assert ": failed" in line and "(pass: the certificate dated on or before 2027-01-15)" in line
    # Of the nine tests, the 2-node run passed; the other seven besides the handover had not.
    assert "by 2027-01-15 7 test(s) had not passed" in out
