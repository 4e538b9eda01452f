"""The CLI verbs on the bundled examples, in-process and through the installed entry points."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import EXAMPLES, REPO, bid_dict, workload_dict

from clusterbid.cli import main


def test_score_shows_seed_001_figures(capsys):
    assert main(["score", str(EXAMPLES / "seed-network-example.json")]) == 0
    out = capsys.readouterr().out
    assert "$179,200" in out and "$232,960" in out


def test_score_json_has_the_promised_fields(capsys):
    assert main(["score", str(EXAMPLES / "seed-network-example.json"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    first = report["bids"][0]
    assert first["rank"] == 1 and first["gates"] == {"passed": True, "failed": []}
    # Seed 001 on demand: 256 GPUs x 100 h x $7 = $179,200, the commitment and the job's cost alike.
    for key in ("total_commitment", "cost_of_planned_job"):
        assert first["figures"][key] == {"amount": "179200.00", "currency": "USD"}
    # The example states no payment terms: due on invoice, 30 days before the buyer's default net
    # 30 at its default 8% a year, 179,200 x 0.08 x 30 / 365 = $1,178.30 in the net cost.
    assert first["figures"]["payment_terms_cost_in_net_cost"] == {
        "amount": "1178.30",
        "currency": "USD",
    }
    assert first["figures"]["net_plan_cost"] == {"amount": "180378.30", "currency": "USD"}
    assert first["figures"]["idle_gpu_hours"] == 0.0
    assert first["figures"]["wall_clock_hours"] == 100.0
    for key in (
        "effective_mfu",
        "scaling_efficiency",
        "goodput",
        "effective_price_per_useful_gpu_hour",
    ):
        assert key in first["figures"]
    names = {a["name"] for a in first["assumptions"]}
    assert {"Planned job size", "Scale-out busbw per node", "Baseline MFU"} <= names


def test_demo_writes_a_scorable_file(tmp_path, capsys):
    target = tmp_path / "demo.json"
    assert main(["demo", str(target)]) == 0
    assert main(["demo", str(target)]) == 2  # refuses to overwrite without --force
    capsys.readouterr()
    assert main(["score", str(target), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    excluded = [b for b in report["bids"] if not b["gates"]["passed"]]
    assert excluded and all(b["figures"] is None and b["rank"] is None for b in excluded)
    assert all(b["gates"]["failed"][0]["reason"] for b in excluded)


def test_estimate_one_bid(tmp_path, capsys):
    (tmp_path / "w.json").write_text(json.dumps(workload_dict()))
    (tmp_path / "b.json").write_text(json.dumps(bid_dict()))
    assert (
        main(
            [
                "estimate",
                "--workload",
                str(tmp_path / "w.json"),
                "--bid",
                str(tmp_path / "b.json"),
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert len(report["bids"]) == 1 and report["bids"][0]["rank"] == 1


def test_schema_check_passes_on_the_checked_in_files():
    assert main(["schema", "--check"]) == 0


def test_entry_points_run_headless_without_a_traceback():
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["PYTHONPATH"] = str(REPO / "desktop")
    done = subprocess.run(
        [sys.executable, "-m", "clusterbid"], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "No display found" in done.stdout and "northwind-ib" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "clusterbid", "score", "/nonexistent.json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert bad.returncode == 2 and "no such file" in bad.stderr and "Traceback" not in bad.stderr
