"""The shared cost model: every bid scored the same way, as the cost and time to finish the job."""
