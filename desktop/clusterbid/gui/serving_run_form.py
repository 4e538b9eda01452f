""" "More about the run" in the serving Attach Benchmark dialog: the context `clusterbid
serving-evidence attach` takes as options (issue 37 item 1), asked in the officer's words.

Every field may stay empty, meaning the file says it or it is not stated, so the common case
(a vLLM run of the service's own model) stays two fields. What is typed is turned into the same
ServingRunOptions the CLI builds; the operation and core then check it exactly as for the CLI.
A number that cannot be read is refused here, naming the field and what to type.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLineEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.catalog import default_catalog
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.serving_models import known_models
from clusterbid.operations.serving_evidence import ServingRunOptions

EMPTY_MEANS = "Empty: as the file says, or not stated"  # fits the field at 100%
# "As the file says": a trtllm-bench report states both precisions; other files leave them unstated.
PRECISIONS = (("As the file says, or not stated", None), ("BF16", "bf16"), ("FP8", "fp8"))
# (attribute of ServingRunOptions, the officer's words): whole numbers of 1 or more
WHOLE_NUMBERS = (
    ("pipeline_parallel", "Pipeline stages of the replica"),
    ("expert_parallel", "Expert parallelism of the run"),
    ("prompt_tokens", "Mean prompt tokens of the run"),
    ("batch", "Sequences one replica ran at once"),
    ("system_gpus", "GPUs in the whole system the MLPerf result ran on"),
)
ENGINE_VERSION_CHARACTERS = 64  # what evidence keeps (core/evidence/model.py)
MODEL_SIZE = "The model the run served, in billions of active parameters"
MODEL_NAME = "The model the run served"
NAME_AS_FILE = "As the file says, or not stated"
# Core's refusals name the CLI's options; in the app the same rule names the field it asks for.
OPTION_WORDS = {f"--{name.replace('_', '-')}": words for name, words in WHOLE_NUMBERS} | {
    "--model-billions": MODEL_SIZE,
    "--gpu-model": "GPU model of the run",
    "--engine": "Serving engine",
}


class RunContextForm(QWidget):
    """A "More about the run" button that opens the optional fields below it."""

    def __init__(self, bid_gpu_model: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton()
        self.toggle.setText("More about the run")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.fields = QWidget()
        self.fields.setVisible(False)
        self.toggle.toggled.connect(self._show_fields)
        form = QFormLayout(self.fields)
        form.setContentsMargins(0, 0, 0, 0)
        self.gpu_model = QComboBox()
        gpus = default_catalog().gpus
        for gpu_id, spec in gpus.items():  # the bid's own GPU first: the usual case
            self.gpu_model.addItem(spec.name, gpu_id)
        at = self.gpu_model.findData(bid_gpu_model)
        self.gpu_model.setCurrentIndex(max(at, 0))
        form.addRow("GPU model of the run:", self.gpu_model)
        self.precision = _precision_box()
        form.addRow("Weight precision of the run:", self.precision)
        self.kv_cache_precision = _precision_box()
        form.addRow("KV cache precision of the run:", self.kv_cache_precision)
        self.numbers: dict[str, QLineEdit] = {}
        for name, words in WHOLE_NUMBERS:
            self.numbers[name] = _empty_means_edit()
            form.addRow(f"{words}:", self.numbers[name])
        self.engine = _empty_means_edit()
        self.engine.setMaxLength(64)
        self.engine.setToolTip(
            "The serving engine the run used, when the file names none (MLPerf, GenAI-Perf and "
            "LLMPerf name a benchmark or a load generator): e.g. TensorRT-LLM or vLLM"
        )
        form.addRow("Serving engine:", self.engine)
        self.engine_version = _empty_means_edit()
        self.engine_version.setMaxLength(ENGINE_VERSION_CHARACTERS)
        form.addRow("Serving engine version:", self.engine_version)
        # By name, the run's KV cache per token and all-reduces carry too; the size is for a
        # model the catalog lacks.
        self.model_name = QComboBox()
        self.model_name.addItem(NAME_AS_FILE, None)
        for model_id in known_models():
            self.model_name.addItem(model_id, model_id)
        form.addRow(f"{MODEL_NAME}:", self.model_name)
        self.model_size = _empty_means_edit()
        form.addRow(f"{MODEL_SIZE}:", self.model_size)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.fields)

    def _show_fields(self, shown: bool) -> None:
        self.fields.setVisible(shown)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def options(
        self, gpus: int | None, measured_by: str, usual_gpus: int | None = None
    ) -> ServingRunOptions:
        """The CLI's ServingRunOptions from what is typed (None where left empty; `gpus` None: as
        the file says, else asked for, `usual_gpus` the hint); InputError naming the field and what to type for a
        number that cannot be read."""
        whole = {
            name: _whole_number(self.numbers[name].text(), words) for name, words in WHOLE_NUMBERS
        }
        return ServingRunOptions(
            gpus=gpus,
            measured_by=measured_by,
            gpu_model=self.gpu_model.currentData(),
            precision=self.precision.currentData(),
            kv_cache_precision=self.kv_cache_precision.currentData(),
            engine_version=self.engine_version.text().strip() or None,
            engine=self.engine.text().strip() or None,
            pipeline_parallel=whole["pipeline_parallel"],
            expert_parallel=whole["expert_parallel"],
            prompt_tokens=whole["prompt_tokens"],
            batch=whole["batch"],
            system_gpus=whole["system_gpus"],
            model_active_params_billions=_number(self.model_size.text(), MODEL_SIZE),
            model=self.model_name.currentData(),
            usual_gpus=usual_gpus,
        )


def in_officers_words(message: str) -> str:
    """A refusal from core or the operation, with the CLI's option names said as the fields."""
    for option, words in OPTION_WORDS.items():
        message = message.replace(f"({option})", f'("{words}" under More about the run)')
        message = message.replace(option, f'"{words}"')
    return message.replace("the run's model size", f'"{MODEL_SIZE}"')


def _precision_box() -> QComboBox:
    box = QComboBox()
    for words, value in PRECISIONS:
        box.addItem(words, value)
    return box


def _empty_means_edit() -> QLineEdit:
    edit = QLineEdit()
    edit.setPlaceholderText(EMPTY_MEANS)
    return edit


def _whole_number(text: str, words: str) -> int | None:
    text = text.strip().replace(",", "")
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) < 1:  # '²' is a digit to str
        raise InputError(f'"{words}": type a whole number of 1 or more, or leave it empty')
    return int(text)


def _number(text: str, words: str) -> float | None:
    text = text.strip().replace(",", "")
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise InputError(
            f'"{words}": type a number such as 70, or leave it empty if the run served the '
            "service's own model"
        ) from None
