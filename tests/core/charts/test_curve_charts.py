"""Scaling curves and the nccl-tests busbw curve, read back from the plotted lines."""

from __future__ import annotations

import pytest
from tests.conftest import REPO, evaluation_dict

from clusterbid.core.charts import busbw_curve, scaling_curves
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence import parse_nccl_tests_text
from clusterbid.core.scoring import Scorecard

REAL_LOG = REPO / "tests" / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"


def line(ax, gid):
    (found,) = [candidate for candidate in ax.lines if candidate.get_gid() == gid]
    return found


def test_one_scaling_curve_per_bid_up_to_its_contiguous_block(demo_scorecard):
    ax = scaling_curves(demo_scorecard).axes[0]
    for score in demo_scorecard.scores:
        plotted = line(ax, score.bid.id)
        assert list(plotted.get_xdata()) == list(score.estimate.scaling.gpus)
        assert list(plotted.get_ydata()) == pytest.approx(
            [m * 100 for m in score.estimate.scaling.effective_mfu]
        )
        assert max(plotted.get_xdata()) <= score.bid.capacity.largest_contiguous_block_gpus
        assert (plotted.get_linestyle() == "--") == (not score.estimate.passes_gates)
    # The demo's Fragment Cloud offers a 256-GPU block: its curve stops short of the 512-GPU job.
    assert max(line(ax, "fragment-ib").get_xdata()) == 256


def test_planned_job_size_is_marked_and_labelled_on_a_log2_axis(demo_scorecard):
    fig = scaling_curves(demo_scorecard)
    ax = fig.axes[0]
    job = demo_scorecard.evaluation.workload.job_gpus
    assert job == 512  # the demo's planned job (resources/examples/demo-evaluation.json)
    assert list(line(ax, "planned-job").get_xdata()) == [512, 512]
    assert any(t.get_text() == "planned job: 512 GPUs" for t in ax.texts)
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    assert "512" in [t.get_text() for t in ax.get_xticklabels()]


def test_scaling_without_bids_gives_a_message():
    # Built by hand: score_evaluation itself cannot yet score an evaluation without bids.
    evaluation = Evaluation.model_validate({**evaluation_dict(), "bids": []})
    ax = scaling_curves(Scorecard(evaluation, {}, ())).axes[0]
    assert not ax.axison and not ax.lines and "No bids yet" in ax.texts[0].get_text()


@pytest.fixture(scope="module")
def real_run():
    (run,) = parse_nccl_tests_text(REAL_LOG.read_text(encoding="utf-8"), source=REAL_LOG.name)
    return run


def test_busbw_curve_plots_each_size_and_marks_the_plateau(real_run):
    ax = busbw_curve([real_run]).axes[0]
    plotted = line(ax, "run-0")
    assert list(plotted.get_xdata()) == [
        row.size_bytes for row in real_run.rows if row.size_bytes > 0
    ]
    assert list(plotted.get_ydata()) == [
        row.best_busbw()[0] for row in real_run.rows if row.size_bytes > 0
    ]
    # The log's largest row, 8589934592 bytes (8 GiB), reads 338.82 GB/s out-of-place: the plateau.
    star = line(ax, "plateau-0")
    assert (list(star.get_xdata()), list(star.get_ydata())) == ([8589934592], [338.82])
    assert any(t.get_text() == "plateau 338.82 GB/s" for t in ax.texts)
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    assert "1 GiB" in [t.get_text() for t in ax.get_xticklabels()] + [
        t.get_text() for t in ax.texts
    ]
    assert not [candidate for candidate in ax.lines if candidate.get_gid() == "nic-aggregate"]


def test_busbw_curve_draws_the_nic_aggregate_when_given(real_run):
    # A3 Mega nodes: 8 NICs x 200 Gbit/s = 1,600 Gbit/s = 200 GB/s per node.
    ax = busbw_curve([real_run], nic_aggregate_gb_s=8 * 200 / 8).axes[0]
    assert list(line(ax, "nic-aggregate").get_ydata()) == [200.0, 200.0]
    assert ax.get_ylim()[1] > 338.82


def test_busbw_curve_one_line_per_run(real_run):
    ax = busbw_curve([real_run, real_run.model_copy(update={"source": "second.log"})]).axes[0]
    assert {candidate.get_gid() for candidate in ax.lines} >= {
        "run-0",
        "run-1",
        "plateau-0",
        "plateau-1",
    }


def test_busbw_without_evidence_gives_a_message(real_run):
    for runs in ([], [real_run.model_copy(update={"rows": (), "plateau": None})]):
        ax = busbw_curve(runs).axes[0]
        assert not ax.axison and "No nccl-tests evidence attached" in ax.texts[0].get_text()
