"""Every validation rule of the bid and evidence models shows its message beside its field, in words."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard
from tests.gui.wizard.conftest import choose, error_text, field, next_enabled, type_into

pytestmark = pytest.mark.timeout(60)


def _to_page(wizard, index: int) -> None:
    while wizard.currentId() < index:
        wizard.next()


def test_quote_page_messages(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    provider = field(wizard, "quote", "provider").widget
    type_into(qtbot, provider, "")
    assert error_text(wizard, "quote", "provider") == "Required: enter a value."
    assert not next_enabled(wizard)
    type_into(qtbot, provider, "Northwind again")
    type_into(qtbot, field(wizard, "id").widget, "has space")
    assert "letters, digits" in error_text(wizard, "id")
    type_into(
        qtbot, field(wizard, "id").widget, "northwind-ib"
    )  # the demo's first bid already has it
    assert error_text(wizard, "id") == (
        "Another bid in this evaluation already has the id 'northwind-ib': choose a different id"
    )
    type_into(qtbot, field(wizard, "id").widget, "northwind-2")
    type_into(qtbot, field(wizard, "quote", "quoted_on").widget, "2026-12-01")
    type_into(qtbot, field(wizard, "quote", "valid_until").widget, "2026-11-30")
    assert error_text(wizard, "quote", "valid_until") == "Valid until is before Quoted on"
    type_into(qtbot, field(wizard, "quote", "valid_until").widget, "31/12/2026")
    assert (
        error_text(wizard, "quote", "valid_until") == "Enter a date as YYYY-MM-DD, e.g. 2027-01-15."
    )
    assert not next_enabled(wizard)
    type_into(qtbot, field(wizard, "quote", "valid_until").widget, "2026-12-31")
    assert next_enabled(wizard)


def test_capacity_messages_and_block_warning(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)  # 576 offered, 8 per node, block 576
    _to_page(wizard, 1)
    page = wizard.currentPage()
    block = field(wizard, "capacity", "largest_contiguous_block_gpus").widget
    type_into(qtbot, block, "1024")
    assert error_text(wizard, "capacity", "largest_contiguous_block_gpus") == (
        "Largest contiguous block (GPUs) (1024) cannot exceed GPUs offered (576)"
    )
    assert not next_enabled(wizard)
    type_into(qtbot, block, "512")
    type_into(qtbot, field(wizard, "capacity", "gpus_offered").widget, "1020")
    # 1020 / 8 = 127.5 nodes
    assert (
        error_text(wizard, "capacity", "gpus_offered")
        == "GPUs offered (1020) must be whole nodes of 8 GPUs"
    )
    type_into(qtbot, field(wizard, "capacity", "gpus_offered").widget, "1024")
    assert next_enabled(wizard)
    assert not page.block_warning.isVisibleTo(wizard)
    type_into(qtbot, block, "256")  # the demo's job is 512 GPUs
    assert page.block_warning.isVisibleTo(wizard)
    assert "(256 GPUs) is smaller than the planned job (512 GPUs)" in page.block_warning.text()
    assert next_enabled(wizard)  # a warning, not an error: the bid is valid but will be gated
    type_into(qtbot, block, "")
    assert (
        error_text(wizard, "capacity", "largest_contiguous_block_gpus")
        == "Required: enter a value."
    )


def test_rdma_on_a_fabric_without_it(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)  # IB with GPUDirect RDMA ticked
    _to_page(wizard, 2)
    choose(qtbot, field(wizard, "fabric", "technology").widget, "TCP-Ethernet")
    assert error_text(wizard, "fabric", "gpudirect_rdma") == (
        "TCP-Ethernet has no RDMA, so GPUDirect RDMA cannot be ticked"
    )
    assert not next_enabled(wizard)
    rdma = field(wizard, "fabric", "gpudirect_rdma").widget
    rdma.setFocus()
    qtbot.keyClick(rdma, Qt.Key.Key_Space)
    assert not field(wizard, "fabric", "gpudirect_rdma").read()
    assert next_enabled(wizard), [p.message for p in wizard.checked.problems]


def test_topology_cross_section_rules(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)  # H100: an 8-GPU NVLink domain
    _to_page(wizard, 3)
    type_into(qtbot, field(wizard, "topology", "nvlink_domain_gpus").widget, "16")
    assert error_text(wizard, "topology", "nvlink_domain_gpus") == (
        "NVLink domain (GPUs) (16) exceeds the 8-GPU NVLink domain of H100-SXM"
    )
    assert not next_enabled(wizard)
    type_into(qtbot, field(wizard, "topology", "nvlink_domain_gpus").widget, "8")
    type_into(qtbot, field(wizard, "topology", "leaf_domain_gpus").widget, "1024")  # 576 offered
    assert (
        error_text(wizard, "topology", "leaf_domain_gpus")
        == "Leaf domain (GPUs) cannot exceed GPUs offered"
    )
    assert not next_enabled(wizard)


def test_terms_messages(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    _to_page(wizard, 5)  # contract and billing
    currency = field(wizard, "terms", "currency").widget
    type_into(qtbot, currency, "usd")
    assert (
        error_text(wizard, "terms", "currency")
        == "Use a three-letter ISO 4217 code in capitals, e.g. USD, EUR, GBP."
    )
    type_into(qtbot, currency, "EUR")  # the demo has no EUR exchange rate
    assert error_text(wizard, "terms", "currency") == (
        "This bid is priced in EUR but the evaluation is in USD and has no EUR exchange rate: "
        "price the bid in USD, or add a EUR rate to the evaluation's scoring policy"
    )
    assert not next_enabled(wizard)
    type_into(qtbot, currency, "USD")
    type_into(qtbot, field(wizard, "terms", "price_per_gpu_hour").widget, "")
    assert error_text(wizard, "terms", "price_per_gpu_hour") == "Required: enter a value."
    assert not next_enabled(wizard)


def test_billing_rules_name_the_billing_as_the_list_does_not_by_its_code(
    qtbot, open_wizard, evaluation
):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)  # Northwind: reserved for 3 months
    _to_page(wizard, 5)  # contract and billing
    term = field(wizard, "terms", "term_months")
    type_into(qtbot, term.widget, "0")
    text = error_text(wizard, "terms", "billing")  # the choice that asks for a term
    # The billing list reads "Reserved term (GPUs x term x price, take-or-pay)"; the rule says the same.
    assert text.startswith(f"Reserved term billing needs {term.title} of at least 1"), text
    assert "'reserved'" not in text and "term_months" not in text
    assert not next_enabled(wizard)


def test_review_lists_each_problem_with_a_button_to_its_page(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0])  # editing: every page pre-filled and valid
    _to_page(wizard, wizard.page_ids[-1])  # the review, after the facility page
    assert wizard.button(QWizard.WizardButton.FinishButton).isEnabled()
    wizard.go_to(wizard.page_ids[3])  # topology
    type_into(qtbot, field(wizard, "topology", "nvlink_domain_gpus").widget, "16")
    wizard.button(QWizard.WizardButton.NextButton).setEnabled(True)  # jump ahead to see the review
    _force_to_review(wizard)
    buttons = [b for b in wizard.review_page.problem_buttons if hasattr(b, "click")]
    assert [b.text() for b in buttons] == [
        "Topology — NVLink domain (GPUs): NVLink domain (GPUs) (16) exceeds the 8-GPU NVLink "
        "domain of H100-SXM"
    ]
    assert not wizard.button(QWizard.WizardButton.FinishButton).isEnabled()
    assert "once every problem is fixed" in wizard.review_page.preview_cost.text()
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)
    assert wizard.currentPage().title() == "Topology"


def _force_to_review(wizard) -> None:
    """QWizard.next() ignores isComplete, which lets a test reach the review page with a problem open."""
    while wizard.currentPage() is not wizard.review_page:
        wizard.next()
