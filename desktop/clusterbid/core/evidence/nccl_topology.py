"""Topology facts from NCCL_DEBUG=INFO lines in an nccl-tests log, and flags against the bid's claim.

NCCL prints, per rank, which network plugin it chose ("NET/IB : Using [0]mlx5_0:1/IB ...",
"NET/Socket : Using [0]eth0:...", "Using network IB"), whether GPUDirect RDMA is on ("GPU Direct
RDMA Enabled for HCA 0 'mlx5_0'", or "/GDRDMA" on a channel's "via NET/IB/0/GDRDMA"), how many
channels it built ("32 coll channels, 32 collnet channels, 16 nvls channels, 32 p2p channels") and
whether NVLink SHARP is there ("NVLS multicast support is available on dev 0"). These lines are
the provider's own machine telling how the run went; a log over TCP sockets says nothing about an
InfiniBand or RoCE fabric the bid offers.
"""

from __future__ import annotations

import re
from typing import TypedDict

from clusterbid.core.evidence.nccl_result import NcclFlag, NcclTopology

# Each pattern is searched only on lines holding "NCCL INFO"; none has nested quantifiers.
_NET_USING = re.compile(
    r"NET/(IB|Socket|OFI|AWS Libfabric|GPUDirectTCPX|FasTrak)\s*:\s*Using\s+(.{0,400})"
)
_USING_NETWORK = re.compile(r"Using network (IB|Socket|AWS Libfabric|GPUDirectTCPX|FasTrak|\w+)")
_VIA = re.compile(r"via NET/(IB|Socket|AWS Libfabric|GPUDirectTCPX|FasTrak|\w+)/\d+(/GDRDMA)?")
_GDR_LINE = re.compile(r"GPU Direct RDMA (Enabled|Disabled)")
_CHANNELS = re.compile(r"(\d{1,4}) coll channels")
_NVLS_CHANNELS = re.compile(r"(\d{1,4}) nvls channels")
_NVLS_SUPPORT = re.compile(r"NVLS multicast support is (not )?available")
_COLLNET = re.compile(r"CollNet (?:is )?(enabled|disabled|not supported)", re.IGNORECASE)

# Transports that run over one catalog fabric only: a log over one of them did not measure an
# InfiniBand or RoCE fabric (GPUDirect-TCPX/TCPXO and FasTrak ride on Ethernet, Libfabric on EFA).
_ONLY_OVER = {
    "GPUDirectTCPX": ("TCP-Ethernet",),
    "FasTrak": ("TCP-Ethernet",),
    "AWS Libfabric": ("EFA",),
}
_RDMA_NETWORKS = {"IB", "RoCE", "OFI", "AWS Libfabric"}  # kernel-bypass transports


class _Facts(TypedDict, total=False):
    """What the log states so far, by NcclTopology's field names (a fact not seen stays unset)."""

    network: str
    gpudirect_rdma: bool
    coll_channels: int
    nvls: bool
    collnet: bool


class TopologyCollector:
    """Fed every NCCL INFO line of one run; `result()` gives the facts (None without INFO lines)."""

    def __init__(self) -> None:
        self.facts: _Facts = {}
        self.lines = 0

    def feed(self, line: str) -> None:
        self.lines += 1
        # A 1,000-GPU run prints some 150,000 INFO lines: each pattern is searched only where
        # the words it needs are (a substring test is a tenth of a search).
        if "NET/" in line and "Using" in line and (m := _NET_USING.search(line)):
            net = m[1]
            self.facts["network"] = "RoCE" if net == "IB" and "/RoCE" in m[2] else net
        elif "Using network" in line and (m := _USING_NETWORK.search(line)):
            self.facts.setdefault("network", m[1])
        if "via NET/" in line and (m := _VIA.search(line)):
            self.facts.setdefault("network", m[1])
            # One channel without GDRDMA over IB means at least that path copies through the host.
            if m[1] != "Socket":
                gdr = m[2] is not None
                self.facts["gpudirect_rdma"] = (
                    gdr and self.facts.get("gpudirect_rdma", True) is not False
                )
        if "GPU Direct RDMA" in line and (m := _GDR_LINE.search(line)):
            enabled = m[1] == "Enabled"
            self.facts["gpudirect_rdma"] = (
                enabled and self.facts.get("gpudirect_rdma", True) is not False
            )
        if "coll channels" in line and (m := _CHANNELS.search(line)):
            self.facts["coll_channels"] = max(int(m[1]), self.facts.get("coll_channels") or 0)
        if "NVLS multicast" in line and (m := _NVLS_SUPPORT.search(line)):
            self.facts["nvls"] = m[1] is None
        elif "nvls channels" in line and (m := _NVLS_CHANNELS.search(line)) and int(m[1]) > 0:
            self.facts.setdefault("nvls", True)
        if "ollnet" in line.lower() and (m := _COLLNET.search(line)):
            self.facts["collnet"] = m[1].lower() == "enabled"

    def result(self) -> NcclTopology | None:
        if not self.lines:
            return None
        return NcclTopology(info_lines=self.lines, **self.facts)


def topology_flags(
    topology: NcclTopology | None, fabric: str, rdma: bool, gpudirect: bool
) -> list[NcclFlag]:
    """Where the log's own NCCL lines contradict the bid's fabric (`fabric` is its catalog id), or
    cannot confirm it: a log without NCCL_DEBUG=INFO lines may come from any cluster at all."""
    if topology is None:
        return [_unconfirmed(fabric, "has no NCCL_DEBUG=INFO lines")]
    flags = []
    if topology.network is None:
        flags.append(_unconfirmed(fabric, "has NCCL_DEBUG=INFO lines that name no network"))
    elif fabric not in _ONLY_OVER.get(topology.network, (fabric,)):
        flags.append(
            NcclFlag(
                code="other_fabric",
                message=(
                    f"NCCL used {topology.network}, which runs over "
                    f"{' or '.join(_ONLY_OVER[topology.network])}, "
                    f"yet the bid offers {fabric}: this run did not measure that fabric; ask for a "
                    "run on "
                    "the cluster bid"
                ),
            )
        )
    elif rdma and topology.network == "Socket":
        flags.append(
            NcclFlag(
                code="ran_over_sockets",
                message=(
                    f"NCCL used TCP sockets (NET/Socket), yet the bid offers {fabric} with RDMA: "
                    "this run did not "
                    "measure that fabric; ask for a run where NCCL reports NET/IB (InfiniBand/RoCE)"
                ),
            )
        )
    elif gpudirect and topology.gpudirect_rdma is False:
        flags.append(
            NcclFlag(
                code="gdr_off",
                message=(
                    f"NCCL reports GPUDirect RDMA disabled, yet the bid claims it on {fabric}: "
                    "data went through "
                    "host memory; ask for a run with GPUDirect RDMA enabled (nvidia-peermem loaded)"
                ),
            )
        )
    return flags


def _unconfirmed(fabric: str, missing: str) -> NcclFlag:
    return NcclFlag(
        code="fabric_unconfirmed",
        message=(
            f"the log {missing}, so nothing in it shows the run used the bid's {fabric}: it may "
            "have "
            "been measured on another fabric; ask for the run again with NCCL_DEBUG=INFO"
        ),
    )
