"""The wizard's Reliability page: every figure a provider may leave out can be left "not stated".

Each figure has its source beside it. A blank figure is not stated: the bid records that
(provenance "not_stated"), scoring takes the documented default with its wide range, and the row
says which default and range. A typed figure is the provider's statement (with the page or clause
it is on, if given) or the buyer's assumption (who set it and why); a measured figure loaded from
the document stays measured while unchanged.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from clusterbid.core.bid import Capacity, Reliability
from clusterbid.gui.wizard.field_rules import FieldBinding
from clusterbid.gui.wizard.section_page import FieldSpec, SectionPage
from clusterbid.gui.wizard.source_chooser import SourceChooser


def _spec(model, path, label, decimals=2) -> FieldSpec:
    return FieldSpec(model, path, label, decimals=decimals, not_stated=True)


class TermsPage(SectionPage):
    TITLE = "Reliability"
    SUBTITLE = (
        "What the provider promises when things fail, and where each figure comes from. A figure "
        "the bid does not state stays at — (step below its lowest value): a documented default "
        "with a wide range is used and flagged."
    )
    GROUPS = [
        (
            None,
            [
                _spec(
                    Reliability,
                    ("reliability", "uptime_sla_percent"),
                    "&Uptime SLA (%)",
                    decimals=3,
                ),
                _spec(Reliability, ("reliability", "sla_credit_percent"), "SLA &credit (%)"),
                _spec(
                    Reliability,
                    ("reliability", "failures_per_1000_gpu_days"),
                    "Fai&lures per 1,000 GPU-days",
                    decimals=3,
                ),
                _spec(Capacity, ("capacity", "spare_pool_gpus"), "S&pare GPUs"),
                _spec(
                    Reliability,
                    ("reliability", "node_replacement_hours"),
                    "Node &replacement (hours)",
                ),
                _spec(
                    Reliability,
                    ("reliability", "pool_swap_hours"),
                    "Swap from the provider's p&ool (hours)",
                ),
                _spec(Reliability, ("reliability", "burn_in_hours"), "Burn-&in billed (hours)"),
                _spec(
                    Reliability, ("reliability", "storage_write_gb_s"), "Checkpoint &write (GB/s)"
                ),
            ],
        ),
    ]
    SERVING_LABELS = {("reliability", "storage_write_gb_s"): "Storage &write (GB/s)"}
    SERVING_TIPS = {
        ("reliability", "storage_write_gb_s"): "Aggregate storage write throughput, GB/s"
    }
    OWNS = (("reliability",),)

    def __init__(self, host) -> None:
        super().__init__(host)
        # Built by field_row while the base class laid out the rows.
        self.sources: dict[str, SourceChooser] = {
            ".".join(b.path): b.extra["source"] for b in self.bindings
        }

    def field_row(self, binding: FieldBinding) -> QWidget:
        """The figure, its source chooser and flag on one line, the figure's problems beneath."""
        chooser = SourceChooser(".".join(binding.path), self.host.refresh)
        binding.extra["source"] = chooser
        cell = QWidget()
        stack = QVBoxLayout(cell)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.setSpacing(1)
        line = QHBoxLayout()
        line.addWidget(binding.widget)
        line.addWidget(chooser, 1)
        stack.addLayout(line)
        stack.addWidget(binding.error)
        return cell

    def source(self, binding: FieldBinding) -> dict:
        """The provenance the page records for one figure."""
        return binding.extra["source"].source(binding.read())

    def source_text(self, binding: FieldBinding) -> str:
        """What the Review page prints beside the figure."""
        return binding.extra["source"].describe(binding.read())

    def values(self) -> dict:
        out = super().values()
        provenance = {".".join(b.path): self.source(b) for b in self.bindings}
        # An offer left empty (the pool swap) is simply not offered: no default to record.
        if out.get("reliability", {}).get("pool_swap_hours") is None:
            provenance.pop("reliability.pool_swap_hours", None)
        # The spare pool stays a number in the document: not stated leaves it out (the default 0).
        if out.get("capacity", {}).get("spare_pool_gpus", 0) is None:
            del out["capacity"]["spare_pool_gpus"]
        out["provenance"] = provenance
        return out

    def load(self, raw: dict) -> None:
        super().load(raw)
        loaded = dict(raw.get("provenance") or {})
        for binding in self.bindings:
            source = loaded.get(".".join(binding.path)) or {}
            if source.get("kind") in ("default", "not_stated"):
                binding.write(None)  # a default is never shown as if the provider had typed it
            binding.extra["source"].load(source, binding.read())

    def after_refresh(self) -> None:
        for binding in self.bindings:
            binding.extra["source"].refresh(binding.read())
