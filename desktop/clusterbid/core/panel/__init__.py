"""An evaluation panel, offline: evaluator copies, their merge, divergence and consensus."""
