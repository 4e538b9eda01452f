"""The demo winner's acceptance plan worked by hand: each threshold from the figure the
evaluation scored, computed here from the demo's bid sheet and the fabric catalog, not read
back from the code that builds the plan."""

from __future__ import annotations

import datetime as dt
import json
import math
import tomllib
from pathlib import Path

from clusterbid.cli import main
from clusterbid.core.acceptance.build import build_plan
from clusterbid.core.acceptance.thresholds import allowed_failures
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.scoring import score_evaluation

ROOT = Path(__file__).parents[3]
ISSUED = dt.date(2026, 11, 20)


def _demo_bid(bid_id: str) -> dict:
    data = json.loads(
        (ROOT / "resources" / "examples" / "demo-evaluation.json").read_text(encoding="utf-8")
    )
    return next(b for b in data["bids"] if b["id"] == bid_id)


def _efficiency(fabric: str) -> float:
    catalog = tomllib.loads(
        (ROOT / "resources" / "catalog" / "fabrics.toml").read_text(encoding="utf-8")
    )
    return next(f["typical_efficiency"] for f in catalog["fabric"] if f["id"] == fabric)


def test_the_demo_winner_is_northwind_and_its_busbw_thresholds_are_ninety_percent_of_the_scored_figure():
    evaluation = demo_evaluation()
    assert score_evaluation(evaluation).ranked[0].bid.id == "northwind-ib"
    bid = _demo_bid("northwind-ib")
    fabric = bid["fabric"]
    # 8 NICs x 400 Gb/s = 400 GB/s per node, at NDR400's typical 0.94: 376 GB/s (no bid evidence).
    spec = (
        fabric["nics_per_node"]
        * fabric["nic_line_rate_gbit_s"]
        / 8
        * _efficiency(fabric["technology"])
    )
    assert math.isclose(spec, 376.0)
    # SHARP on IB: the data-parallel group spans 512 / (TP 8 x PP 4) = 16 nodes, 2 x 15 / 16 = 1.875.
    assert fabric["sharp"] is True
    scored = spec * 2 * (16 - 1) / 16
    plan = {t.test_id: t for t in build_plan(evaluation, "northwind-ib", ISSUED).tests}
    # A 2-node run gets no SHARP gain: 90% of 376 (the figure was derived from the specs).
    assert math.isclose(plan["ACC-busbw-2nodes"].threshold, 0.9 * spec)
    assert math.isclose(plan["ACC-busbw-2nodes"].threshold, 338.4)
    assert math.isclose(plan["ACC-busbw-job-block"].threshold, 0.9 * scored)  # 634.5
    assert math.isclose(plan["ACC-busbw-whole-cluster"].threshold, 0.9 * scored)
    # 512 GPUs / 8 per node = 64 nodes for the job; 576 / 8 = 72 for the whole cluster.
    assert plan["ACC-busbw-job-block"].runs[0].nodes == 64
    assert plan["ACC-busbw-whole-cluster"].runs[0].nodes == 72
    assert "derived from the specs" in plan["ACC-busbw-2nodes"].threshold_basis
    # The commands are the request packs' own all_reduce_perf arguments.
    assert plan["ACC-busbw-2nodes"].runs[0].arguments[:4] == ["-b", "8", "-e", "8G"]


def test_the_demo_winner_soak_replacement_and_step_time_thresholds_by_hand():
    evaluation = demo_evaluation()
    bid = _demo_bid("northwind-ib")
    plan = {t.test_id: t for t in build_plan(evaluation, "northwind-ib", ISSUED).tests}
    reliability, capacity = bid["reliability"], bid["capacity"]
    # Soak: the stated 24 h burn-in; 0.5 failures per 1,000 GPU-days on 576 GPUs for one day
    # expects 0.288; P(0) = e^-0.288 = 0.750 < 0.95, P(<=1) = 0.750 x 1.288 = 0.966 >= 0.95: 1.
    expected = reliability["failures_per_1000_gpu_days"] / 1000 * capacity["gpus_offered"] * 24 / 24
    assert math.isclose(expected, 0.288)
    assert math.exp(-expected) < 0.95 <= math.exp(-expected) * (1 + expected)
    assert plan["ACC-soak"].threshold == 1 and plan["ACC-soak"].soak_hours == 24
    assert plan["ACC-replacement"].threshold == reliability["node_replacement_hours"] == 4
    assert "stated by the provider" in plan["ACC-replacement"].scored_source
    # Step time: the scored figure over 0.9 (throughput held to 90% of what was scored).
    scored = next(
        s.estimate.step_s for s in score_evaluation(evaluation).scores if s.bid.id == "northwind-ib"
    )
    assert math.isclose(plan["ACC-step-time"].threshold, round(scored / 0.9, 4))
    assert plan["ACC-step-time"].comparison == "at most"
    assert plan["ACC-contiguous-block"].threshold == evaluation.workload.job_gpus == 512
    assert "2027-01-15" in plan["ACC-handover"].threshold_basis
    # No remedy for a failed acceptance test is in the demo's bids: never invented.
    assert all("negotiate" in t.remedy and not t.remedy_stated for t in plan.values())


def test_allowed_failures_is_the_95th_percentile_of_a_poisson_count():
    assert allowed_failures(0.0) == 0
    assert allowed_failures(0.05) == 0  # e^-0.05 = 0.951
    assert allowed_failures(0.288) == 1
    # Mean 2: P(<=4) = e^-2 (1 + 2 + 2 + 4/3 + 2/3) = 0.947, P(<=5) = 0.983.
    assert allowed_failures(2.0) == 5


def test_the_annex_is_written_as_markdown_json_and_pdf_and_kept_in_the_document(tmp_path, capsys):
    document = tmp_path / "demo.clusterbid"
    assert main(["demo", str(document)]) == 0
    out_dir = tmp_path / "annex"
    assert (
        main(
            [
                "acceptance-plan",
                str(document),
                "--bid",
                "northwind-ib",
                "-o",
                str(out_dir),
                "--issued-on",
                ISSUED.isoformat(),
            ]
        )
        == 0
    )
    stem = out_dir / "northwind-ib-acceptance-plan-2026-11-20"
    markdown = stem.with_suffix(".md").read_text(encoding="utf-8")
    assert "ACC-busbw-2nodes" in markdown and "at least 338.4 GB/s" in markdown
    assert "Where the threshold comes from: 90% of the figure scored" in markdown
    data = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["format"] == "clusterbid-acceptance-plan/1" and len(data["tests"]) == 9
    assert stem.with_suffix(".pdf").read_bytes().startswith(b"%PDF-")
    out = capsys.readouterr().out
    assert "kept in the evaluation" in out


def test_an_unknown_bid_is_refused_by_name_and_nothing_is_written(tmp_path, capsys):
    document = tmp_path / "demo.clusterbid"
    assert main(["demo", str(document)]) == 0
    assert (
        main(["acceptance-plan", str(document), "--bid", "nobody", "-o", str(tmp_path / "annex")])
        == 2
    )
    err = capsys.readouterr().err
    assert "--bid 'nobody': no such bid" in err and "northwind-ib" in err
    assert not (tmp_path / "annex").exists()
