"""Evaluation kinds as plug-ins (issue 33 item 2): the generic paths (score, export, the memo's
inputs and its re-score) reach each kind's own scorer, report and printed figures through one
registry, core/kinds.py (and core/memo/memo_kinds.py), and through nothing else."""

from __future__ import annotations

import dataclasses
import re

import pytest
from tests.conftest import REPO

from clusterbid.core import kinds
from clusterbid.core.documents import read_evaluation
from clusterbid.core.kinds import KINDS, SERVING, TRAINING, kind_of, kind_of_scorecard
from clusterbid.core.memo.memo_kinds import MEMO_KINDS, memo_kind
from clusterbid.core.memo.serving_printed import printed_serving_results
from clusterbid.core.memo.training_printed import printed_results
from clusterbid.core.report import comparison_rows, format_ranking_table
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.serving_json import serving_scorecard_to_json
from clusterbid.core.serving_report import format_serving_table, serving_comparison_rows
from clusterbid.core.serving_scoring import score_serving_evaluation
from clusterbid.core.workloads import WORKLOAD_KINDS
from clusterbid.operations.comparison import score_for_comparison
from clusterbid.operations.progress import NEVER_CANCELLED, no_progress
from clusterbid.operations.scoring import score

EXAMPLES = REPO / "resources" / "examples"


@pytest.fixture(scope="module")
def training():
    return read_evaluation(EXAMPLES / "demo-evaluation.json")


@pytest.fixture(scope="module")
def serving():
    return read_evaluation(EXAMPLES / "demo-serving-evaluation.json")


@pytest.fixture(scope="module")
def served(serving):
    return score_serving_evaluation(serving)  # the serving model called directly, no registry


def test_every_workload_kind_has_one_kind_and_one_memo_part():
    # The workload tags the evaluation files may carry, each registered once, nothing else.
    assert set(KINDS) == set(WORKLOAD_KINDS) == {"training", "inference"}
    assert set(MEMO_KINDS) == set(KINDS)
    assert all(tag == kind.tag for tag, kind in KINDS.items())


def test_the_kind_follows_the_workload_and_an_untagged_file_is_training(training, serving):
    assert kind_of(training) is TRAINING
    assert kind_of(serving) is SERVING
    data = training.model_dump(mode="json")
    data["workload"].pop("kind")  # written before inference existed
    untagged = type(training).model_validate(data)
    assert kind_of(untagged) is TRAINING


def test_the_kinds_words_are_words():
    for kind in KINDS.values():
        assert not re.search(r"\w_\w", kind.buys), kind.buys  # officers read words, not ids


def test_score_of_a_serving_evaluation_is_the_serving_scorecard_reported(serving, served):
    result = score(serving, no_progress, NEVER_CANCELLED, samples=500)
    direct = served
    assert kind_of_scorecard(result.scorecard) is SERVING
    assert result.uncertainty is None and result.sensitivity is None
    assert result.as_json() == serving_scorecard_to_json(direct)
    assert result.as_table() == format_serving_table(direct)


def test_score_of_a_training_evaluation_ranks_on_its_monte_carlo(training):
    from clusterbid.core.uncertainty import analyse_sensitivity
    from clusterbid.core.uncertainty.decision import decide

    result = score(training, no_progress, NEVER_CANCELLED, samples=500)
    scorecard, bands = decide(training, 500)
    sensitivity = analyse_sensitivity(training, bands, scorecard)
    assert [s.bid.id for s in result.scorecard.ranked] == [s.bid.id for s in scorecard.ranked]
    assert result.as_table() == format_ranking_table(scorecard, bands, sensitivity)
    report = result.as_json()
    assert report["waterfall"] is not None  # the demo has a runner-up: its waterfall is shown


def test_export_rows_are_each_kinds_own(training, serving, served):
    assert kind_of(serving).comparison_rows(score_for_comparison(serving)) == (
        serving_comparison_rows(served)
    )
    assert kind_of(training).comparison_rows(score_for_comparison(training)) == (
        comparison_rows(score_evaluation(training))
    )


def test_the_memo_prints_each_kinds_own_figures(training, served):
    scored = score_evaluation(training)
    assert memo_kind(served).printed(served) == printed_serving_results(served)
    assert memo_kind(scored).printed(scored) == printed_results(scored)
    assert memo_kind(served).own_pages and not memo_kind(scored).own_pages


def test_the_generic_score_reaches_a_kind_only_through_the_registry(training, monkeypatch):
    # A stand-in kind under the training tag: `score` must use its driver and its table, which
    # it can only find through the registry (no branch names it).
    seen = []

    def point(evaluation):
        seen.append("point")
        return score_evaluation(evaluation)

    stand_in = dataclasses.replace(
        TRAINING,
        monte_carlo=lambda evaluation, samples: (point(evaluation), None),
        tipping=lambda *_: None,
        report_table=lambda scorecard, _bands, _tips: f"{len(scorecard.ranked)} ranked",
    )
    monkeypatch.setitem(kinds.KINDS, "training", stand_in)
    result = score(training, no_progress, NEVER_CANCELLED, samples=500)
    passing = sum(1 for s in score_evaluation(training).scores if s.rank is not None)
    assert seen == ["point"]
    assert result.as_table() == f"{passing} ranked"


def test_each_kinds_plan_inputs_are_fields_where_its_kind_says_they_sit(training, serving):
    from clusterbid.operations.plan_inputs import INPUTS_OF_KIND

    assert set(INPUTS_OF_KIND) == set(KINDS)
    for evaluation in (training, serving):
        kind = kind_of(evaluation)
        workload = evaluation.workload
        holder = getattr(workload, kind.plan_field) if kind.plan_field else workload
        for plan_input in INPUTS_OF_KIND[kind.tag]:
            assert plan_input.name in type(holder).model_fields, (kind.tag, plan_input.name)


def test_a_request_pack_for_a_serving_evaluation_is_written_and_an_unknown_bid_refused(
    tmp_path, capsys
):
    from clusterbid.cli import main

    path = EXAMPLES / "demo-serving-evaluation.json"
    pack = tmp_path / "pack"
    assert main(["request-evidence", str(path), "--bid", "nobody", "-o", str(pack)]) != 0
    said = capsys.readouterr().err
    assert "--bid 'nobody': no such bid in demo-serving-evaluation.json" in said, said
    assert not pack.exists()
    assert main(["request-evidence", str(path), "--bid", "helio-h200", "-o", str(pack)]) == 0
    assert len(list(pack.glob("helio-h200-evidence-request-*"))) == 2  # the letter and its JSON
