"""The shared cost model: every bid scored the same way, as the cost and time to finish the job."""

# Bumped whenever a change to the model can move a figure, so a memo records which model priced it.
MODEL_VERSION = "training-2"  # 2: contract economics (commitment, plan, net plan cost)
# The serving model is versioned on its own: a change to one must not re-date memos of the other.
SERVING_MODEL_VERSION = "serving-1"
