"""The tornado names each bid as the memo does, never by the evaluation's id: a tester found the
training memo's tornado labelling bars "prime-efa: ..." while the guide says the memo never names
a bid by its id. The memo and the app draw it with core/memo/bid_words.bid_names (provider; with
the GPU model where a provider made two bids); a caller that gives no names gets the provider."""

from __future__ import annotations

from tests.core.charts.conftest import Sensitivity, TornadoBar

from clusterbid.core.charts import sensitivity_tornado
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.bid_words import bid_names
from clusterbid.core.memo.chart_drawing import chart_specs
from clusterbid.core.scoring import score_evaluation


def _two_bids(scorecard) -> Sensitivity:
    first, second = scorecard.ranked[:2]
    return Sensitivity(
        [
            TornadoBar("busbw", first.bid.id, first.estimate.plan_cost + 1_000, 0.0),
            TornadoBar("busbw", second.bid.id, second.estimate.plan_cost + 3_000, 0.0),
        ]
    )


def _labels(figure) -> list[str]:
    return [t.get_text() for t in figure.axes[0].get_yticklabels()]


def test_the_memo_s_tornado_names_bids_by_provider(demo_scorecard) -> None:
    specs = dict(chart_specs(demo_scorecard, sensitivity=_two_bids(demo_scorecard)))
    labels = _labels(specs["What moves the net cost (tornado)"]())
    first, second = demo_scorecard.ranked[:2]
    assert labels == [f"{second.bid.quote.provider}: busbw", f"{first.bid.quote.provider}: busbw"]
    ids = {s.bid.id for s in demo_scorecard.scores}
    assert not any(label.split(":")[0] in ids for label in labels)


def test_two_bids_of_one_provider_are_told_apart_as_the_memo_does(demo_scorecard) -> None:
    first, second = demo_scorecard.ranked[:2]
    # The runner-up's bid made by the winner's provider: the memo then adds each bid's GPU model
    # (and ", offer N" where that is shared too), which the chart keeps whole.
    data = demo_evaluation().model_dump(mode="json")
    for bid in data["bids"]:
        if bid["id"] == second.bid.id:
            bid["quote"]["provider"] = first.bid.quote.provider
    scorecard = score_evaluation(Evaluation.model_validate(data))
    names = bid_names(scorecard.scores)
    assert names[first.bid.id].startswith(first.bid.quote.provider + ", ")
    assert names[first.bid.id] != names[second.bid.id]
    labels = _labels(sensitivity_tornado(_two_bids(scorecard), scorecard, names=names))
    assert [label.split(": ")[0] for label in labels] == [
        names[second.bid.id],
        names[first.bid.id],
    ]


def test_without_names_the_chart_falls_back_to_the_provider(demo_scorecard) -> None:
    labels = _labels(sensitivity_tornado(_two_bids(demo_scorecard), demo_scorecard))
    assert labels[0] == f"{demo_scorecard.ranked[1].bid.quote.provider}: busbw"
