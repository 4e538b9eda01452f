"""Evidence: a real nccl-tests log parsed in the background, typed figures with their rules; the crash-safe draft."""

from __future__ import annotations

import json

import pytest
import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QPushButton
from tests.conftest import REPO
from tests.gui.waiting import HANG_GUARD_MS
from tests.gui.wizard.conftest import DATA, REAL_LOG, choose, field, next_enabled, type_into

from clusterbid.core.evidence.model import EvidenceGrade, EvidenceKind
from clusterbid.gui import dialogs
from clusterbid.gui.wizard import BidWizard, DraftStore, edit_bid_dialog

pytestmark = pytest.mark.timeout(60)


def _evidence_page(wizard):
    while wizard.currentPage() is not wizard.evidence_page:
        wizard.next()
    return wizard.evidence_page


def test_real_log_attached_in_the_background_shows_plateau_and_grade(
    qtbot, open_wizard, evaluation
):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    page = _evidence_page(wizard)
    page.choose_files = lambda: [str(REAL_LOG)]
    qtbot.mouseClick(page.findChild(QPushButton, "attach_logs"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=HANG_GUARD_MS)
    # The log's last row: 8589934592 bytes, out-of-place busbw 338.82 GB/s (SOURCES.md, row 31)
    assert page.table.item(0, 0).text() == "all-reduce bus bandwidth (nccl-tests): 338.82 GB/s"
    assert page.table.item(0, 1).text() == "16 GPUs"  # ranks 0..15
    assert page.table.item(0, 2).text() == "measured by the provider"
    # The public log has no NCCL_DEBUG=INFO lines: graded, but it cannot show it ran on this
    # bid's fabric, and says so (issue 38, item 7).
    tip = page.table.item(0, 5).toolTip()
    assert page.table.item(0, 5).text() == tip  # one flag, said in words (issue 38: no codes)
    assert "NCCL_DEBUG=INFO" in tip and evaluation.bids[0].fabric.technology in tip
    assert "338.82 GB/s" in page.status.text()
    evidence = wizard.result_bid().evidence[-1]
    assert (
        evidence.grade is EvidenceGrade.MEASURED_PROVIDER
        and evidence.artefact_name == REAL_LOG.name
    )


def test_a_training_throughput_csv_attaches_each_row_graded_a_claim(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    page = _evidence_page(wizard)
    page.attach_files([REPO / "resources" / "examples" / "evidence" / "training-throughput.csv"])
    qtbot.waitUntil(lambda: page.table.rowCount() == 3, timeout=HANG_GUARD_MS)
    added = wizard.result_bid().evidence[-3:]
    # Row 1: 6 x 70e9 params x 480,000 tokens/s / (512 GPUs x 989e12 FLOP/s dense BF16) = 0.39813
    assert added[0].value == pytest.approx(6 * 70e9 * 480_000 / (512 * 989e12), rel=1e-4)
    # Issue 31: a typed table is a claim whoever measured it (row 1 a third party, row 3 the provider).
    assert added[0].scale_gpus == 512 and added[0].grade is EvidenceGrade.PROVIDER_CLAIM
    assert added[0].measured_by == "third_party"
    # Row 3 states its MFU against the dense peak and was measured by the provider.
    assert added[2].value == pytest.approx(0.41) and added[2].grade is EvidenceGrade.PROVIDER_CLAIM
    assert "3 figures" in page.status.text()


def test_flags_and_unusable_logs_are_shown(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    page = _evidence_page(wizard)
    page.attach_files([DATA / "wrong_na.log"])  # rows print '#wrong' as N/A: checking was off
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=HANG_GUARD_MS)
    flags = page.table.item(0, 5).text()  # checking off, and no NCCL INFO lines: both in words
    assert (
        flags.startswith("results were not checked (#wrong is N/A); ")
        and "NCCL_DEBUG=INFO" in flags
    )
    assert page.table.item(0, 5).toolTip().startswith("results were not checked (#wrong is N/A)")
    page.attach_files(
        [DATA / "truncated.log"]
    )  # its last row stops after 7 of 13 columns (line 61)
    qtbot.waitUntil(lambda: page.pending == 0, timeout=HANG_GUARD_MS)
    assert page.status.text().startswith("Not attached: truncated.log line 61: expected 13 columns")
    page.attach_files([DATA / "all_gather.log"])
    qtbot.waitUntil(lambda: page.pending == 0, timeout=HANG_GUARD_MS)
    assert page.status.text() == (
        "Not attached: all_gather.log: no figure the cost model can use (run 1 (line 2): "
        "all_gather is shown but not scored (the cost model uses all_reduce busbw))"
    )
    page.attach_files([DATA / "public" / "SOURCES.md"])
    qtbot.waitUntil(lambda: page.pending == 0, timeout=HANG_GUARD_MS)
    assert "no nccl-tests result rows found" in page.status.text()


def test_typed_figure_rules(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    form = _evidence_page(wizard).form
    b = form.bindings
    choose(qtbot, b["kind"].widget, EvidenceKind.TRAINING_MFU)
    assert b["unit"].read() == "fraction"
    type_into(qtbot, b["value"].widget, "42")
    type_into(qtbot, b["scale_gpus"].widget, "512")
    assert form.form_error.text() == "MFU is a fraction of dense peak: enter 0.42 for 42%"
    assert not form.add_button.isEnabled()
    type_into(qtbot, b["value"].widget, "0.42")
    assert form.add_button.isEnabled()
    choose(qtbot, b["grade"].widget, EvidenceGrade.MEASURED_PROVIDER)
    assert b["grade"].error.text() == (
        "Grade 'measured by the provider' needs the raw artefact attached "
        "(attach the log or report file); without it the figure is a 'provider's claim, no raw "
        "data'"
    )
    choose(qtbot, b["grade"].widget, EvidenceGrade.PROVIDER_CLAIM)
    qtbot.mouseClick(form.add_button, Qt.MouseButton.LeftButton)
    assert wizard.result_bid().evidence[-1].value == 0.42
    assert wizard.evidence_page.table.item(0, 4).text() == "typed"


def test_a_logs_grade_follows_who_ran_it(qtbot, open_wizard, evaluation):
    """No grade to pick beside who measured: the provider's run is 'measured by the provider', the
    buyer's own run 'measured independently' (methodology section 5), so they cannot contradict."""
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    page = _evidence_page(wizard)
    assert not hasattr(page, "grade")
    page.measured_by.setCurrentIndex(page.measured_by.findData("buyer"))
    page.attach_files([REAL_LOG])
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=HANG_GUARD_MS)
    assert wizard.result_bid().evidence[-1].grade is EvidenceGrade.MEASURED_INDEPENDENT
    assert page.table.item(0, 2).text() == "measured independently"


def test_draft_survives_a_wizard_destroyed_without_finishing(
    qtbot, open_wizard, evaluation, draft_path, monkeypatch
):
    monkeypatch.setattr(dialogs, "confirm", lambda *_args: True)  # "Discard this bid?" -> yes
    first = BidWizard(
        evaluation, None, draft_store=DraftStore(draft_path)
    )  # not owned by qtbot: we kill it
    first.show()
    type_into(qtbot, field(first, "quote", "provider").widget, "Crashy Cloud")
    type_into(qtbot, field(first, "quote", "reference").widget, "CR-7")
    qtbot.waitUntil(
        lambda: draft_path.exists() and "CR-7" in draft_path.read_text(), timeout=HANG_GUARD_MS
    )
    shiboken6.delete(first)  # no Finish, no Cancel: as if the app had died
    assert json.loads(draft_path.read_text())["values"]["quote"]["provider"] == "Crashy Cloud"

    second = open_wizard()
    assert second.draft_banner.isVisibleTo(second)
    assert (
        "Crashy Cloud" in second.draft_banner.findChild(type(second.quote_page.page_error)).text()
    )
    qtbot.mouseClick(
        second.draft_banner.findChild(QPushButton, "restore_draft"), Qt.MouseButton.LeftButton
    )
    assert field(second, "quote", "provider").read() == "Crashy Cloud"
    assert field(second, "quote", "reference").read() == "CR-7"
    second.reject()
    assert not draft_path.exists()  # cancel clears it


def test_a_bid_id_already_used_is_caught_on_the_first_page(qtbot, open_wizard, evaluation):
    wizard = open_wizard()
    type_into(qtbot, field(wizard, "id").widget, evaluation.bids[0].id)
    assert "already uses the id" in field(wizard, "id").error.text()
    assert not next_enabled(wizard)


def test_edit_bid_dialog_returns_none_on_cancel_and_the_bid_on_finish(
    qtbot, evaluation, draft_path
):
    store = DraftStore(draft_path)

    def close_with(accept: bool) -> None:
        wizard = QApplication.activeModalWidget()
        if wizard is None:
            QTimer.singleShot(20, lambda: close_with(accept))
            return
        wizard.accept() if accept else wizard.reject()

    QTimer.singleShot(50, lambda: close_with(False))
    assert edit_bid_dialog(None, evaluation, evaluation.bids[1], draft_store=store) is None
    QTimer.singleShot(50, lambda: close_with(True))
    assert (
        edit_bid_dialog(None, evaluation, evaluation.bids[1], draft_store=store)
        == evaluation.bids[1]
    )


def test_a_log_over_tcp_sockets_is_flagged_against_the_bids_infiniband_in_the_wizard_too(
    qtbot, open_wizard, evaluation
):
    """Issue 17: the wizard reads logs with the same core reader as `clusterbid evidence`, the bid's
    fabric included. northwind-ib offers IB-NDR400 with GPUDirect RDMA; socket_2x8.log's NCCL INFO
    lines say NET/Socket (tests/data/nccl-tests/README.md), so it is flagged as on the command line.
    Its busbw, 13.60 GB/s x 30/16 = 25.50 GB/s, is the row's own figure."""
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    page = _evidence_page(wizard)
    page.attach_files([DATA / "socket_2x8.log"])
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=HANG_GUARD_MS)
    assert page.table.item(0, 0).text() == "all-reduce bus bandwidth (nccl-tests): 25.5 GB/s"
    assert "NCCL used TCP sockets (NET/Socket)" in page.table.item(0, 5).text()
