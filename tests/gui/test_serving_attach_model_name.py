"""The app's Attach Benchmark dialog names the run's model as `--model` does (issue 37 item 6):
picked from the model catalog, so a 70B run attached to an 8B service carries the 70B's KV cache
per token; left as it is, the model the file names."""

from __future__ import annotations

from tests.gui.test_no_codes_where_officers_read import _codes, _widget_texts

from clusterbid.gui import serving_benchmark
from clusterbid.gui.serving_run_form import NAME_AS_FILE


def test_the_run_s_model_is_picked_by_name_and_reaches_the_cli_s_options(qtbot):
    dialog = serving_benchmark.ServingRunDialog("Quarry GPU, H100-SXM", "run.json", 4, "H100-SXM")
    qtbot.addWidget(dialog)
    dialog.run.toggle.setChecked(True)
    box = dialog.run.model_name
    assert box.currentText() == NAME_AS_FILE and dialog.run.options(4, "provider").model is None
    names = [box.itemText(i) for i in range(box.count())]
    # Every model of resources/catalog/models.toml, by the name its maker gives it.
    for name in ("Llama-2-70B", "Llama-3.1-8B", "Llama-3.1-70B", "Llama-3.1-405B", "Mistral-7B"):
        assert name in names
    box.setCurrentIndex(names.index("Llama-3.1-70B"))
    assert dialog.run.options(4, "provider").model == "Llama-3.1-70B"
    assert _codes(_widget_texts(dialog)) == []
