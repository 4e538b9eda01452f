"""Issue 14: on the Reliability page an empty figure is "not stated", takes its documented default
and is flagged; a typed one is the provider's, with the page it came from."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from tests.gui.wizard.conftest import choose, field, type_into

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.report import scorecard_to_json
from clusterbid.core.scoring import score_evaluation

pytestmark = pytest.mark.timeout(60)

RELIABILITY = (
    "uptime_sla_percent",
    "sla_credit_percent",
    "node_replacement_hours",
    "burn_in_hours",
    "storage_write_gb_s",
)


def _fill_all_but_reliability(qtbot, wizard) -> None:
    type_into(qtbot, field(wizard, "quote", "provider").widget, "Unsure Cloud")
    type_into(qtbot, field(wizard, "id").widget, "unsure")
    choose(qtbot, field(wizard, "capacity", "gpu_model").widget, "H100-SXM")
    for name, text in (
        ("gpus_offered", "512"),
        ("gpus_per_node", "8"),
        ("largest_contiguous_block_gpus", "512"),
    ):
        type_into(qtbot, field(wizard, "capacity", name).widget, text)
    choose(qtbot, field(wizard, "fabric", "technology").widget, "IB-NDR400")
    type_into(qtbot, field(wizard, "fabric", "nics_per_node").widget, "8")
    choose(qtbot, field(wizard, "topology", "kind").widget, "rail-optimised")
    type_into(qtbot, field(wizard, "topology", "leaf_domain_gpus").widget, "512")
    type_into(qtbot, field(wizard, "topology", "nvlink_domain_gpus").widget, "8")
    type_into(qtbot, field(wizard, "terms", "price_per_gpu_hour").widget, "2.5")
    choose(qtbot, field(wizard, "terms", "billing").widget, "on-demand")


def test_a_bid_with_reliability_left_empty_is_not_stated_defaulted_and_flagged(
    qtbot, open_wizard, evaluation
):
    wizard = open_wizard()
    _fill_all_but_reliability(qtbot, wizard)
    page = next(p for p in wizard.section_pages() if p.title() == "Reliability")
    # Nothing is pre-filled: no 0 spares or 24 h shown as if the provider had said so.
    assert field(wizard, "capacity", "spare_pool_gpus").widget.text() == "—"
    assert field(wizard, "reliability", "node_replacement_hours").widget.text() == "—"
    type_into(qtbot, field(wizard, "reliability", "failures_per_1000_gpu_days").widget, "0.5")
    type_into(qtbot, page.sources["reliability.failures_per_1000_gpu_days"].detail, "p.4")
    bid = wizard.result_bid()
    assert bid is not None, [(p.path, p.message) for p in wizard.checked.problems]
    assert all(getattr(bid.reliability, name) is None for name in RELIABILITY)
    assert bid.capacity.spare_pool_gpus == 0
    assert bid.provenance["capacity.spare_pool_gpus"].kind == "not_stated"
    assert bid.provenance["reliability.node_replacement_hours"].kind == "not_stated"
    stated = bid.provenance["reliability.failures_per_1000_gpu_days"]
    assert (stated.kind, stated.reference) == ("provider", "p.4")
    # Beside the field and on the Review page: the default, its range, and that it is flagged.
    replacement = field(wizard, "reliability", "node_replacement_hours")
    assert page.source_text(replacement).startswith("not stated — default 72 used (range 4-72;")
    while wizard.currentPage() is not wizard.review_page:  # the summary is drawn as the page opens
        wizard.next()
    summary = wizard.review_page.summary.toPlainText()
    assert "not stated — default 0 used (range 0-16;" in summary  # the spare pool
    assert "stated by the provider, p.4" in summary
    # The score JSON flags every figure left empty (six here) and none typed.
    others = [b for b in evaluation.bids if b.id != bid.id]
    scored = Evaluation.model_validate(
        {
            **evaluation.model_dump(mode="json"),
            "bids": [b.model_dump(mode="json") for b in [*others, bid]],
        }
    )
    row = next(
        b for b in scorecard_to_json(score_evaluation(scored))["bids"] if b["bid_id"] == "unsure"
    )
    flagged = {r["field"] for r in row["unverified_inputs"]}
    # (The exit fee and escalation left empty are not stated too, but cannot apply to an on-demand
    # bid without an exit clause: not flagged, issue 31.)
    # Fees, the billing step and the minimum left empty on an on-demand bid are not stated and priced
    # (issue 31): flagged as well.
    fees = {
        "terms.one_off_fees",
        "terms.recurring_fees_per_month",
        "terms.billing_increment_hours",
        "terms.minimum_billed_hours",
    }
    assert (
        flagged == {f"reliability.{n}" for n in RELIABILITY} | {"capacity.spare_pool_gpus"} | fees
    )


def test_editing_a_bid_keeps_not_stated_empty_and_the_providers_page(
    qtbot, open_wizard, evaluation
):
    wizard = open_wizard()
    _fill_all_but_reliability(qtbot, wizard)
    page = next(p for p in wizard.section_pages() if p.title() == "Reliability")
    type_into(qtbot, field(wizard, "capacity", "spare_pool_gpus").widget, "8")
    type_into(qtbot, page.sources["capacity.spare_pool_gpus"].detail, "clause 7.2")
    bid = wizard.result_bid()
    wizard.close()
    again = open_wizard(bid)
    page = next(p for p in again.section_pages() if p.title() == "Reliability")
    assert field(again, "reliability", "node_replacement_hours").read() is None
    assert page.sources["capacity.spare_pool_gpus"].detail.text() == "clause 7.2"
    assert again.result_bid() == bid


def test_a_figure_can_be_the_buyers_assumption_who_and_why_and_it_is_flagged(
    qtbot, open_wizard, evaluation
):
    wizard = open_wizard()
    _fill_all_but_reliability(qtbot, wizard)
    page = next(p for p in wizard.section_pages() if p.title() == "Reliability")
    type_into(qtbot, field(wizard, "capacity", "spare_pool_gpus").widget, "8")
    spares = page.sources["capacity.spare_pool_gpus"]
    spares.kind.setFocus()
    qtbot.keyClick(
        spares.kind, Qt.Key.Key_Down
    )  # from "Stated by the provider" to "Buyer's assumption"
    # An assumption with nobody behind it is refused beside the figure, and Next stays shut.
    assert wizard.result_bid() is None
    problem = next(p for p in wizard.checked.problems if p.path == ("capacity", "spare_pool_gpus"))
    assert "who assumes this figure" in problem.message
    assert not page.isComplete()
    type_into(qtbot, spares.detail, "J. Ruiz: the account manager said 8 on the call")
    bid = wizard.result_bid()
    assert bid is not None, [(p.path, p.message) for p in wizard.checked.problems]
    source = bid.provenance["capacity.spare_pool_gpus"]
    assert (source.kind, source.who, source.why) == (
        "assumption",
        "J. Ruiz",
        "the account manager said 8 on the call",
    )
    assert "buyer's assumption (J. Ruiz" in page.source_text(
        field(wizard, "capacity", "spare_pool_gpus")
    )
    # Scored, the assumption is flagged as unverified with who set it, never as the provider's.
    others = [b for b in evaluation.bids if b.id != bid.id]
    scored = Evaluation.model_validate(
        {
            **evaluation.model_dump(mode="json"),
            "bids": [b.model_dump(mode="json") for b in [*others, bid]],
        }
    )
    row = next(
        b for b in scorecard_to_json(score_evaluation(scored))["bids"] if b["bid_id"] == "unsure"
    )
    flagged = {r["field"]: r for r in row["unverified_inputs"]}
    assert flagged["capacity.spare_pool_gpus"]["kind"] == "assumption"
    assert (
        flagged["capacity.spare_pool_gpus"]["source"]
        == "J. Ruiz: the account manager said 8 on the call"
    )
    # Cleared, the figure is not stated again and the chooser shows that; typed again, the pick is back.
    type_into(qtbot, field(wizard, "capacity", "spare_pool_gpus").widget, "")
    assert spares.current_kind() == "not_stated" and not spares.kind.isEnabled()
    type_into(qtbot, field(wizard, "capacity", "spare_pool_gpus").widget, "8")
    assert spares.current_kind() == "assumption"


def test_a_measured_figure_stays_measured_until_the_officer_changes_it(
    qtbot, open_wizard, evaluation
):
    base = evaluation.bids[0]
    measured = {"kind": "measured", "reference": "burn-in log 2026-10", "grade": "buyer_run"}
    bid = base.model_validate(
        {
            **base.model_dump(mode="json"),
            "provenance": {
                **base.model_dump(mode="json")["provenance"],
                "reliability.failures_per_1000_gpu_days": measured,
            },
        }
    )
    wizard = open_wizard(bid)
    page = next(p for p in wizard.section_pages() if p.title() == "Reliability")
    chooser = page.sources["reliability.failures_per_1000_gpu_days"]
    assert chooser.current_kind() == "measured"
    assert (
        wizard.result_bid().provenance["reliability.failures_per_1000_gpu_days"].kind == "measured"
    )
    figure = field(wizard, "reliability", "failures_per_1000_gpu_days")
    type_into(qtbot, figure.widget, "0.9")
    changed = wizard.result_bid().provenance["reliability.failures_per_1000_gpu_days"]
    # Typed over, the figure is no longer what was measured: it is recorded as typed, the provider's,
    # and the chooser says so.
    assert changed.kind == "provider" and chooser.current_kind() == "provider"
