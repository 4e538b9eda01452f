"""Valid bids covering every column kind (dates, yes/no, lists, money), and sheet helpers."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import openpyxl
import pytest

from clusterbid.core.bid import Bid


def make_bid(bid_id: str = "acme-1", provider: str = "Acme GPU Cloud", **changes) -> Bid:
    data = {
        "id": bid_id,
        "quote": {
            "provider": provider,
            "reference": "Q-2026-014",
            "quoted_on": dt.date(2026, 3, 1),
            "valid_until": dt.date(2026, 4, 30),
        },
        "capacity": {
            "gpu_model": "H100-SXM",
            "gpus_offered": 512,
            "gpus_per_node": 8,
            "largest_contiguous_block_gpus": 256,
            "spare_pool_gpus": 48,
            "available_from": dt.date(2026, 6, 1),
        },
        "fabric": {
            "technology": "IB-NDR400",
            "nics_per_node": 8,
            "nic_line_rate_gbit_s": 400.0,
            "gpudirect_rdma": True,
            "sharp": True,
        },
        "topology": {
            "kind": "rail-optimised",
            "oversubscription_ratio": 1.0,
            "leaf_domain_gpus": 256,
            "nvlink_domain_gpus": 8,
        },
        "reliability": {
            "uptime_sla_percent": 99.5,
            "sla_credit_percent": 10,
            "failures_per_1000_gpu_days": 0.47,
            "node_replacement_hours": 4,
            "burn_in_hours": 48,
            "storage_write_gb_s": 120.5,
        },
        "terms": {
            "price_per_gpu_hour": Decimal("2.4900"),
            "currency": "USD",
            "term_months": 12,
            "committed_gpu_hours": 1_000_000,
            "one_off_fees": Decimal("15000.50"),
            "recurring_fees_per_month": Decimal("1200"),
            "billing_increment_hours": 0.0,  # stated: left out, it would be "not stated" (issue 31)
            "minimum_billed_hours": 0.0,
            "support_tier": "enterprise",
            "exit_clause": False,
            "next_gen_migration": True,
        },
        "facility": {"datacenter_tier": 3, "certifications": ("SOC2", "ISO27001")},
    }
    for dotted, value in changes.items():
        section, _, name = dotted.partition("__")
        if name:
            data[section][name] = value
        else:
            data[section] = value
    return Bid.model_validate(data)


@pytest.fixture
def bids() -> list[Bid]:
    """Three different valid offers; the second leaves optional fields at their defaults."""
    second = Bid.model_validate(
        {
            "id": "beta.2",
            "quote": {"provider": "Béta Compute GmbH"},
            "capacity": {
                "gpu_model": "B200",
                "gpus_offered": 1024,
                "gpus_per_node": 8,
                "largest_contiguous_block_gpus": 1024,
            },
            "fabric": {
                "technology": "RoCEv2-400G",
                "nics_per_node": 8,
                "nic_line_rate_gbit_s": 400,
                "gpudirect_rdma": True,
            },
            "topology": {"leaf_domain_gpus": 512, "nvlink_domain_gpus": 8},
            "reliability": {"failures_per_1000_gpu_days": 1.2, "storage_write_gb_s": 60},
            "terms": {"price_per_gpu_hour": Decimal("3.1"), "currency": "EUR"},
        }
    )
    third = make_bid(
        "gamma_3",
        "Gamma; Partners, Inc.",
        capacity__gpu_model="GB200-NVL72",
        capacity__gpus_per_node=4,
        capacity__gpus_offered=288,
        capacity__largest_contiguous_block_gpus=288,
        topology__nvlink_domain_gpus=72,
        topology__leaf_domain_gpus=288,
        facility={"datacenter_tier": 4, "certifications": ("SOC2", "ISO27001", "HIPAA", "PCI-DSS")},
    )
    return [make_bid(), second, third]


def header_positions(path) -> dict[str, int]:
    """Column key -> 1-based column number, read from the Bids sheet's header row."""
    workbook = openpyxl.load_workbook(path)
    try:
        headers = [cell.value for cell in workbook["Bids"][1]]
    finally:
        workbook.close()
    return {text.split(" [")[0]: index for index, text in enumerate(headers, start=1) if text}


@pytest.fixture
def positions_of():
    """The header_positions helper, as a fixture (tests/ has no packages to import it from)."""
    return header_positions


@pytest.fixture
def bid_factory():
    return make_bid
