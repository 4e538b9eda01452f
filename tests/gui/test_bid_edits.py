"""Bids edited as an officer would: delete and undo, import a sheet, edit through the wizard."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard
from tests.conftest import bid_dict
from tests.gui.conftest import wait_for_scoring
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.bid import Bid
from clusterbid.core.interchange import write_template_csv, write_template_xlsx
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import bid_commands
from clusterbid.gui.comparison.scorecard_table_model import PRICE, RANK
from clusterbid.gui.wizard import BidWizard


def _on_disk(window) -> list[str]:
    # A second connection reads what was committed, not what the window holds in memory.
    with EvaluationDocument.open(window.session.document.path) as other:
        return [b.id for b in other.evaluation.bids]


def test_delete_key_removes_the_selected_bid_and_undo_brings_it_back(qtbot, window):
    window.comparison.select_bid("cumulus-roce")
    window.comparison.setFocus()
    qtbot.keyClick(window.comparison, Qt.Key.Key_Delete)
    wait_for_scoring(qtbot, window)
    assert "Cumulus Compute" not in window.comparison.provider_order()
    assert "cumulus-roce" not in _on_disk(window)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_for_scoring(qtbot, window)
    assert "Cumulus Compute" in window.comparison.provider_order()
    assert "cumulus-roce" in _on_disk(window)
    qtbot.keyClick(
        window,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    wait_for_scoring(qtbot, window)
    assert "cumulus-roce" not in _on_disk(window)  # redo (Ctrl+Shift+Z) deletes it again


def _import(qtbot, window, dialog_log, path: Path) -> None:
    dialog_log.answers.append(str(path))
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)  # File > Import Bids
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    wait_for_scoring(qtbot, window)


def test_importing_a_filled_csv_adds_the_bid_ranked(qtbot, window, dialog_log, tmp_path):
    sheet = write_template_csv(tmp_path / "bids.csv", [Bid.model_validate(bid_dict("acme"))])
    _import(qtbot, window, dialog_log, sheet)
    assert dialog_log.shown == []
    assert "Provider acme" in window.comparison.provider_order()
    assert "acme" in _on_disk(window)
    window.session.undo_stack.undo()
    assert "acme" not in _on_disk(window)


def test_importing_the_xlsx_template_with_two_bids(qtbot, window, dialog_log, tmp_path):
    bids = [
        Bid.model_validate(bid_dict("x1")),
        Bid.model_validate(bid_dict("x2", terms={"price_per_gpu_hour": "1.10"})),
    ]
    sheet = write_template_xlsx(tmp_path / "bids.xlsx", bids)
    _import(qtbot, window, dialog_log, sheet)
    assert {"Provider x1", "Provider x2"} <= set(window.comparison.provider_order())
    assert window.session.undo_stack.count() == 1  # one import, one undo step


def test_an_imported_sheet_its_undo_and_redo_are_one_audit_row_each(
    qtbot, window, dialog_log, tmp_path
):
    bids = [Bid.model_validate(bid_dict(f"s{i}")) for i in range(3)]
    _import(qtbot, window, dialog_log, write_template_xlsx(tmp_path / "bids.xlsx", bids))
    document = window.session.document
    rows_before = len(document.audit_rows())
    window.session.undo_stack.undo()
    window.session.undo_stack.redo()
    # Undo and redo are committed behind (issue 32): the session's document is the one read once
    # every edit made is written.
    new_rows = window.session.document.audit_rows()[rows_before:]
    assert [row.action for row in new_rows] == [
        "edit",
        "edit",
    ]  # not three remove_bid and three add_bid
    assert [json.loads(row.new_json)["label"].split()[0] for row in new_rows] == ["Undo", "Redo"]
    assert {"s0", "s1", "s2"} <= set(_on_disk(window))


def test_a_sheet_with_a_bad_cell_imports_nothing_and_names_the_cell(
    qtbot, window, dialog_log, tmp_path
):
    sheet = write_template_csv(tmp_path / "bids.csv", [Bid.model_validate(bid_dict("bad"))])
    text = sheet.read_text(encoding="utf-8-sig")
    sheet.write_text(text.replace(",512,8,512,", ",512,8,-5,", 1), encoding="utf-8")
    _import(qtbot, window, dialog_log, sheet)
    kind, title, message = dialog_log.shown[-1]
    assert kind == "problem" and title == "Nothing was imported"
    assert "largest_contiguous_block_gpus" in message
    assert "bad" not in _on_disk(window) and len(_on_disk(window)) == 6


def test_importing_a_bid_whose_id_is_taken_is_refused_whole(qtbot, window, dialog_log, tmp_path):
    sheet = write_template_csv(
        tmp_path / "bids.csv", [Bid.model_validate(bid_dict("northwind-ib"))]
    )
    _import(qtbot, window, dialog_log, sheet)
    assert "used twice" in dialog_log.shown[-1][2]
    assert len(_on_disk(window)) == 6


def test_duplicate_makes_a_copy_with_a_new_id(qtbot, window):
    window.comparison.select_bid("legacy-a100")
    qtbot.keyClick(window.comparison, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    wait_for_scoring(qtbot, window)
    assert "legacy-a100-copy" in _on_disk(window)
    assert window.comparison.selected_bid_id() == "legacy-a100-copy"


def test_a_bid_typed_into_the_real_wizard_appears_ranked(qtbot, window, monkeypatch):
    from tests.gui.wizard.test_walkthrough import _fill_complete_bid

    def walk(wizard) -> int:
        wizard.show()
        qtbot.waitExposed(wizard)
        _fill_complete_bid(qtbot, wizard)
        qtbot.mouseClick(
            wizard.button(QWizard.WizardButton.FinishButton), Qt.MouseButton.LeftButton
        )
        return wizard.result()

    monkeypatch.setattr(BidWizard, "exec", walk)
    window.actions_.add_bid.trigger()
    wait_for_scoring(qtbot, window)
    assert "walk" in _on_disk(window)
    row = window.model.row_of("walk")
    # An H100 bid on non-blocking NDR400 with a 512-GPU block passes every gate, so it is ranked.
    assert window.model.index(row, RANK).data().isdigit()
    assert window.comparison.selected_bid_id() == "walk"
    assert window.session.undo_stack.undoText() == "Add bid walk"


def test_the_wizard_result_replaces_the_bid_and_undo_restores_it(qtbot, window, monkeypatch):
    seen = {}

    def fake_wizard(parent, evaluation, bid, **_options):
        seen["bid"] = bid
        data = bid.model_dump()
        data["terms"]["price_per_gpu_hour"] = "2.10"
        return Bid.model_validate(data)

    monkeypatch.setattr(bid_commands, "load_bid_wizard", lambda: fake_wizard)
    window.comparison.select_bid("northwind-ib")
    window.actions_.edit_bid.trigger()
    wait_for_scoring(qtbot, window)
    assert seen["bid"].id == "northwind-ib"
    row = window.model.row_of("northwind-ib")
    assert window.model.index(row, PRICE).data() == "$2.10"
    window.session.undo_stack.undo()
    wait_for_scoring(qtbot, window)
    assert (
        window.model.index(window.model.row_of("northwind-ib"), PRICE).data() == "$2.85"
    )  # the demo's price


def test_a_cancelled_wizard_changes_nothing(qtbot, window, monkeypatch):
    monkeypatch.setattr(
        bid_commands, "load_bid_wizard", lambda: lambda parent, evaluation, bid, **_options: None
    )
    window.actions_.add_bid.trigger()
    assert window.session.undo_stack.count() == 0


def test_a_log_attached_in_the_wizard_is_kept_in_the_document_with_the_edit(
    qtbot, window, monkeypatch
):
    """Issue 15: the wizard stored the figure but not the file, while `clusterbid evidence attach`
    keeps both. Now the raw log goes into the document in the same transaction as the bid edit."""
    import hashlib

    from PySide6.QtWidgets import QDialog
    from tests.gui.wizard.conftest import REAL_LOG

    def drive(wizard: BidWizard) -> int:
        wizard.show()  # as exec() would: a wizard has no current page before it is shown
        qtbot.waitExposed(wizard)
        while wizard.currentPage() is not wizard.evidence_page:
            wizard.next()
        wizard.evidence_page.attach_files([REAL_LOG])
        qtbot.waitUntil(
            lambda: (
                wizard.evidence_page.pending == 0
                and wizard.result_bid() is not None
                and len(wizard.result_bid().evidence) > len(before.evidence)
            ),
            timeout=HANG_GUARD_MS,
        )
        wizard.hide()
        return QDialog.DialogCode.Accepted

    before = next(b for b in window.session.evaluation.bids if b.id == "northwind-ib")
    monkeypatch.setattr(BidWizard, "exec", drive)
    window.comparison.select_bid("northwind-ib")
    window.actions_.edit_bid.trigger()
    wait_for_scoring(qtbot, window)

    document = window.session.document
    expected_sha = hashlib.sha256(REAL_LOG.read_bytes()).hexdigest()
    (kept,) = document.artefacts()
    assert (kept.name, kept.sha256, kept.bid_id, kept.size) == (
        REAL_LOG.name,
        expected_sha,
        "northwind-ib",
        REAL_LOG.stat().st_size,
    )
    assert document.artefact_bytes(kept.id) == REAL_LOG.read_bytes()
    edited = next(b for b in window.session.evaluation.bids if b.id == "northwind-ib")
    assert edited.evidence[-1].artefact_sha256 == expected_sha
    rows = document.audit_rows()
    assert [r.action for r in rows[-2:]] == [
        "attach_artefact",
        "edit",
    ]  # one commit: file first, then the bid
    assert document.audit_now().ok

    window.session.undo_stack.undo()  # the figure goes; the file stays, as the trail records it
    assert (
        next(b for b in window.session.evaluation.bids if b.id == "northwind-ib").evidence
        == before.evidence
    )
    # Undo and redo return before their commits (the commit lane): read through the session,
    # which waits for them, not the document itself, which the lane may be writing.
    assert len(window.session.document.artefacts()) == 1
    window.session.undo_stack.redo()  # and is not stored twice
    assert len(window.session.document.artefacts()) == 1 and document.audit_now().ok


def _by_id(evaluation, bid_id: str):
    return next(b for b in evaluation.bids if b.id == bid_id)


def test_editing_only_a_figures_source_is_one_undo_step_and_one_audit_row(
    qtbot, window, monkeypatch
):
    """Issue 14: provenance alone is an edit like any other (the figures stay the same)."""

    def fake_wizard(parent, evaluation, bid, **_options):
        data = bid.model_dump(mode="json")
        data["provenance"]["reliability.node_replacement_hours"] = {
            "kind": "provider",
            "reference": "p.4",
        }
        return Bid.model_validate(data)

    monkeypatch.setattr(bid_commands, "load_bid_wizard", lambda: fake_wizard)
    document = window.session.document
    rows_before, steps_before = len(document.audit_rows()), window.session.undo_stack.count()
    source_before = _by_id(window.session.evaluation, "northwind-ib").provenance[
        "reliability.node_replacement_hours"
    ]
    assert source_before.reference != "p.4"
    window.comparison.select_bid("northwind-ib")
    window.actions_.edit_bid.trigger()
    wait_for_scoring(qtbot, window)
    assert window.session.undo_stack.count() == steps_before + 1
    rows = document.audit_rows()[rows_before:]
    assert [row.action for row in rows] == ["replace_bid"]
    new = json.loads(rows[0].new_json)  # the audit row holds the new source
    assert new["provenance"]["reliability.node_replacement_hours"]["reference"] == "p.4"

    def reopened_source():
        with EvaluationDocument.open(document.path) as other:
            return _by_id(other.evaluation, "northwind-ib").provenance[
                "reliability.node_replacement_hours"
            ]

    assert reopened_source().reference == "p.4"
    window.session.undo_stack.undo()
    wait_for_scoring(qtbot, window)
    assert reopened_source() == source_before
    assert len(document.audit_rows()) == rows_before + 2  # the edit and its undo
