"""The last page: the whole bid, its commitment and net plan cost against the other bids (a serving
bid's cost per million output tokens: review_serving.py), and every
open problem."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from clusterbid.core.comparison_table import FINDING_WORDS
from clusterbid.core.contract_summary import billing_words
from clusterbid.core.kinds import SERVING, TRAINING, kind_of
from clusterbid.core.report import format_money
from clusterbid.gui.wizard import review_serving
from clusterbid.gui.wizard.problems import Problem

if TYPE_CHECKING:
    from clusterbid.gui.wizard.bid_wizard import BidWizard


# Money the officer typed, shown with its currency and cents (the spin box keeps the model's 4
# decimals for a price per GPU-hour, which read as a code on the summary).
MONEY_FIELDS = {
    ("terms", "price_per_gpu_hour"),
    ("terms", "one_off_fees"),
    ("terms", "recurring_fees_per_month"),
    ("terms", "committed_spend"),
    ("delivery", "liquidated_damages_per_day"),
}


def summary_value(binding, currency: str) -> str:
    """A field as the summary prints it: money with currency and cents, else as the widget shows it."""
    value = binding.read()
    if binding.path in MONEY_FIELDS and isinstance(value, (int, float, str)) and value not in ("",):
        try:
            return format_money(float(value), currency, cents=True)
        except ValueError:
            pass
    return shown_value(binding.widget)


def shown_value(widget: QWidget) -> str:
    """What the officer sees in a field, as text for the summary."""
    if isinstance(widget, QComboBox):
        return widget.currentText()
    if isinstance(widget, QCheckBox):
        return "Yes" if widget.isChecked() else "No"
    if isinstance(widget, (QSpinBox, QDoubleSpinBox)):
        return widget.text()
    return widget.text() or "—"


class ReviewPage(QWizardPage):
    def __init__(self, host: BidWizard) -> None:
        super().__init__()
        self.host = host
        self.setTitle("Review")
        self.serving = kind_of(host.evaluation).tag == SERVING.tag
        self.setSubTitle(
            review_serving.SUBTITLE
            if self.serving
            else "The whole bid, what it costs to finish the planned job next to the other bids, "
            "and anything still to fix. Finish adds the bid to the evaluation."
        )
        self.problem_box = QWidget()
        self.problem_box.setObjectName("problem_box")
        self.problem_layout = QVBoxLayout(self.problem_box)
        self.problem_layout.setContentsMargins(0, 0, 0, 0)
        self.preview_cost = QLabel()
        self.preview_cost.setObjectName("preview_cost")
        self.preview_cost.setWordWrap(True)
        self.preview_cost.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.comparison = QTextBrowser()
        self.comparison.setObjectName("comparison")
        self.summary = QTextBrowser()
        self.summary.setObjectName("summary")
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.summary)
        splitter.addWidget(self.comparison)
        splitter.setSizes([400, 540])  # the comparison's six columns need the room
        layout = QVBoxLayout(self)
        layout.addWidget(self.problem_box)
        layout.addWidget(self.preview_cost)
        layout.addWidget(splitter, 1)
        self.problem_buttons: list[QPushButton] = []

    def initializePage(self) -> None:  # noqa: N802 (Qt API)
        self.after_refresh()

    def owns(self, path: tuple[str, ...]) -> bool:
        return False

    def show_problems(self, problems: tuple[Problem, ...]) -> None:
        pass

    def isComplete(self) -> bool:  # noqa: N802 (Qt API)
        return self.host.checked.bid is not None

    def after_refresh(self) -> None:
        if self.host.currentPage() is not self:
            return
        self._show_summary()
        self._show_problems(self.host.checked.problems)
        self._show_preview()

    def _show_summary(self) -> None:
        parts = []
        currency = str(
            self.host.raw_bid().get("terms", {}).get("currency") or self.host.evaluation.currency
        )
        for page in self.host.section_pages():
            # Issue 14: where a page knows each figure's source, it is shown beside the figure.
            source = getattr(page, "source_text", None)
            rows = "".join(
                f"<tr><td>{html.escape(b.title)}</td><td><b>{html.escape(summary_value(b, currency))}</b></td>"
                + (f"<td><small>{html.escape(source(b))}</small></td>" if source else "")
                + "</tr>"
                for b in page.bindings
            )
            # Values a page keeps outside its form fields (the Facility page's certifications).
            rows += "".join(
                f"<tr><td>{html.escape(title)}</td><td><b>{html.escape(value)}</b></td></tr>"
                for title, value in getattr(page, "summary_rows", list)()
            )
            parts.append(
                f"<h4>{html.escape(page.title())}</h4><table cellpadding='2'>{rows}</table>"
            )
        evidence = self.host.evidence_page.items
        lines = (
            "".join(
                f"<li>{html.escape(e.kind.value)}: {e.value:g} {html.escape(e.unit)} at "
                f"{e.scale_gpus:,} GPUs, "
                f"{html.escape(e.grade.value)}</li>"
                for e, _ in evidence
            )
            or "<li>none</li>"
        )
        parts.append(f"<h4>Workload evidence</h4><ul>{lines}</ul>")
        self.summary.setHtml("".join(parts))

    def _show_problems(self, problems: tuple[Problem, ...]) -> None:
        for button in self.problem_buttons:
            button.deleteLater()
        self.problem_buttons = []
        if problems:
            heading = QLabel(f"<b>{len(problems)} problem(s) to fix before Finish:</b>")
            heading.setStyleSheet("color: #b3261e;")
            self.problem_layout.addWidget(heading)
            self.problem_buttons.append(heading)
        for problem in problems:
            page_id, page_title, field_title = self.host.locate(problem.path)
            button = QPushButton(f"{page_title} — {field_title}: {problem.message}")
            button.setToolTip(f"Go to the {page_title} page to fix this")
            button.setStyleSheet("text-align: left; padding: 3px 8px;")
            button.clicked.connect(lambda _=False, target=page_id: self.host.go_to(target))
            self.problem_layout.addWidget(button)
            self.problem_buttons.append(button)

    def _show_serving_preview(self, checked, scorecard) -> None:
        """A serving bid's cost per million output tokens and rank, and every bid's beside it."""
        currency = checked.evaluation.currency
        self.preview_cost.setText(review_serving.preview_words(scorecard, checked.bid.id, currency))
        self.comparison.setHtml(review_serving.comparison_html(scorecard, checked.bid.id))

    def _show_preview(self) -> None:
        checked = self.host.checked
        if checked.bid is None or checked.evaluation is None:
            self.preview_cost.setText(
                review_serving.PENDING
                if self.serving
                else "The commitment and net plan cost appear here once every problem is fixed."
            )
            self.comparison.setHtml("")
            return
        kind = kind_of(checked.evaluation)  # each kind previews its own figures (core/kinds.py)
        preview = {
            TRAINING.tag: self._show_training_preview,
            SERVING.tag: self._show_serving_preview,
        }[kind.tag]
        preview(checked, kind.point_score(checked.evaluation))

    def _show_training_preview(self, checked, scorecard) -> None:
        """A training bid's net plan cost, commitment and rank, against every other bid."""
        currency = checked.evaluation.currency
        mine = next(s for s in scorecard.scores if s.bid.id == checked.bid.id)
        e = mine.estimate
        cost = format_money(e.plan_cost, currency)
        commits = (
            f"commits {format_money(e.commitment, currency)} "
            f"({html.escape(billing_words(e.bid, currency))})"
        )
        if mine.rank is None:
            reasons = "; ".join(g.message.rstrip(".") for g in e.gates)
            # Excluded: not costed for the ranking, so no cost is shown as if it competed.
            self.preview_cost.setText(
                f"The bid is <b>excluded</b> from the ranking, so it is not costed: "
                f"{html.escape(reasons)}. Contract: {html.escape(billing_words(e.bid, currency))}."
            )
        else:
            self.preview_cost.setText(
                f"<b>Net plan cost: {cost}</b> in {e.wall_hours / 24:,.1f} days; {commits} — "
                f"ranked {mine.rank} "
                f"of {len(scorecard.ranked)} ranked bids (cost rank {mine.cost_rank})."
            )
        self.comparison.setHtml(comparison_html(scorecard, checked.bid.id))


def comparison_html(scorecard, bid_id: str) -> str:
    """Every bid against the one being entered. Headers never break inside a word; an excluded
    bid shows why it is excluded, not a cost it cannot be held to (it is not costed for ranking)."""
    currency = scorecard.evaluation.currency
    rows = []
    for score in scorecard.scores:
        est = score.estimate
        weight = "b" if score.bid.id == bid_id else "span"
        # Names wrap at spaces only: Qt's table layout otherwise breaks a long word mid-word.
        words = (
            "<br>".join(html.escape(w) for w in score.bid.quote.provider.split())
            if len(score.bid.quote.provider) > 14
            else html.escape(score.bid.quote.provider)
        )
        provider = f"<td style='white-space:nowrap'><{weight}>{words}</{weight}></td>"
        if score.rank is None:
            why = "; ".join(FINDING_WORDS.get(g.code, g.message) for g in est.gates)
            rows.append(
                f"<tr><td>—</td>{provider}<td colspan='4'><i>excluded: "
                f"{html.escape(why)}</i></td></tr>"
            )
            continue
        rows.append(
            f"<tr><td>{score.rank}</td>{provider}"
            "<td align='right' "
            f"style='white-space:nowrap'>{format_money(est.commitment, currency)}</td>"
            "<td align='right' "
            f"style='white-space:nowrap'>{format_money(est.plan_cost, currency)}</td>"
            f"<td align='right' style='white-space:nowrap'>{est.wall_hours / 24:,.1f}</td>"
            "<td align='right' style='white-space:nowrap'>"
            f"{format_money(est.effective_price_per_useful_gpu_hour, currency, cents=True)}</td>"
            "</tr>"
        )
    # Broken between words by hand, never inside one, so the six columns fit beside the summary.
    headers = "".join(
        f"<th style='white-space:nowrap'>{h}</th>"
        for h in (
            "Rank",
            "Provider",
            "Commitment",
            "Net plan<br>cost",
            "Days",
            "Per useful<br>GPU-hour",
        )
    )
    return (
        f"<h4>Against the other bids</h4><table cellpadding='3'><tr>{headers}</tr>"
        + "".join(rows)
        + "</table>"
    )
