"""A three-evaluator panel on the demo, worked by hand: each evaluator's totals, ranking, the
share of weight sets under which each bid wins, the spreads and Kendall's W.

The figures come from the demo's bids as the seed file states them (resources/examples/
demo-evaluation.json) and the criterion rules of methodology section 6: support basic 0,
business 0.5, enterprise 1; data-centre tier (tier - 1) / 3; certifications the share of the
required two (SOC2, ISO27001) held. The four bids that pass the gates are the README's (budget-tcp
and fragment-ib are excluded). The net plan cost weighs 0 for all three, so no figure of the cost
model enters.
"""

from __future__ import annotations

import itertools

import pytest
from tests.core.panel.builders import BIDS, SAMPLES
from tests.core.panel.builders import make_panel as _make_panel

from clusterbid.operations import panel


@pytest.fixture(scope="module")
def merged(tmp_path_factory):
    lead, copies = _make_panel(tmp_path_factory.mktemp("panel"))
    done, refused = panel.merge(lead, copies)
    assert refused == [] and [m.recorded for m in done] == [True, True, True]
    return lead, copies, panel.status(lead, SAMPLES)


def test_each_evaluator_ranks_the_bids_as_worked_by_hand(merged):
    # Ana: 0.6 x TA/10 + 0.4 x support: northwind .54+.40=.94, cumulus .36+.20=.56,
    #      prime .42+.40=.82, legacy .18+.20=.38.
    # Ben: 0.2 x TA/10 + 0.4 x certifications + 0.4 x tier: northwind .10+.40+.267=.767,
    #      cumulus .16+.20+.267=.627, prime .12+.40+.40=.92, legacy .08+.20+.267=.547.
    # Chen: TA alone: cumulus 9, prime 7, northwind 4, legacy 2.
    _, _, view = merged
    assert view.divergence.rankings == {
        "Ana Ruiz": ("northwind-ib", "prime-efa", "cumulus-roce", "legacy-a100"),
        "Ben Okafor": ("prime-efa", "northwind-ib", "cumulus-roce", "legacy-a100"),
        "Chen Li": ("cumulus-roce", "prime-efa", "northwind-ib", "legacy-a100"),
    }


def test_win_shares_and_kendalls_w_by_hand(merged):
    _, _, view = merged
    assert view.divergence.win_share == pytest.approx(
        {"northwind-ib": 1 / 3, "prime-efa": 1 / 3, "cumulus-roce": 1 / 3, "legacy-a100": 0.0}
    )
    # Rank sums: northwind 1+2+3=6, prime 2+1+2=5, cumulus 3+3+1=7, legacy 12; mean 3 x 5 / 2 = 7.5;
    # S = 1.5^2 + 2.5^2 + 0.5^2 + 4.5^2 = 29; W = 12 x 29 / (3^2 x (4^3 - 4)) = 348 / 540.
    assert view.divergence.kendall_w == pytest.approx(348 / 540)
    assert "Kendall's W) 0.64 over 3 evaluators' rankings of 4 bids" in view.text()


def test_spreads_and_what_is_disputed(merged):
    _, _, view = merged
    items = {item.key: item for item in view.divergence.items}
    # Scores: northwind 9, 5, 4 -> 5 (disputed); cumulus 6, 8, 9 -> 3 (disputed at 3);
    # prime 7, 6, 7 -> 1; legacy 3, 4, 2 -> 2.
    spreads = {bid: items[f"score:Technical approach:{bid}"].spread for bid in BIDS}
    assert spreads == {"northwind-ib": 5, "cumulus-roce": 3, "prime-efa": 1, "legacy-a100": 2}
    # Weights as shares of each total: TA 60%, 20%, 100% -> 80 points; support 40, 0, 0 -> 40.
    assert items["weight:Technical approach"].values == pytest.approx(
        {"Ana Ruiz": 60.0, "Ben Okafor": 20.0, "Chen Li": 100.0}
    )
    assert items["weight:support"].spread == pytest.approx(40.0)
    assert items["weight:cost_to_finish"].spread == 0.0
    disputed = {item.key for item in view.divergence.disputed}
    assert disputed == {
        "weight:Technical approach",
        "weight:support",
        "weight:certifications",
        "weight:datacenter_tier",
        "score:Technical approach:northwind-ib",
        "score:Technical approach:cumulus-roce",
    }


def test_questions_are_grouped_by_bid(merged):
    _, _, view = merged
    assert view.summary["questions"] == [
        [
            "Legacy Compute, A100-80GB-SXM",
            [
                f"{name}: Will the A100s be replaced within the term?"
                for name in ("Ana Ruiz", "Ben Okafor", "Chen Li")
            ],
        ]
    ]


def test_merging_the_same_copies_again_changes_nothing(merged):
    lead, copies, view = merged
    from clusterbid.core.store import EvaluationDocument

    with EvaluationDocument.open(lead) as document:
        before = document.head
    done, refused = panel.merge(lead, list(reversed(copies)))
    assert refused == [] and [m.recorded for m in done] == [False, False, False]
    with EvaluationDocument.open(lead) as document:
        assert document.head == before


def test_every_merge_order_gives_the_same_panel(tmp_path):
    lead, copies = _make_panel(tmp_path)
    results = set()
    for number, order in enumerate(itertools.permutations(copies)):
        trial = tmp_path / f"order-{number}.clusterbid"
        trial.write_bytes(lead.read_bytes())  # the lead as invited, before any merge
        done, refused = panel.merge(trial, list(order))
        assert refused == [] and all(m.recorded for m in done)
        view = panel.status(trial, SAMPLES)
        results.add(view.text())
    assert len(results) == 1, "the merged panel depends on the order the copies came in"
    assert (
        "Chen Li, Programme lead: judgement merged from panel-chen-li.clusterbid" in results.pop()
    )


def test_chens_tipping_points_by_hand(merged):
    """Chen weighs the technical approach alone and ranks cumulus-roce (9) over prime-efa (7) and
    northwind-ib (4). Give support a share t: cumulus .9(1-t) + .5t, prime .7(1-t) + 1t, northwind
    .4(1-t) + 1t. Prime catches cumulus where .2(1-t) = .5t: t = 2/7; northwind only at t = 1/2.
    The data-centre tier (cumulus 2/3, prime 1): .2(1-t) = (1/3)t, t = 3/8."""
    _, _, view = merged
    chen = {t.criterion: t for t in view.tipping if t.evaluator == "Chen Li"}
    assert (chen["support"].winner, chen["support"].overtaken_by) == ("cumulus-roce", "prime-efa")
    assert chen["support"].share_at == pytest.approx(100 * 2 / 7)
    assert chen["datacenter_tier"].share_at == pytest.approx(100 * 3 / 8)
    assert chen["certifications"].share_at == pytest.approx(
        100 * 2 / 7
    )  # prime 1 and cumulus .5 held
    assert "Technical approach" not in chen  # his only weight: nothing to trade it against
    assert (
        "Chen Li ranks Cumulus Compute, H100-SXM first; Hyperscale Prime, H100-SXM would rank "
        "first "
        "were"
    ) in view.text()
