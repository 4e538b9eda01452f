"""Words, not codes, wherever an officer reads (issue 38 item 6): every text of every widget of
the main window (its docks and the workload pane included), each bid wizard page, the memo export
and trusted-certificates dialogs, and the text of the training and serving memos, scanned for
internal identifiers (snake_case) and lower-cased "gpus" / "gpu-hours"."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from PySide6.QtCore import QAbstractListModel, QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QWidget
from tests.conftest import EXAMPLES
from tests.gui.conftest import wait_for_scoring, wait_for_serving_scores

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.documents import read_evaluation
from clusterbid.core.evidence.model import Evidence, EvidenceGrade, EvidenceKind
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.memo.export_dialog import MemoExportDialog
from clusterbid.gui.memo.trust_dialog import TrustedCertificatesDialog
from clusterbid.gui.serving_window import ServingWindow
from clusterbid.gui.wizard.bid_wizard import BidWizard
from clusterbid.gui.wizard.draft_store import DraftStore
from clusterbid.gui.wizard.evidence_page import EvidencePage

CODE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\bgpus\b|\bgpu-hours?\b|\bapprover-\d+\b")
# Names that are not ours to reword, each as printed: nccl-tests' collective (all_reduce_perf
# prints "all_reduce"), and a file cited as a figure's source by its name (x.toml, x.py, x.sh).
ALLOWED = re.compile(r"\ball_reduce\b|\b[a-z0-9_]+\.(?:toml|py|sh)\b")
# A command-line hint where the app speaks: an option ("--trust") or a verb ("clusterbid trust").
COMMAND_HINT = re.compile(r"(?<![\w-])--[a-z][a-z-]*|(?<![.\w-])clusterbid [a-z-]+\b(?![.\w-])")
TEXT_GETTERS = (
    "text",
    "title",
    "subTitle",
    "toolTip",
    "windowTitle",
    "placeholderText",
    "statusTip",
)
ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)


def _widget_texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) for every string the widget tree can show: labels, buttons, group titles,
    tooltips, combo items, and each item view's cells, tooltips and headers."""
    found = []
    for widget in [root, *root.findChildren(QWidget)]:
        where = f"{type(widget).__name__} {widget.objectName()}".strip()
        for getter in TEXT_GETTERS:
            method = getattr(widget, getter, None)
            try:
                value = method() if callable(method) else None
            except TypeError:  # a text() that needs arguments is not a label
                continue
            if isinstance(value, str) and value:
                found.append((f"{where}.{getter}", value))
        if isinstance(widget, QComboBox):
            found += [(f"{where} item", widget.itemText(i)) for i in range(widget.count())]
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            columns = (
                1 if isinstance(model, QAbstractListModel) else _count(model.columnCount)
            )  # one, privately
            for column in range(columns):
                for role in ROLES:
                    header = model.headerData(column, Qt.Orientation.Horizontal, role)
                    found += [(f"{where} header", header)] if isinstance(header, str) else []
                for row in range(_count(model.rowCount)):
                    for role in ROLES:
                        cell = model.data(model.index(row, column), role)
                        found += [(f"{where} cell", cell)] if isinstance(cell, str) else []
    return found


def _count(method) -> int:
    """rowCount/columnCount: list models take the parent index, a few Qt models only none."""
    try:
        return method(QModelIndex())
    except TypeError:
        return method()


def _codes(texts: list[tuple[str, str]]) -> list[str]:
    return [
        f"{where}: {code.group()!r} in {text[:100]!r}"
        for where, text in texts
        for code in CODE.finditer(ALLOWED.sub("", text))
    ]


def test_the_scan_catches_a_code():
    """The scan is real: an identifier or a lower-cased unit in a text is reported."""
    assert _codes([("label", "Billing 'reserved' needs term_months")]) == [
        "label: 'term_months' in \"Billing 'reserved' needs term_months\""
    ]
    assert (
        len(_codes([("item", "Reserved term (gpus x term x price)"), ("tip", "100 gpu-hours")]))
        == 2
    )
    assert _codes([("verify", "not yet signed: approver-2")]) == [
        "verify: 'approver-2' in 'not yet signed: approver-2'"
    ]
    assert _codes([("memo", "nccl-tests all_reduce busbw; catalog (reference_prices.toml)")]) == []


def test_no_code_in_the_main_window_its_docks_or_the_wizard(qtbot, window, tmp_path):
    wait_for_scoring(qtbot, window)
    texts = _widget_texts(window)
    evaluation = window.session.evaluation
    for bid in (None, evaluation.bids[0]):  # a new bid and the demo's first, every page
        wizard = BidWizard(evaluation, bid, draft_store=DraftStore(tmp_path / "draft.json"))
        qtbot.addWidget(wizard)
        texts += [
            (f"wizard {where}", text)
            for page in wizard.pageIds()
            for where, text in _widget_texts(wizard.page(page))
        ]
    export = MemoExportDialog(window.model.scorecard, window)
    qtbot.addWidget(export)
    trust = TrustedCertificatesDialog(window.session.document, window)
    qtbot.addWidget(trust)
    texts += _widget_texts(export) + _widget_texts(trust)
    assert len(texts) > 500  # the walk reached the window's tables, panes and pages
    assert _codes(texts) == []
    # No bid by its id where the window speaks (the outline's tooltips named "bid id northwind-ib").
    ids = [bid.id for bid in evaluation.bids]
    found = [
        f"{where}: {text[:80]!r}"
        for where, text in _widget_texts(window)
        for bid_id in ids
        if re.search(rf"(?<![\w-]){re.escape(bid_id)}(?![\w-])", text)
    ]
    assert found == [], "\n".join(found)


def _wizard_texts(qtbot, tmp_path, evaluation) -> list[tuple[str, str]]:
    wizard = BidWizard(
        evaluation, evaluation.bids[0], draft_store=DraftStore(tmp_path / "draft.json")
    )
    qtbot.addWidget(wizard)
    return [
        (f"wizard {where}", text)
        for page in wizard.pageIds()
        for where, text in _widget_texts(wizard.page(page))
    ]


def test_the_serving_window_and_its_wizard_speak_of_a_service(qtbot, tmp_path, window):
    serving = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    shown = ServingWindow(EvaluationDocument.create(tmp_path / "serving.clusterbid", serving))
    qtbot.addWidget(shown)
    wait_for_serving_scores(qtbot, shown)  # the ranking, matrix and tabs filled in
    wizard = _wizard_texts(qtbot, tmp_path, serving)
    assert _codes(_widget_texts(shown) + wizard) == []
    training_words = re.compile(r"gradient|checkpoint", re.IGNORECASE)
    assert [text for _, text in wizard if training_words.search(text)] == []
    # The training wizard does speak of both: the check above can fail.
    training = _wizard_texts(qtbot, tmp_path, window.session.evaluation)
    assert {m.group().lower() for _, text in training for m in training_words.finditer(text)} == {
        "gradient",
        "checkpoint",
    }


@pytest.mark.parametrize("example", ["demo-evaluation.json", "demo-serving-evaluation.json"])
def test_no_code_in_the_memo_its_tipping_points_or_its_verify_report(tmp_path, capsys, example):
    memo = tmp_path / "memo.pdf"
    assert (
        main(
            [
                "memo",
                str(EXAMPLES / example),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--samples",
                "500",
            ]
        )
        == 0
    )
    pdf = pdfium.PdfDocument(str(memo))
    pages = [(f"page {n + 1}", pdf[n].get_textpage().get_text_range()) for n in range(len(pdf))]
    assert sum(len(text) for _, text in pages) > 5000
    assert _codes(pages) == []
    # Tipping points and the commitment chart name the rival by provider, not by bid id.
    ids = [bid.id for bid in read_evaluation(EXAMPLES / example).bids]
    text = " ".join(t for _, t in pages).replace("\r\n", " ").replace("\n", " ")
    if example == "demo-evaluation.json":
        sensitivity = text[text.index("5. Sensitivity") : text.index("6. What was not verified")]
        assert "Hyperscale Prime wins" in sensitivity  # the rival the demo's weights tip to
    else:
        sensitivity = text[
            text.index("the nearest tipping point") : text.index("(each weight's range")
        ]
        assert "Northwind AI Cloud" in sensitivity
    assert [bid_id for bid_id in ids if bid_id in sensitivity] == []
    # Nor anywhere else: every place the memo shows a bid names it in the officer's words (issue 38).
    shown_ids = [
        f"page {n}: {bid_id}"
        for n, (_, page) in enumerate(pages, start=1)
        for bid_id in ids
        if re.search(rf"(?<![\w-]){re.escape(bid_id)}(?![\w-])", page.replace("\r\n", " "))
    ]
    assert shown_ids == []
    # Verify's report names the approvers' fields in words ("not yet signed: approver 1").
    capsys.readouterr()
    main(["verify", str(memo)])
    report = capsys.readouterr().out.replace(
        str(memo), "memo.pdf"
    )  # the test folder's name is no text of ours
    assert "not yet signed: approver 1" in report
    assert _codes([("verify", report)]) == []


@pytest.mark.parametrize("example", ["demo-evaluation.json", "demo-serving-evaluation.json"])
def test_no_code_in_the_command_line_table(capsys, example):
    """`clusterbid score`: a set-aside bid says why in words ("excluded: ..."), not by its gate's
    code, and the plan figures are named as the workload pane names them."""
    assert main(["score", str(EXAMPLES / example), "--samples", "300"]) == 0
    out = capsys.readouterr().out
    assert "excluded: " in out or "cannot serve: " in out
    assert _codes([("score", out)]) == []


def test_the_details_pane_names_bids_and_evidence_in_words(qtbot):
    """Issue 38: the Details pane's heading and evidence lines name a bid as the table does
    (provider, GPU model) and the evidence it lacks in words, never by id or internal kind."""
    from clusterbid.core.scoring import score_evaluation
    from clusterbid.gui.details_panel import DetailsPanel

    evaluation = read_evaluation(EXAMPLES / "demo-evaluation.json")
    scorecard = score_evaluation(evaluation)
    pane = DetailsPanel()
    qtbot.addWidget(pane)
    ids = [bid.id for bid in evaluation.bids]
    kinds = [
        "allreduce busbw",
        "training mfu",
    ]  # the evidence kinds' ids with spaces, as it said before
    texts, said = [], []
    for score in scorecard.scores:
        pane.show_bid(scorecard, score)
        text = pane.toPlainText()
        texts.append((f"details of {score.bid.quote.provider}", text))
        said += [
            f"{score.bid.quote.provider}: {word!r}"
            for word in ids + kinds
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)
        ]
        assert text.startswith(f"{score.bid.quote.provider} ({score.bid.capacity.gpu_model})")
    assert (
        "Missing evidence: all-reduce bus bandwidth (nccl-tests); training MFU or training step "
        "time" in (texts[0][1])
    )  # the demo's first bid has no measurement attached
    assert said == [] and _codes(texts) == []


# The evidence kinds' ids, with "_" or " " between their words ("allreduce busbw" as it said before).
KIND_IDS = re.compile(
    "|".join(
        rf"\b{kind.value.replace('_', '[ _]')}\b"
        for kind in EvidenceKind
        if kind is not EvidenceKind.OTHER
    )
)


def _kind_ids(texts: list[tuple[str, str]]) -> list[str]:
    return [f"{where}: {text!r}" for where, text in texts if KIND_IDS.search(text)] + _codes(texts)


def test_the_wizard_evidence_table_names_kinds_flags_and_measurers_in_words(qtbot, tmp_path):
    """Issue 38: each row of the wizard's evidence table in the words the Details pane uses."""
    # What the table showed before: the kind's id with spaces, and the flags' codes.
    old = [
        ("cell", "allreduce busbw: 410 GB/s"),
        ("cell", "training mfu: 41.00%"),
        ("cell", "ranks_unknown, mixed_types"),
    ]
    assert len(_kind_ids(old)) == 4
    evaluation = demo_evaluation()
    wizard = BidWizard(
        evaluation, evaluation.bids[0], draft_store=DraftStore(tmp_path / "draft.json")
    )
    qtbot.addWidget(wizard)
    page = next(
        wizard.page(p) for p in wizard.pageIds() if isinstance(wizard.page(p), EvidencePage)
    )
    flag = ("ranks_unknown", "no '#  Rank N ... on HOST' lines: GPU count unknown")
    page.add(
        Evidence(
            kind=EvidenceKind.ALLREDUCE_BUSBW,
            value=410,
            unit="GB/s",
            scale_gpus=16,
            measured_by="third_party",
            grade=EvidenceGrade.MEASURED_INDEPENDENT,
            artefact_name="nccl.log",
            artefact_sha256="ab" * 32,
        ),
        (flag,),
    )
    page.add(
        Evidence(
            kind=EvidenceKind.TRAINING_MFU,
            value=0.41,
            unit="fraction",
            scale_gpus=512,
            grade=EvidenceGrade.PROVIDER_CLAIM,
        ),
        (),
    )
    rows = [
        [page.table.item(r, c).text() for c in range(page.table.columnCount())]
        for r in range(page.table.rowCount())
    ]
    assert (
        rows[0][0] == "all-reduce bus bandwidth (nccl-tests): 410 GB/s"
    )  # as the Details pane says
    assert rows[1][0] == "training MFU: 41.00%" and rows[0][3] == "A third party"
    assert rows[0][5] == flag[1] and rows[1][5] == "none"
    assert (
        _kind_ids([(f"evidence table {r}", text) for r, row in enumerate(rows) for text in row])
        == []
    )
    assert _kind_ids(_widget_texts(page)) == []
