"""Beside a figure: where it came from, chosen by the officer, and what that means for the score.

A typed figure is either stated by the provider (with the page or clause, optional) or the buyer's
assumption (who set it, and why: the provider said it on a call, a figure from a sister bid). A
figure loaded as measured stays measured while it is unchanged. A blank figure is not stated: the
chooser is disabled and the flag names the documented default and its range.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QWidget

from clusterbid.core.provenance import DOCUMENTED_DEFAULTS, KIND_LABELS

FLAG_STYLE = "color: #8a5a00;"
PLACEHOLDERS = {
    "provider": "page/clause, e.g. p.4",
    "assumption": "who: why, e.g. J. Ruiz: said on the call",
    "measured": "evidence item",
}
CHOICES = (("Stated by the provider", "provider"), ("Buyer's assumption", "assumption"))


def split_who_why(text: str) -> tuple[str, str]:
    """'J. Ruiz: said on the call' -> ('J. Ruiz', 'said on the call'); no colon is all 'who'."""
    who, _, why = text.partition(":")
    return who.strip(), why.strip()


class SourceChooser(QWidget):
    """Kind combo, detail line (reference, or who: why) and the flag of one figure's source."""

    def __init__(self, path: str, on_change) -> None:
        super().__init__()
        self.path = path
        self.loaded: dict = {}
        self.loaded_value: object = None
        name = path.replace(".", "_")
        self.kind = QComboBox()
        self.kind.setObjectName(f"kind_{name}")
        # The kind of each entry, by index (a "measured" entry is appended when a figure loads so).
        self.kinds = [kind for _, kind in CHOICES] + ["not_stated"]
        for text, _ in CHOICES:
            self.kind.addItem(text)
        # Shown while the figure is blank; not pickable (a figure is cleared in its own box).
        self.kind.addItem("Not stated")
        # QStandardItemModel keeps item flags at UserRole - 1: no flags, so the item cannot be picked.
        self.kind.setItemData(self.kind.count() - 1, 0, Qt.ItemDataRole.UserRole - 1)
        self.chosen = "provider"  # the officer's pick, restored when a blank figure is typed again
        self.kind.setToolTip(
            "Where this figure comes from. A default is never shown as the provider's: "
            "leave the figure at — when the bid does not state it."
        )
        self.detail = QLineEdit()
        self.detail.setObjectName(f"reference_{name}")
        self.detail.setMaxLength(300)
        self.detail.setMinimumWidth(150)
        self.flag = QLabel()
        self.flag.setObjectName(f"source_{name}")
        self.flag.setWordWrap(True)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.kind)
        row.addWidget(self.detail)
        row.addWidget(self.flag, 1)
        self.kind.currentIndexChanged.connect(self._placeholder)
        self.kind.currentIndexChanged.connect(on_change)
        self.detail.textChanged.connect(on_change)
        self._placeholder()

    def current_kind(self) -> str:
        return self.kinds[max(self.kind.currentIndex(), 0)]

    def _placeholder(self) -> None:
        if self.current_kind() != "not_stated":
            self.chosen = self.current_kind()
        self.detail.setPlaceholderText(PLACEHOLDERS.get(self.chosen, ""))

    def load(self, source: dict, value: object) -> None:
        """Show a stored source; `value` is the figure as loaded (None when not stated)."""
        self.loaded, self.loaded_value = dict(source), value
        kind = source.get("kind", "provider")
        if kind == "measured" and "measured" not in self.kinds:
            self.kinds.append("measured")
            self.kind.addItem(f"Measured ({source.get('grade') or 'evidence'})")
        if kind in ("provider", "assumption", "measured"):
            self.chosen = kind
            self.kind.setCurrentIndex(self.kinds.index(kind))
        if kind == "provider":
            self.detail.setText(source.get("reference", ""))
        elif kind == "assumption":
            why = source.get("why", "")
            self.detail.setText(source.get("who", "") + (f": {why}" if why else ""))
        elif kind == "measured":
            self.detail.setText(source.get("reference", ""))

    def source(self, value: object) -> dict:
        """The provenance recorded for the figure now showing `value` (None: not stated)."""
        if value is None:
            return {"kind": "not_stated", "why": "the provider's bid does not state it"}
        kind, text = self.chosen, self.detail.text().strip()
        if kind == "measured":
            if value == self.loaded_value and self.loaded.get("kind") == "measured":
                return self.loaded
            kind = "provider"  # edited away from the measured figure: what the officer typed
        if kind == "assumption":
            who, why = split_who_why(text)
            return {"kind": "assumption", "who": who, **({"why": why} if why else {})}
        return {"kind": "provider", **({"reference": text} if text else {})}

    def describe(self, value: object) -> str:
        """'not stated — default 24 used (range 4-72; source); flagged…' or 'stated by the provider, p.4'."""
        source = self.source(value)
        if source["kind"] == "not_stated" and self.path not in DOCUMENTED_DEFAULTS:
            # An offer, not a figure with a default (the pool swap): empty means not offered.
            return "not offered — a failed node with no spare on hand waits for its repair"
        if source["kind"] == "not_stated":
            default = DOCUMENTED_DEFAULTS[self.path]
            return (
                f"not stated — default {default.value:g} used (range "
                f"{default.low:g}-{default.high:g}; "
                f"{default.source}); flagged in the report and the memo"
            )
        if source["kind"] == "assumption":
            why = source.get("why")
            return (
                f"{KIND_LABELS['assumption']} ({source['who'] or 'who? name them'}"
                + (f": {why}" if why else "")
                + "); flagged in the report and the memo"
            )
        detail = source.get("reference", "")
        return KIND_LABELS[source["kind"]] + (f", {detail}" if detail else "")

    def refresh(self, value: object) -> None:
        stated = value is not None
        if self.chosen == "measured" and self.source(value)["kind"] != "measured":
            self.chosen = "provider"  # typed over: the chooser says what the figure now is
        shown = self.kinds.index(self.chosen if stated else "not_stated")
        if self.kind.currentIndex() != shown:
            self.kind.blockSignals(True)  # showing "Not stated" is not the officer's pick
            self.kind.setCurrentIndex(shown)
            self.kind.blockSignals(False)
        self.kind.setEnabled(stated)
        self.detail.setEnabled(stated)
        full = self.describe(value)
        kind = self.source(value)["kind"]
        flagged = kind in ("not_stated", "assumption")
        # Short beside the field (the page fits the wizard); the default's source in the tooltip. The
        # provider's own figure needs no words beyond the chooser's.
        short = "" if kind == "provider" else full.split(";")[0] + (")" if not stated else "")
        self.flag.setText(short + (", flagged" if flagged else ""))
        self.flag.setToolTip(full)
        self.flag.setStyleSheet(FLAG_STYLE if flagged else "")
