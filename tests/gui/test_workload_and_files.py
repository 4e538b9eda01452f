"""The workload editor, drag-and-drop, exports, help, zoom and what the app remembers."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QToolButton
from tests.conftest import REPO, bid_dict
from tests.gui.conftest import wait_for_scoring, wait_for_serving_scores
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.bid import Bid
from clusterbid.core.interchange import write_template_csv
from clusterbid.gui import dialogs
from clusterbid.gui.app import open_main_window
from clusterbid.gui.file_commands import dropped_paths
from clusterbid.gui.help_dialogs import MethodologyDialog

REAL_OPEN_FILE, REAL_SAVE_FILE = (
    dialogs.open_file,
    dialogs.save_file,
)  # before any fixture replaces them

PUBLIC_LOG = REPO / "tests" / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"


def _type(qtbot, editor, text: str) -> None:
    editor.setFocus()
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    qtbot.keyClicks(editor, text)


def test_workload_editor_explains_bad_values_beside_the_field(qtbot, window):
    window.show_workload_editor()
    editor = window.workload_editor
    jobs = editor.editors["job_gpus"]
    _type(qtbot, jobs, "lots")
    assert editor.errors["job_gpus"].isVisible()
    assert "whole number" in editor.errors["job_gpus"].text()
    assert not editor.apply_button.isEnabled()
    # The demo runs TP 8 x PP 4 x CP 1 = 32 GPUs per model replica; 500 / 32 is not whole.
    _type(qtbot, jobs, "500")
    assert "multiple of TP x PP x CP" in editor.errors["job_gpus"].text()
    # Said with the pane's own label, not the model's field id (issue 38 item 6).
    assert "Planned job size (GPUs) (500)" in editor.errors["job_gpus"].text()
    assert "job_gpus" not in editor.errors["job_gpus"].text()
    mfu = editor.editors["baseline_mfu"]
    _type(qtbot, mfu, "0.9")
    assert "must be at most 0.85" in editor.errors["baseline_mfu"].text()


def test_workload_editor_shows_derived_numbers_live_and_applies(qtbot, window):
    window.show_workload_editor()
    editor = window.workload_editor
    _type(qtbot, editor.editors["job_gpus"], "1024")
    # DP = 1024 / (TP 8 x PP 4 x CP 1) = 32; compute 6 x 70e9 x 1.4e12 = 5.88e23 FLOPs, x the
    # demo's attention term 1 + 12 l s h / 6N = 1 + 12 x 80 x 4096 x 8192 / 4.2e11 = 1.0767: 6.33e23.
    text = editor.derived.text()
    assert "<b>DP degree</b> 32<br>" in text and "6.33 × 10²³ FLOPs" in text
    # Model state per GPU: 70e9 / (8 x 4) params x (2 + 4 + 12 / 32) bytes = 13.9 GB.
    assert "13.9 GB" in text
    qtbot.mouseClick(editor.apply_button, Qt.MouseButton.LeftButton)
    wait_for_scoring(qtbot, window)
    assert window.session.document.evaluation.workload.job_gpus == 1024
    assert "1,024 GPUs" in window.summary.text()
    window.session.undo_stack.undo()
    assert window.session.document.evaluation.workload.job_gpus == 512
    assert editor.editors["job_gpus"].text() == "512"


def _drop(window, path: Path) -> None:
    # Qt only routes a Drop through QApplication during a real drag, so the window's handlers are
    # called with the events a file manager's drag would deliver.
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    enter = QDragEnterEvent(
        QPoint(200, 200),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dragEnterEvent(enter)
    assert enter.isAccepted()
    drop = QDropEvent(
        QPointF(200, 200),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(drop)
    assert drop.isAccepted()


def test_dropping_a_bid_sheet_imports_it(qtbot, window, tmp_path):
    sheet = write_template_csv(tmp_path / "dropped.csv", [Bid.model_validate(bid_dict("dropped"))])
    _drop(window, sheet)
    qtbot.waitUntil(
        lambda: "Provider dropped" in window.comparison.provider_order(), timeout=HANG_GUARD_MS
    )


def test_dropping_an_nccl_log_shows_what_was_read(qtbot, window, dialog_log):
    _drop(window, PUBLIC_LOG)
    qtbot.waitUntil(lambda: bool(dialog_log.shown), timeout=HANG_GUARD_MS)
    kind, title, text = dialog_log.shown[-1]
    assert kind == "info" and PUBLIC_LOG.name in title
    # The log's rows at >= 1 GiB peak at 338.82 GB/s busbw (8 GiB, out-of-place): the plateau.
    assert "all_reduce" in text and "338.82 GB/s" in text and "16 ranks" in text
    assert window.charts.inputs["nccl_result"].plateau.busbw_gb_s == 338.82


def test_dropping_a_broken_log_says_which_line(qtbot, window, dialog_log, tmp_path):
    log = tmp_path / "broken.log"
    log.write_text("hello\nthis is not nccl output\n")
    _drop(window, log)
    qtbot.waitUntil(lambda: bool(dialog_log.shown), timeout=HANG_GUARD_MS)
    assert (
        dialog_log.shown[-1][0] == "problem"
        and "no nccl-tests result rows" in dialog_log.shown[-1][2]
    )


def test_drag_enter_accepts_only_files_it_can_read(window, tmp_path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path / "photo.png"))])
    assert dropped_paths(mime) == []
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path / "bids.XLSX"))])
    assert [p.name for p in dropped_paths(mime)] == ["bids.XLSX"]


def test_export_comparison_writes_the_ranking(qtbot, window, dialog_log, tmp_path):
    target = tmp_path / "comparison.xlsx"
    dialog_log.answers.append(str(target))
    qtbot.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    # written on the window's runner by the operation `clusterbid export` runs
    qtbot.waitUntil(lambda: not window.tasks.is_busy("comparison export"), timeout=HANG_GUARD_MS)
    assert window.statusBar().currentMessage() == f"Exported the comparison to {target}"
    sheet = openpyxl.load_workbook(target).active
    header = [c.value for c in sheet[3]]
    first = dict(zip(header, [c.value for c in sheet[4]]))
    assert first["provider"] == "Northwind AI Cloud" and first["rank"] == 1


def test_methodology_renders_the_shared_markdown(qtbot):
    dialog = MethodologyDialog()
    qtbot.addWidget(dialog)
    text = dialog.browser.toPlainText()
    assert "How ClusterBid scores a bid" in text and "Gates" in text
    assert "##" not in text  # rendered, not shown as source


def test_presentation_zoom_scales_fonts_and_is_remembered(qtbot, window, app_settings):
    before = QApplication.font().pointSizeF()
    qtbot.keyClick(window, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.font().pointSizeF() > before
    assert app_settings.zoom() == 1.15
    from clusterbid.core import charts

    # Charts follow the zoom (their text grows too) and the window's light or dark palette.
    assert window.charts.chart_style(charts).font_scale == 1.15
    assert window.charts.chart_style(charts).dark is False
    dark = window.charts.palette()
    dark.setColor(dark.ColorRole.Window, Qt.GlobalColor.black)
    window.charts.setPalette(dark)
    assert window.charts.chart_style(charts).dark is True
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.font().pointSizeF() == before
    assert window.charts.chart_style(charts).font_scale == 1.0


def test_first_run_opens_a_kept_copy_of_the_demo_then_the_last_evaluation(qtbot, app_settings):
    first = open_main_window(None, app_settings)
    qtbot.addWidget(first)
    assert first.session.document.path == app_settings.demo_path()
    first.session.apply(
        first.session.evaluation.model_validate(
            {**first.session.evaluation.model_dump(), "title": "Kept title"}
        ),
        "rename",
    )
    first.resize(700, 500)
    first.close()
    again = open_main_window(None, app_settings)
    qtbot.addWidget(again)
    assert again.session.document.path == app_settings.demo_path()
    assert again.size().width() == 700  # geometry remembered
    assert app_settings.recent_files() == [app_settings.demo_path().resolve()]
    again.close()


def test_a_bad_file_at_start_up_opens_the_last_evaluation_and_says_why(
    qtbot, app_settings, tmp_path
):
    result = open_main_window(tmp_path / "gone.clusterbid", app_settings)
    qtbot.addWidget(result)
    assert result.session.document.path == app_settings.demo_path()  # first run: the demo's copy
    message = result.statusBar().currentMessage()
    assert "Could not open gone.clusterbid" in message and "Showing" in message
    result.close()


def test_an_untouched_workload_offers_nothing_to_apply(window):
    # The demo's job name contains a comma; reading the form back must not change it.
    window.show_workload_editor()
    assert "," in window.session.evaluation.workload.name
    assert window.workload_editor.validated() == window.session.evaluation.workload
    assert not window.workload_editor.apply_button.isEnabled()


def test_a_serving_evaluation_opens_ranked_by_cost_per_million_tokens(qtbot, window, app_settings):
    from clusterbid.core.documents import read_evaluation
    from clusterbid.core.serving_scoring import score_serving_evaluation

    serving = REPO / "resources" / "examples" / "demo-serving-evaluation.json"
    before = window.session.document.path
    assert window.evaluations.open_evaluation(serving)
    shown = window.evaluations.serving_window
    assert window.session.document.path == before  # the training evaluation stays open beside it
    wait_for_serving_scores(qtbot, shown)
    table = shown.table
    headers = [
        table.horizontalHeaderItem(c).text().replace("\n", " ") for c in range(table.columnCount())
    ]
    per_million = headers.index("Point cost per million tokens")
    expected = score_serving_evaluation(read_evaluation(serving))
    first = expected.ranked[0]
    # Seed 003's lesson, checked by hand in tests/core/serving: the H200 bid beats the cheaper-per-hour H100.
    assert first.bid.capacity.gpu_model == "H200-SXM"
    assert table.item(0, 1).text() == first.bid.quote.provider
    # Money as the training window prints it: the currency sign, thousands commas, to the cent.
    assert table.item(0, per_million).text() == f"${first.estimate.cost_per_million_tokens:,.2f}"
    band = expected.band(first.bid.id)
    assert table.item(0, headers.index("Likely range (P10 – P90)")).text() == (
        f"${band.cost_per_million[0]:.2f} – ${band.cost_per_million[2]:.2f}"
    )
    # What the ranking leaves out for room is in the selected bid's Details, to the cent.
    table.selectRow(0)
    details = shown.details.toPlainText()
    assert f"Cost per month: ${first.estimate.monthly_cost:,.2f}" in details
    assert f"Price per GPU-hour: ${first.estimate.price_per_gpu_hour:,.2f}" in details
    last = table.rowCount() - 1
    assert (
        table.item(last, 0).text() == "—"
        and table.item(last, headers.index("Gates")).text() == "Cannot serve"
    )
    assert "peak traffic" in table.item(last, headers.index("Gates")).toolTip()
    # northwind-ib itemises $0.55 of its $2.90 for the fabric: 0.55 / 2.90 = 19% paid for a fabric serving never uses.
    assert (
        "0.55 of the 2.90 USD per GPU-hour (19%) pays for a training-grade fabric"
        in shown.findings.toPlainText()
    )
    shown.close()


def test_a_new_evaluation_starts_empty_with_the_current_job_and_scores(
    qtbot, window, dialog_log, tmp_path
):
    job = window.session.evaluation.workload
    dialog_log.answers.append(str(tmp_path / "round-2"))
    window.actions_.new.trigger()
    assert window.session.document.path == tmp_path / "round-2.clusterbid"
    assert window.session.evaluation.bids == () and window.session.evaluation.workload == job
    wait_for_scoring(qtbot, window)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    assert window.model.rowCount() == 0
    assert not window.statusBar().currentMessage().startswith("Scoring failed")
    # The empty table says what to do next, with buttons for it; the first bid takes its place.
    hint = window.comparison.empty_hint
    assert hint.isVisible() and "No bids yet" in hint.text.text()
    assert (
        "Add Bid (Ctrl+Shift+N)" in hint.text.text() and "Import Bids (Ctrl+I)" in hint.text.text()
    )
    buttons = {b.defaultAction() for b in hint.findChildren(QToolButton)}
    assert buttons == {
        window.actions_.edit_workload,
        window.actions_.add_bid,
        window.actions_.import_bids,
    }
    window.session.apply(
        window.session.evaluation.model_validate(
            {**window.session.evaluation.model_dump(), "bids": [bid_dict()]}
        ),
        "add a bid",
    )
    wait_for_scoring(qtbot, window)
    assert window.model.rowCount() == 1 and not hint.isVisible()


def test_two_serving_windows_stay_open_and_neither_becomes_the_last_evaluation(
    qtbot, window, app_settings
):
    serving = REPO / "resources" / "examples" / "demo-serving-evaluation.json"
    last = app_settings.last_evaluation()
    assert window.evaluations.open_evaluation(serving) and window.evaluations.open_evaluation(
        serving
    )
    first, second = window.evaluations.serving_windows
    assert first.isVisible() and second.isVisible() and first.document is not second.document
    assert (
        app_settings.last_evaluation() == last
    )  # a plain relaunch still opens the training window
    first_document = first.document
    first.close()
    qtbot.waitUntil(lambda: window.evaluations.serving_windows == [second], timeout=HANG_GUARD_MS)
    assert first_document.is_closed  # closed with its window, not left open behind a deleted one
    second.close()


def test_workload_inputs_keep_their_source_and_an_edited_one_becomes_the_buyers(qtbot, window):
    """Issue 14: a default stays a default until the buyer changes it; then it is the buyer's."""
    from clusterbid.core.workload import Workload

    data = window.session.evaluation.workload.model_dump(mode="json", exclude={"provenance"})
    del data["restart_minutes"]  # left to ClusterBid's default (15 minutes)
    window.session.apply(
        window.session.evaluation.model_copy(update={"workload": Workload.model_validate(data)}),
        "Workload without a restart time",
    )
    assert window.session.evaluation.workload.provenance["restart_minutes"].kind == "default"
    window.show_workload_editor()
    editor = window.workload_editor
    _type(qtbot, editor.editors["dp_comm_overlap"], "0.6")
    qtbot.mouseClick(editor.apply_button, Qt.MouseButton.LeftButton)
    wait_for_scoring(qtbot, window)
    workload = window.session.document.evaluation.workload
    assert workload.dp_comm_overlap == 0.6
    assert workload.provenance["dp_comm_overlap"].kind == "assumption"
    assert workload.provenance["restart_minutes"].kind == "default"


def test_file_dialogs_open_in_the_folder_last_used_for_that_kind_of_file(
    qtbot, window, tmp_path, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog

    from clusterbid.gui.settings import AppSettings

    # The window fixture replaced the dialogs; the real ones (kept at import) are tested here.
    (tmp_path / "bids").mkdir()
    (tmp_path / "exports").mkdir()
    started = []
    answers = iter(
        [str(tmp_path / "bids" / "northwind.xlsx"), str(tmp_path / "exports" / "cmp.xlsx"), "", ""]
    )

    def fake(_parent, _title, start, _filters):
        started.append(start)
        return next(answers), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", fake)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake)
    REAL_OPEN_FILE(window, "Import bids", dialogs.BID_FILES)
    REAL_SAVE_FILE(window, "Export", "comparison.xlsx", "Tables (*.xlsx *.csv)")
    REAL_OPEN_FILE(window, "Import bids", dialogs.BID_FILES)  # cancelled: remembers nothing new
    REAL_SAVE_FILE(window, "Export", "comparison.xlsx", "Tables (*.xlsx *.csv)")
    assert started == [
        "",
        "comparison.xlsx",
        str(tmp_path / "bids"),
        str(tmp_path / "exports" / "comparison.xlsx"),
    ]
    window.settings.sync()
    again = AppSettings.in_folder(
        tmp_path / "profile"
    )  # the fixture's profile, as a restarted app reads it
    assert again.last_folder(dialogs.BID_FILES) == tmp_path / "bids"
