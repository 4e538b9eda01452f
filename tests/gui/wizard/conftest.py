"""Wizard fixtures: the demo evaluation, a draft file in tmp_path, and keyboard/mouse helpers."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QWizard

from clusterbid.core.demo import demo_evaluation
from clusterbid.gui.wizard import BidWizard, DraftStore

REAL_LOG = (
    Path(__file__).resolve().parents[2]
    / "data"
    / "nccl-tests"
    / "public"
    / "all_reduce_2x8xH100_tcpxo.log"
)
DATA = Path(__file__).resolve().parents[2] / "data" / "nccl-tests"


@pytest.fixture
def evaluation():
    return demo_evaluation()


@pytest.fixture
def draft_path(tmp_path) -> Path:
    return tmp_path / "draft" / "bid-wizard-draft.json"


@pytest.fixture
def open_wizard(qtbot, evaluation, draft_path):
    """Open a shown wizard (new bid unless `bid` is given); closed without hanging at teardown."""

    def open_(bid=None, duplicate=False, ev=None):
        wizard = BidWizard(
            ev or evaluation, bid, duplicate=duplicate, draft_store=DraftStore(draft_path)
        )
        qtbot.addWidget(wizard)
        wizard.show()
        qtbot.waitExposed(wizard)
        return wizard

    return open_


def type_into(qtbot, widget, text: str) -> None:
    """Focus the field, select what is there and type over it, as an officer would."""
    widget.setFocus()
    widget.selectAll()
    if text:
        qtbot.keyClicks(widget, text)
    elif isinstance(widget, QAbstractSpinBox):
        # A required spin box is emptied by stepping below the model's minimum, to the blank "—".
        for _ in range(1000):
            if widget.value() == widget.minimum():
                break
            qtbot.keyClick(widget, Qt.Key.Key_PageDown)
    else:
        qtbot.keyClick(widget, Qt.Key.Key_Delete)


def choose(qtbot, combo: QComboBox, data) -> None:
    """Pick an entry with the arrow keys."""
    target = combo.findData(data)
    assert target >= 0, data
    combo.setFocus()
    while combo.currentIndex() < target:
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    while combo.currentIndex() > target:
        qtbot.keyClick(combo, Qt.Key.Key_Up)
    assert combo.currentIndex() == target


def field(wizard, *path: str):
    page = next(p for p in wizard.section_pages() if any(b.path == path for b in p.bindings))
    return page.binding(*path)


def click_next(qtbot, wizard) -> None:
    button = wizard.button(QWizard.WizardButton.NextButton)
    assert button.isEnabled(), [p.message for p in wizard.checked.problems]
    before = wizard.currentId()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert wizard.currentId() == before + 1


def next_enabled(wizard) -> bool:
    return wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def error_text(wizard, *path: str) -> str:
    binding = field(wizard, *path)
    return binding.error.text() if binding.error.isVisibleTo(wizard) else ""
