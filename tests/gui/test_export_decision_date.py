"""The Export dialog asks for the decision date page 1 records (issue 38 item 3): today unless the
officer gives the approval meeting's date, which goes into the memo's request as typed."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.gui.memo.export_dialog import MemoExportDialog


def test_the_decision_date_defaults_to_today_and_takes_the_meetings_date(qtbot):
    dialog = MemoExportDialog(score_evaluation(demo_evaluation()))
    qtbot.addWidget(dialog)
    dialog.add_approver("Ada Lovelace", "CFO")
    assert dialog.build_request().decision_date == dt.date.today()
    dialog.decision_date.setDate(QDate(2027, 1, 15))
    assert dialog.build_request().decision_date == dt.date(2027, 1, 15)
