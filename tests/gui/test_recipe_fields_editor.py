"""Issue 39 item 5: the recipe's heads, vocabulary and pinned container are entered in the
workload pane like every other field; a value Megatron-LM or a registry would refuse says why
beneath its field, in the pane's words."""

from __future__ import annotations

from tests.gui.test_workload_and_files import _type

DIGEST = "0123456789abcdef" * 4


def test_recipe_fields_are_checked_beneath_their_field_in_words(qtbot, window):
    window.show_workload_editor()
    editor = window.workload_editor
    heads, image = editor.editors["num_attention_heads"], editor.editors["container_image"]
    _type(qtbot, heads, "60")  # the demo's hidden size 8,192 is not 60 whole heads
    assert editor.errors["num_attention_heads"].isVisible()
    text = editor.errors["num_attention_heads"].text()
    assert "Attention heads (60) must divide Hidden size (model width) (8,192)" in text
    assert "num_attention_heads" not in text and not editor.apply_button.isEnabled()
    _type(qtbot, heads, "64")
    _type(qtbot, image, "nvcr.io/nvidia/pytorch:24.09-py3")
    assert "has no digest" in editor.errors["container_image"].text()
    assert not editor.apply_button.isEnabled()
    _type(qtbot, image, f"nvcr.io/nvidia/pytorch:24.09-py3@sha256:{DIGEST}")
    assert not editor.errors["container_image"].isVisible() and editor.apply_button.isEnabled()
