"""The wizard's Reliability page: every figure a provider may leave out can be left "not stated".

A blank figure is not stated: the bid records that (provenance "not_stated"), scoring takes the
documented default with its wide range, and the page says which default and range beside the field.
A typed figure is the provider's statement, with where the bid says it (page or clause) if given.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit

from clusterbid.core.bid import Capacity, Reliability
from clusterbid.core.provenance import DOCUMENTED_DEFAULTS, KIND_LABELS
from clusterbid.gui.wizard.field_rules import FieldBinding
from clusterbid.gui.wizard.section_page import FieldSpec, SectionPage

FLAG_STYLE = "color: #8a5a00;"
# Kinds the officer set elsewhere (evidence, the buyer's own assumption): kept when the figure is
# unchanged in the wizard, which only knows "the provider states it" and "not stated".
KEPT_KINDS = ("measured", "assumption")


def _spec(model, path, label, decimals=2) -> FieldSpec:
    return FieldSpec(model, path, label, decimals=decimals, not_stated=True)


class TermsPage(SectionPage):
    TITLE = "Reliability"
    SUBTITLE = ("What the provider promises when things fail. Leave a figure at — (step below its lowest "
                "value to clear it) when the bid does not state it: a documented default with a wide range "
                "is used and flagged.")
    GROUPS = [
        (None, [
            _spec(Reliability, ("reliability", "uptime_sla_percent"), "&Uptime SLA (%)", decimals=3),
            _spec(Reliability, ("reliability", "sla_credit_percent"), "SLA &credit (%)"),
            _spec(Reliability, ("reliability", "failures_per_1000_gpu_days"), "Fai&lures per 1,000 GPU-days",
                  decimals=3),
            _spec(Capacity, ("capacity", "spare_pool_gpus"), "S&pare GPUs"),
            _spec(Reliability, ("reliability", "node_replacement_hours"), "Node &replacement (hours)"),
            _spec(Reliability, ("reliability", "burn_in_hours"), "Burn-&in billed (hours)"),
            _spec(Reliability, ("reliability", "storage_write_gb_s"), "Checkpoint &write (GB/s)"),
        ]),
    ]
    OWNS = (("reliability",),)

    def __init__(self, host) -> None:
        super().__init__(host)
        self.loaded: dict[str, dict] = {}  # provenance of the bid being edited, by dotted path
        self.loaded_values: dict[str, object] = {}
        self.references: dict[str, QLineEdit] = {}
        self.flags: dict[str, QLabel] = {}
        box = QGroupBox("Where each figure comes from")
        form = QFormLayout(box)
        for binding in self.bindings:
            path = ".".join(binding.path)
            reference = QLineEdit()
            reference.setObjectName(f"reference_{'_'.join(binding.path)}")
            reference.setPlaceholderText("page/clause, e.g. p.4")
            reference.setMaxLength(300)
            reference.textChanged.connect(host.refresh)
            reference.setMaximumWidth(220)
            flag = QLabel()
            flag.setObjectName(f"source_{'_'.join(binding.path)}")
            flag.setWordWrap(True)
            row = QHBoxLayout()
            row.addWidget(reference)
            row.addWidget(flag, 1)
            form.addRow(binding.title, row)
            self.references[path], self.flags[path] = reference, flag
        self.outer.insertWidget(self.outer.count() - 2, box)

    def _stated(self, binding: FieldBinding) -> bool:
        return binding.read() is not None

    def source(self, binding: FieldBinding) -> dict:
        """The provenance the page records for one figure."""
        path = ".".join(binding.path)
        if not self._stated(binding):
            return {"kind": "not_stated", "why": "the provider's bid does not state it"}
        kept = self.loaded.get(path)
        if kept and kept.get("kind") in KEPT_KINDS and binding.read() == self.loaded_values.get(path):
            return kept
        reference = self.references[path].text().strip()
        return {"kind": "provider", **({"reference": reference} if reference else {})}

    def source_text(self, binding: FieldBinding) -> str:
        """'not stated: default 24 (range 4-72; ClusterBid default: ...)' or 'stated by the provider, p.4'."""
        path = ".".join(binding.path)
        source = self.source(binding)
        if source["kind"] == "not_stated":
            default = DOCUMENTED_DEFAULTS[path]
            return (f"not stated — default {default.value:g} used (range {default.low:g}-{default.high:g}; "
                    f"{default.source}); flagged in the report and the memo")
        reference = source.get("reference", "")
        return KIND_LABELS[source["kind"]] + (f", {reference}" if reference else "")

    def values(self) -> dict:
        out = super().values()
        provenance = {}
        for binding in self.bindings:
            provenance[".".join(binding.path)] = self.source(binding)
        # The spare pool stays a number in the document: not stated leaves it out (the default 0).
        if out.get("capacity", {}).get("spare_pool_gpus", 0) is None:
            del out["capacity"]["spare_pool_gpus"]
        out["provenance"] = provenance
        return out

    def load(self, raw: dict) -> None:
        super().load(raw)
        self.loaded = dict(raw.get("provenance") or {})
        for binding in self.bindings:
            path = ".".join(binding.path)
            source = self.loaded.get(path) or {}
            self.loaded_values[path] = binding.read()
            if source.get("kind") in ("default", "not_stated"):
                binding.write(None)  # a default is never shown as if the provider had typed it
            self.references[path].setText(source.get("reference", "") if source.get("kind") == "provider" else "")

    def after_refresh(self) -> None:
        for binding in self.bindings:
            path = ".".join(binding.path)
            flag = self.flags[path]
            # Short beside the field (the page fits the wizard); the default's source in the tooltip.
            full = self.source_text(binding)
            flag.setText(full.split(";")[0] + ("), flagged" if not self._stated(binding) else ""))
            flag.setToolTip(full)
            flag.setStyleSheet(FLAG_STYLE if not self._stated(binding) else "")
            self.references[path].setEnabled(self._stated(binding))
