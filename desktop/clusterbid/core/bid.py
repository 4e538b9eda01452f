"""A provider's offer: capacity, fabric, topology, price, terms, reliability and evidence."""

from __future__ import annotations

import datetime as dt
import weakref
from typing import Any, Literal, get_args

from pydantic import (
    Field,
    ModelWrapValidatorHandler,
    ValidationInfo,
    field_validator,
    model_validator,
)

from clusterbid.core.base import FrozenModel
from clusterbid.core.catalog import default_catalog
from clusterbid.core.delivery import DeliverySchedule
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.provenance import Source, completed_bid_provenance
from clusterbid.core.provenance.resolve import billed_spare_gpus
from clusterbid.core.sla_terms import SlaClaimTerms
from clusterbid.core.terms import Terms
from clusterbid.core.text_rules import already_checked, check_model_text

# Bids that passed every rule below, by id (an entry goes when its bid does). Pydantic runs a
# model's "after" rules again whenever an instance is placed in a new evaluation, so a weights edit
# at 500 bids re-checked every bid's text and provenance three times on the window's thread
# (about 0.3 s each, issue 32). A frozen bid cannot change once checked; a copy or a
# model_construct'ed bid is another object and is checked in full.
_VALIDATED: weakref.WeakValueDictionary[int, Bid] = weakref.WeakValueDictionary()

# One literal type for the field; the tuple of its names (same order) for forms and patterns.
Certification = Literal["SOC2", "ISO27001", "ISO27017", "ISO27018", "HIPAA", "FedRAMP", "PCI-DSS"]
CERTIFICATIONS: tuple[str, ...] = get_args(Certification)


class Quote(FrozenModel):
    provider: str = Field(
        min_length=1, max_length=200, description="Provider's legal or trading name"
    )
    reference: str = Field("", max_length=100, description="The provider's quote reference")
    quoted_on: dt.date | None = Field(None, description="Date of the quote")
    valid_until: dt.date | None = Field(None, description="Last day the quote can be accepted")

    @model_validator(mode="after")
    def _dates(self) -> Quote:
        if self.quoted_on and self.valid_until and self.valid_until < self.quoted_on:
            raise ValueError("valid_until is before quoted_on")
        return self


class Capacity(FrozenModel):
    gpu_model: str = Field(description="GPU model id from the catalog, e.g. H100-SXM")
    gpus_offered: int = Field(ge=1, le=1_000_000, description="GPUs in the offer")
    gpus_per_node: int = Field(ge=1, le=72, description="GPUs per server node")
    largest_contiguous_block_gpus: int = Field(
        ge=1,
        le=1_000_000,
        description="Largest block of GPUs on one non-blocking fabric, available at once",
    )
    spare_pool_gpus: int = Field(
        0, ge=0, le=1_000_000, description="Hot-spare GPUs held for replacements"
    )
    available_from: dt.date | None = Field(None, description="Date the capacity is handed over")

    @field_validator("gpu_model")
    @classmethod
    def _known_gpu(cls, value: str) -> str:
        default_catalog().gpu(value)  # raises with the list of known models
        return value

    @model_validator(mode="after")
    def _blocks(self) -> Capacity:
        if self.largest_contiguous_block_gpus > self.gpus_offered:
            raise ValueError(
                f"largest_contiguous_block_gpus ({self.largest_contiguous_block_gpus}) "
                f"cannot exceed gpus_offered ({self.gpus_offered})"
            )
        for name in ("gpus_offered", "largest_contiguous_block_gpus"):
            if getattr(self, name) % self.gpus_per_node:
                raise ValueError(
                    f"{name} ({getattr(self, name)}) must be whole nodes of {self.gpus_per_node} "
                    "GPUs"
                )
        return self


class Fabric(FrozenModel):
    technology: str = Field(
        description="Fabric id from the catalog, e.g. IB-NDR400, RoCEv2-400G, TCP-Ethernet"
    )
    # Up to two NICs per GPU on the largest node the bid accepts (72 GPUs: a GB200 NVL72 rack entered
    # as one node has 72 ConnectX NICs, four per compute tray).
    nics_per_node: int = Field(
        ge=1, le=144, description="Scale-out NICs per node used for GPU traffic"
    )
    nic_line_rate_gbit_s: float = Field(gt=0, le=3200, description="Line rate per NIC, Gbit/s")
    gpudirect_rdma: bool = Field(description="GPUs reach the NICs without host copies")
    sharp: bool = Field(False, description="In-network reductions (InfiniBand SHARP)")

    @field_validator("technology")
    @classmethod
    def _known_fabric(cls, value: str) -> str:
        default_catalog().fabric(value)
        return value

    @model_validator(mode="after")
    def _rdma(self) -> Fabric:
        if self.gpudirect_rdma and not default_catalog().fabric(self.technology).rdma:
            raise ValueError(f"{self.technology} has no RDMA, so gpudirect_rdma cannot be true")
        return self

    @property
    def aggregate_gb_s(self) -> float:
        """NIC aggregate per node in GB/s (bytes), the figure nccl-tests busbw is compared with."""
        return self.nics_per_node * self.nic_line_rate_gbit_s / 8


class Topology(FrozenModel):
    kind: Literal["fat-tree", "rail-optimised", "dragonfly", "other"] = "fat-tree"
    oversubscription_ratio: float = Field(
        1.0,
        ge=1,
        le=64,
        description="Downlink:uplink ratio beyond one leaf domain (1 = non-blocking)",
    )
    leaf_domain_gpus: int = Field(
        ge=1, le=1_000_000, description="GPUs under one non-blocking leaf or pod"
    )
    nvlink_domain_gpus: int = Field(
        ge=1, le=576, description="GPUs sharing one NVLink domain (8 for HGX)"
    )


class Reliability(FrozenModel):
    """None = the provider did not state it: core.provenance resolves its documented default, the
    cautious end of its range (a figure left out never helps a bid); the defaults here are those."""

    uptime_sla_percent: float | None = Field(
        95.0, ge=90, le=100, description="Contracted uptime, percent"
    )
    sla_credit_percent: float | None = Field(
        0, ge=0, le=100, description="Credit at the first SLA breach tier, percent"
    )
    failures_per_1000_gpu_days: float | None = Field(
        ge=0,
        le=1000,
        description=(
            "Job-interrupting failures per 1,000 GPU-days across the fleet (jobs up to 1,024 GPUs; "
            "larger jobs see fewer per GPU, methodology section 3; empty: 2.6, the cautious "
            "default)"
        ),
    )
    node_replacement_hours: float | None = Field(
        72, ge=0, le=10_000, description="Hours to replace a failed node"
    )
    pool_swap_hours: float | None = Field(
        None,
        ge=0,
        le=10_000,
        description="Hours to continue on a node from the provider's own pool when the "
        "reservation holds no spare (empty: the bid does not offer it, the job waits for the "
        "repair)",
    )
    burn_in_hours: float | None = Field(
        72, ge=0, le=10_000, description="Billed setup/burn-in before the job runs"
    )
    storage_write_gb_s: float | None = Field(
        gt=0, le=100_000, description="Aggregate checkpoint write throughput, GB/s"
    )


class Facility(FrozenModel):
    datacenter_tier: int | None = Field(None, ge=1, le=4, description="Uptime Institute tier")
    certifications: tuple[Certification, ...] = Field(
        (), description="Security certifications held"
    )
    # Issue 34: what a policy's must-haves gate on (empty: not stated, which fails a must-have).
    data_residency: str | None = Field(
        None,
        min_length=2,
        max_length=40,
        description="Where the data is held, e.g. 'EU' or 'US'; empty: not stated",
    )
    tenancy: Literal["dedicated", "shared"] | None = Field(
        None,
        description=(
            "'dedicated' (no other customer on the hosts and fabric) or 'shared'; empty: not stated"
        ),
    )

    @field_validator("data_residency", mode="before")
    @classmethod
    def _blank_is_not_stated(cls, value: object) -> object:
        """A blank field or sheet cell says nothing: not stated, not a place called ''."""
        return None if isinstance(value, str) and not value.strip() else value


class Bid(FrozenModel):
    """One provider's offer as the officer entered it."""

    id: str = Field(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$", description="Unique id within the evaluation"
    )
    quote: Quote
    capacity: Capacity
    fabric: Fabric
    topology: Topology
    reliability: Reliability
    terms: Terms
    facility: Facility = Facility()
    # Issue 39: the phased handover and how the SLA pays out; empty = not stated.
    delivery: DeliverySchedule | None = Field(
        None,
        description="Phased handover, slips and late-delivery remedies; empty = the single "
        "capacity.available_from date",
    )
    sla_claims: SlaClaimTerms = SlaClaimTerms()
    evidence: tuple[Evidence, ...] = ()
    provenance: dict[str, Source] = Field(
        default_factory=dict, description="Where each figure came from, keyed by dotted path"
    )

    @model_validator(mode="after")
    def _cross_section(self) -> Bid:
        gpu = default_catalog().gpu(self.capacity.gpu_model)
        if self.topology.nvlink_domain_gpus > gpu.nvlink_domain_gpus:
            raise ValueError(
                f"topology.nvlink_domain_gpus ({self.topology.nvlink_domain_gpus}) exceeds the "
                f"{gpu.nvlink_domain_gpus}-GPU NVLink domain of {gpu.id}"
            )
        if self.topology.leaf_domain_gpus > self.capacity.gpus_offered:
            raise ValueError("topology.leaf_domain_gpus cannot exceed capacity.gpus_offered")
        if (
            self.terms.reserved_gpus is not None
            and self.terms.reserved_gpus > self.capacity.gpus_offered
        ):
            raise ValueError(
                f"terms.reserved_gpus ({self.terms.reserved_gpus:,}) cannot exceed "
                f"capacity.gpus_offered ({self.capacity.gpus_offered:,})"
            )
        if self.delivery is not None:
            phased = sum(p.gpus for p in self.delivery.phases)
            if phased != self.capacity.gpus_offered:
                raise ValueError(
                    f"delivery.phases hand over {phased:,} GPUs but capacity.gpus_offered is "
                    f"{self.capacity.gpus_offered:,}: the phases must add up to the offer"
                )
        # Provenance of every tracked figure (migrates documents written before it existed).
        object.__setattr__(self, "provenance", completed_bid_provenance(self))
        return self

    def __hash__(self) -> int:
        # The provenance mapping is a dict (unhashable); hash it as sorted pairs so bids stay usable
        # as keys. Equal bids still hash equal: every field that eq compares feeds in or is implied.
        others = tuple(
            getattr(self, name) for name in type(self).model_fields if name != "provenance"
        )
        return hash((others, tuple(sorted(self.provenance.items()))))

    @property
    def billed_gpus(self) -> int:
        """GPUs a reserved or block contract bills for its whole span: the reserved GPUs (every
        offered GPU when the bid does not say), plus the spare pool unless it is free in writing (a
        pool nobody stated: one node, provenance.billed_spare_gpus)."""
        reserved = self.terms.reserved_gpus or self.capacity.gpus_offered
        return reserved + billed_spare_gpus(self)

    @model_validator(mode="after")
    def _plain_text(self, info: ValidationInfo) -> Bid:
        if not already_checked(info.context):  # the store scanned the stored JSON whole, once
            check_model_text(self)  # no control or bidi-override characters (core/text_rules.py)
        return self

    # Defined last, so it wraps the rules above (pydantic nests later model validators outside).
    @model_validator(mode="wrap")
    @classmethod
    def _checked_once(cls, data: Any, handler: ModelWrapValidatorHandler[Bid]) -> Bid:
        if type(data) is Bid and _VALIDATED.get(id(data)) is data:
            return data  # this very object passed every rule when it was made
        bid = handler(data)
        _VALIDATED[id(bid)] = bid
        return bid
