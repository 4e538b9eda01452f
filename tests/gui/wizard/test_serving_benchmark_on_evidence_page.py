"""A tester's fault: on a serving bid's wizard the evidence page answered a vLLM
benchmark_serving result JSON with "document: missing 'results'" (it read the file as a training
or nccl-tests file). The page now says the file is a serving benchmark and where it is attached
(Edit > Attach Serving Benchmark, which asks for the run's GPUs), and keeps nothing of it."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.conftest import EXAMPLES
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.documents import read_evaluation

sys.path.insert(0, str(Path(__file__).parents[2] / "core" / "serving"))
from test_serving_readers import TRTLLM_TEXT, VLLM_JSON  # noqa: E402  (published runs, shared)

WHERE = "Edit > Attach Serving Benchmark"


def test_a_vllm_result_on_the_evidence_page_is_named_a_serving_benchmark_and_sent_where_it_goes(
    qtbot, open_wizard, tmp_path
):
    serving = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    wizard = open_wizard(ev=serving)
    page = wizard.evidence_page
    assert WHERE in page.subTitle()  # said before any file is given
    for name, text, engine in (
        ("benchmark_serving.json", VLLM_JSON, "vLLM"),
        ("trtllm-bench.txt", TRTLLM_TEXT, "TensorRT-LLM"),
    ):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        rows = page.table.rowCount()
        page.attach_files([path])
        qtbot.waitUntil(lambda: page.pending == 0, timeout=HANG_GUARD_MS)
        said = page.status.text()
        assert said.startswith(f"Not attached: {name} is a {engine} serving benchmark"), said
        assert WHERE in said and "missing 'results'" not in said and "not an nccl-tests" in said
        assert page.table.rowCount() == rows  # nothing of it kept on the page


def test_a_training_page_still_reads_its_own_files_and_says_nothing_of_serving(qtbot, open_wizard):
    wizard = open_wizard()  # the training demo
    page = wizard.evidence_page
    assert "serving" not in page.subTitle().lower()
    page.attach_files([EXAMPLES / "evidence" / "training-throughput.csv"])
    qtbot.waitUntil(lambda: page.table.rowCount() == 3, timeout=HANG_GUARD_MS)
