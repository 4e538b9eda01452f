"""A three-evaluator panel on the demo, invited and judged (test_panel_by_hand.py works it out)."""

from __future__ import annotations

from pathlib import Path

from clusterbid.core.comparison_table import KeptTableDocument
from clusterbid.core.demo import demo_evaluation
from clusterbid.operations import panel

ZERO = [
    "Net plan cost=0",
    "SLA=0",
    "Data-centre tier=0",
    "Certifications=0",
    "Support=0",
    "Contract terms=0",
    "Evidence=0",
    "Technical approach=0",
]
BIDS = ("northwind-ib", "cumulus-roce", "prime-efa", "legacy-a100")
SAMPLES = 400  # the cost weighs nothing here; the Monte Carlo only has to run

# Technical approach scores (0-10) each evaluator gives the four passing bids.
JUDGED = {
    "Ana Ruiz, Technical lead": (["Technical approach=60", "Support=40"], (9, 6, 7, 3)),
    "Ben Okafor, Commercial": (
        ["Technical approach=20", "Certifications=40", "Data-centre tier=40"],
        (5, 8, 6, 4),
    ),
    "Chen Li, Programme lead": (["Technical approach=100"], (4, 9, 7, 2)),
}


def make_panel(folder: Path) -> tuple[Path, list[Path]]:
    lead = folder / "lead.clusterbid"
    KeptTableDocument.create(lead, demo_evaluation()).close()
    copies = panel.invite(lead, list(JUDGED), folder / "copies", ["Technical approach"])
    for copy, (weights, scores) in zip(copies, JUDGED.values()):
        panel.judge(
            copy,
            weights=ZERO + weights,
            scores=[f"Technical approach:{bid}={s}" for bid, s in zip(BIDS, scores)],
            questions=["legacy-a100: Will the A100s be replaced within the term?"],
        )
    return lead, copies
