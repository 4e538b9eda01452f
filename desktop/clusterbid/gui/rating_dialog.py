"""Edit > Provider Ratings: record, change or remove a provider's third-party rating (tier, the
day it was published, who rated, grades by category) in one small dialog.

Each keystroke is checked by the same operation `clusterbid rating` runs
(operations/provider_ratings.py), so a refused field says why beneath it, in words, and OK stays
off; OK (or Remove Rating) records the change as one audited edit (one undo step)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QPushButton,
    QWidget,
)

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.provider_rating import TIER_WORDS, ratings_by_provider
from clusterbid.gui.checked_form_dialog import CheckedFormDialog
from clusterbid.operations.provider_ratings import (
    LABELS,
    RatingEdit,
    RatingInputError,
    category_text,
    providers,
    with_rating,
    without_rating,
)


class ProviderRatingDialog(CheckedFormDialog[RatingEdit]):
    """One provider's rating; `edit` holds the validated change once OK or Remove is pressed."""

    def __init__(self, evaluation: Evaluation, parent: QWidget | None = None) -> None:
        note = (
            "A rating is a third party's dated view of the provider, kept apart from what its "
            "bids claim. It counts in the score only through the provider rating weight "
            "(0 unless your policy gives it one)."
        )
        super().__init__("Provider Ratings", "provider_rating_dialog", note, parent)
        self._evaluation = evaluation
        self.provider = QComboBox()
        self.provider.addItems(providers(evaluation))
        self.tier = QComboBox()
        for value, words in TIER_WORDS.items():
            self.tier.addItem(words, value)
        self.rated_on = QLineEdit()
        self.rated_on.setPlaceholderText("YYYY-MM-DD")
        self.source = QLineEdit()
        self.source.setPlaceholderText("e.g. SemiAnalysis ClusterMAX 2.0")
        self.categories = QLineEdit()
        self.categories.setPlaceholderText("e.g. Networking=Gold; Security=Silver")
        self.editors: dict[str, QWidget] = {
            "provider": self.provider,
            "tier": self.tier,
            "rated_on": self.rated_on,
            "source": self.source,
            "categories": self.categories,
        }
        for name, editor in self.editors.items():
            self.add_field("rating", name, LABELS[name], editor)
        self.remove = QPushButton("&Remove Rating")
        self.buttons.addButton(self.remove, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.remove.clicked.connect(self.remove_rating)
        self.lay_out()
        self.provider.currentIndexChanged.connect(self._fill)
        for line in (self.rated_on, self.source, self.categories):
            line.textChanged.connect(self._check)
        self.tier.currentIndexChanged.connect(self._check)
        self._fill()

    def texts(self) -> dict[str, str]:
        return {
            "provider": self.provider.currentText(),
            "tier": str(self.tier.currentData() or ""),
            "rated_on": self.rated_on.text(),
            "source": self.source.text(),
            "categories": self.categories.text(),
        }

    def _fill(self, *_args: object) -> None:
        """Show the chosen provider's recorded rating, or an empty form dated today."""
        rating = ratings_by_provider(self._evaluation.provider_ratings).get(
            self.provider.currentText()
        )
        self.tier.setCurrentIndex(max(self.tier.findData(rating.tier if rating else "silver"), 0))
        self.rated_on.setText((rating.rated_on if rating else dt.date.today()).isoformat())
        self.source.setText(rating.source if rating else "")
        self.categories.setText(category_text(rating))
        self.remove.setEnabled(rating is not None)
        self._check()

    def _check(self, *_args: object) -> RatingEdit | None:
        by_field: dict[str, str] = {}
        edit = None
        try:
            edit = with_rating(self._evaluation, self.texts())
        except RatingInputError as exc:
            by_field = exc.by_field
        except InputError as exc:
            by_field = {"source": str(exc)}
        self.show_problems(by_field, edit)
        return edit

    def remove_rating(self) -> None:
        self.close_with(without_rating(self._evaluation, self.provider.currentText()))


def edit_provider_ratings(window: Any) -> bool:
    """Open the dialog over the window's evaluation and apply what it gives, as one edit."""
    if not window.session.evaluation.bids:
        return False
    dialog = ProviderRatingDialog(window.session.evaluation, window)
    if dialog.exec() != QDialog.DialogCode.Accepted or dialog.edit is None or not dialog.edit.label:
        return False
    return bool(window.session.apply(dialog.edit.evaluation, dialog.edit.label))
