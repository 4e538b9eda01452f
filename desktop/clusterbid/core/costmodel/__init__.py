"""The shared cost model: every bid scored the same way, as the cost and time to finish the job."""

# Bumped whenever a change to the model can move a figure, so a memo records which model priced it.
# 3: attention FLOPs, recomputation, width, activations, model-parallel comms, evidence fit;
# 2: contract economics (commitment, plan, net plan cost)
MODEL_VERSION = "training-3"
# The serving model is versioned on its own: a change to one must not re-date memos of the other.
SERVING_MODEL_VERSION = "serving-1"
