"""Menus a keyboard user can drive: no accelerator letter used twice in a menu, redo on both keys."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence


def _accelerators(menu) -> list[str]:
    return [
        a.text().split("&")[1][0].lower()
        for a in menu.actions()
        if "&" in a.text() and not a.isSeparator()
    ]


def test_no_menu_uses_an_accelerator_letter_twice(window):
    for menu_action in window.menuBar().actions():
        letters = _accelerators(menu_action.menu())
        assert len(letters) == len(set(letters)), (menu_action.text(), letters)


def test_ctrl_y_and_ctrl_shift_z_both_redo(window):
    keys = {s.toString() for s in window.actions_.redo.shortcuts()}
    assert {QKeySequence("Ctrl+Y").toString(), QKeySequence("Ctrl+Shift+Z").toString()} <= keys


def test_no_two_actions_share_a_shortcut(window):
    # Platform bindings differ: on X11 the standard Delete keys include Ctrl+D, which would make
    # Duplicate's Ctrl+D ambiguous (neither runs). Checked on whatever platform the tests run.
    owners: dict[str, str] = {}
    for action in window.findChildren(QAction):
        for key in action.shortcuts():
            text = key.toString()
            assert text not in owners or owners[text] == action.text(), (
                text,
                owners.get(text),
                action.text(),
            )
            owners[text] = action.text()
    assert owners[QKeySequence("Ctrl+D").toString()] == window.actions_.duplicate_bid.text()
    assert owners[QKeySequence("Del").toString()] == window.actions_.delete_bid.text()
