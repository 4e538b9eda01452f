"""Uncertainty and sensitivity of the ranking: Monte Carlo over bids x samples, tipping points of
the weights, and a tornado of the inputs that move the cost to finish most."""

from clusterbid.core.uncertainty.montecarlo import (
    BidUncertainty,
    UncertaintyResult,
    run_monte_carlo,
)
from clusterbid.core.uncertainty.sensitivity import Sensitivity, analyse_sensitivity
from clusterbid.core.uncertainty.spreads import Spreads, UncertainInput
from clusterbid.core.uncertainty.tipping import TippingPoint
from clusterbid.core.uncertainty.tornado import TornadoBar

__all__ = [
    "BidUncertainty",
    "Sensitivity",
    "Spreads",
    "TippingPoint",
    "TornadoBar",
    "UncertainInput",
    "UncertaintyResult",
    "analyse_sensitivity",
    "run_monte_carlo",
]
