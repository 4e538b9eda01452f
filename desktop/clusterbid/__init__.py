"""ClusterBid: score GPU-cluster bids by the cost and time to finish the buyer's job."""

__version__ = "0.1.3"
