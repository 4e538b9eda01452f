"""The section pages before the evidence: quote, capacity, fabric, topology (reliability and the
contract have modules of their own: reliability_page.py, contract_page.py)."""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtWidgets import QLabel

from clusterbid.core.bid import Bid, Capacity, Fabric, Quote, Topology
from clusterbid.core.catalog import default_catalog
from clusterbid.gui.wizard.field_rules import BLANK
from clusterbid.gui.wizard.reliability_page import TermsPage  # noqa: F401 (one of the section pages)
from clusterbid.gui.wizard.section_page import FieldSpec, SectionPage

WARNING_STYLE = "color: #8a5a00; font-weight: bold;"


def _gpu_choices():
    return [(f"{g.name} ({g.id})", g.id) for g in default_catalog().gpus.values()]


def _fabric_choices():
    return [(f"{f.name} ({f.id})", f.id) for f in default_catalog().fabrics.values()]


class QuotePage(SectionPage):
    TITLE = "Provider and quote"
    SUBTITLE = "Who is offering, and the quote this bid comes from."
    GROUPS = [
        (
            None,
            [
                FieldSpec(Quote, ("quote", "provider"), "&Provider"),
                FieldSpec(Bid, ("id",), "Bid &id"),
                FieldSpec(Quote, ("quote", "reference"), "Quote &reference"),
                FieldSpec(Quote, ("quote", "quoted_on"), "&Quoted on"),
                FieldSpec(Quote, ("quote", "valid_until"), "&Valid until"),
            ],
        )
    ]
    OWNS = (("quote",),)


class CapacityPage(SectionPage):
    TITLE = "Capacity"
    SUBTITLE = "The GPUs on offer and how many of them one job can use at once."
    GROUPS = [
        (
            None,
            [
                FieldSpec(
                    Capacity, ("capacity", "gpu_model"), "&GPU model", choices=_gpu_choices()
                ),
                FieldSpec(Capacity, ("capacity", "gpus_offered"), "GPUs &offered"),
                FieldSpec(Capacity, ("capacity", "gpus_per_node"), "GPUs per no&de"),
                FieldSpec(
                    Capacity,
                    ("capacity", "largest_contiguous_block_gpus"),
                    "Largest &contiguous block (GPUs)",
                ),
                FieldSpec(Capacity, ("capacity", "available_from"), "&Available from"),
            ],
        )
    ]
    OWNS = (("capacity",),)

    def __init__(self, host) -> None:
        super().__init__(host)
        # A serving workload has no job: replicas fit in a node or a few; nothing to warn about.
        job = getattr(host.evaluation.workload, "job_gpus", None)
        self.job_hint = QLabel(
            f"The planned job needs {job:,} GPUs in one synchronous block."
            if job
            else "A serving fleet is sized from the traffic: replicas of a few GPUs each."
        )
        self.top.addWidget(self.job_hint)
        self.block_warning = QLabel()
        self.block_warning.setObjectName("block_warning")
        self.block_warning.setWordWrap(True)
        self.block_warning.setStyleSheet(WARNING_STYLE)
        self.block_warning.hide()
        self.outer.insertWidget(self.outer.count() - 1, self.block_warning)

    def after_refresh(self) -> None:
        # Shown as the officer types; the scoring gate (contiguous_block_too_small) is the
        # authority and appears in the review page's preview.
        block = self.binding("capacity", "largest_contiguous_block_gpus").read()
        job = getattr(self.host.evaluation.workload, "job_gpus", None)
        small = job is not None and block is not BLANK and block < job
        self.block_warning.setText(
            f"Warning: the largest contiguous block ({block:,} GPUs) is smaller than the planned "
            "job "
            f"({job:,} GPUs). The job cannot run as one synchronous job on this offer, so the bid "
            "will be excluded from the ranking."
            if small
            else ""
        )
        self.block_warning.setVisible(small)


class FabricPage(SectionPage):
    TITLE = "Fabric"
    SUBTITLE = "The network between nodes that carries the job's gradient traffic."
    SERVING_SUBTITLE = (
        "The network between nodes: a replica spread over several nodes sends its "
        "tensor-parallel traffic over it; replicas within one node barely use it."
    )
    GROUPS = [
        (
            None,
            [
                FieldSpec(
                    Fabric, ("fabric", "technology"), "&Technology", choices=_fabric_choices()
                ),
                FieldSpec(Fabric, ("fabric", "nics_per_node"), "N&ICs per node"),
                FieldSpec(
                    Fabric,
                    ("fabric", "nic_line_rate_gbit_s"),
                    "&Line rate per NIC (Gbit/s)",
                    decimals=0,
                ),
                FieldSpec(Fabric, ("fabric", "gpudirect_rdma"), "GPUDirect &RDMA"),
                FieldSpec(Fabric, ("fabric", "sharp"), "&SHARP in-network reductions"),
            ],
        )
    ]
    OWNS = (("fabric",),)

    def __init__(self, host) -> None:
        super().__init__(host)
        self.aggregate = QLabel()
        self.aggregate.setObjectName("fabric_aggregate")
        self.outer.insertWidget(self.outer.count() - 1, self.aggregate)
        self._suggested: float | None = None
        self.binding("fabric", "technology").widget.currentIndexChanged.connect(
            self._suggest_line_rate
        )

    def _suggest_line_rate(self) -> None:
        """Fill the catalog's line rate for the chosen technology unless the officer typed one."""
        technology = self.binding("fabric", "technology").read()
        rate = self.binding("fabric", "nic_line_rate_gbit_s")
        if technology is not BLANK and rate.read() in (BLANK, self._suggested):
            self._suggested = default_catalog().fabric(technology).line_rate_gbit_s
            rate.write(self._suggested)

    def after_refresh(self) -> None:
        try:
            fabric = Fabric.model_validate(self.values().get("fabric", {}))
        except ValidationError:
            self.aggregate.setText("")
            return
        self.aggregate.setText(
            f"NIC aggregate per node: {fabric.nics_per_node} × {fabric.nic_line_rate_gbit_s:g} "
            "Gbit/s "
            f"= {fabric.aggregate_gb_s:g} GB/s (what nccl-tests busbw is compared with)."
        )


class TopologyPage(SectionPage):
    TITLE = "Topology"
    SUBTITLE = "How the nodes are wired: what a job crossing leaf switches shares."
    KINDS = [
        ("Fat tree", "fat-tree"),
        ("Rail-optimised", "rail-optimised"),
        ("Dragonfly", "dragonfly"),
        ("Other", "other"),
    ]
    GROUPS = [
        (
            None,
            [
                FieldSpec(Topology, ("topology", "kind"), "&Kind", choices=KINDS),
                FieldSpec(
                    Topology,
                    ("topology", "oversubscription_ratio"),
                    "&Oversubscription beyond the leaf (x:1)",
                ),
                FieldSpec(Topology, ("topology", "leaf_domain_gpus"), "L&eaf domain (GPUs)"),
                FieldSpec(Topology, ("topology", "nvlink_domain_gpus"), "NV&Link domain (GPUs)"),
            ],
        )
    ]
    OWNS = (("topology",),)
