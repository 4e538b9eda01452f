"""The workload editor offers the training software stack in words (issue 36 item 1); leaving it
keeps ClusterBid's default, choosing one makes it the buyer's statement."""

from __future__ import annotations

from PySide6.QtCore import Qt
from tests.gui.conftest import wait_for_scoring


def test_the_stack_is_chosen_in_words_and_becomes_the_buyer_s_statement(qtbot, window):
    window.show_workload_editor()
    editor = window.workload_editor
    combo = editor.editors["software_stack"]
    shown = [combo.itemText(i) for i in range(combo.count())]
    assert shown[0] == "Not stated"
    assert "Megatron-Core, 2024 and later" in shown
    assert not any("-" in text and " " not in text for text in shown)  # no identifiers
    assert window.session.evaluation.workload.provenance["software_stack"].kind == "default"
    combo.setCurrentIndex(combo.findData("megatron-core-2024"))
    qtbot.mouseClick(editor.apply_button, Qt.MouseButton.LeftButton)
    wait_for_scoring(qtbot, window)
    workload = window.session.document.evaluation.workload
    assert workload.software_stack == "megatron-core-2024"
    assert workload.provenance["software_stack"].kind == "assumption"


def test_an_unstated_interleave_stays_unstated_after_another_edit(qtbot, window):
    """Issue 36 item 4: the form shows the stored depth; applying another change must not make
    it the buyer's statement, or the best-schedule default would silently stop applying."""
    from clusterbid.core.workload import Workload

    data = window.session.evaluation.workload.model_dump(mode="json", exclude={"provenance"})
    del data["virtual_pipeline_stages"]
    window.session.apply(
        window.session.evaluation.model_copy(update={"workload": Workload.model_validate(data)}),
        "Workload without an interleave depth",
    )
    window.show_workload_editor()
    editor = window.workload_editor
    line = editor.editors["dp_comm_overlap"]
    line.selectAll()
    qtbot.keyClicks(line, "0.6")
    qtbot.mouseClick(editor.apply_button, Qt.MouseButton.LeftButton)
    wait_for_scoring(qtbot, window)
    workload = window.session.document.evaluation.workload
    assert workload.dp_comm_overlap == 0.6
    assert "virtual_pipeline_stages" not in workload.model_fields_set
