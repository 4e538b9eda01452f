"""The shared cost model: every bid scored the same way, as the cost and time to finish the job."""

# Bumped whenever a change to the model can move a figure, so a memo records which model priced it.
# 3: attention FLOPs, recomputation, width, activations, model-parallel comms, evidence fit;
# 2: contract economics (commitment, plan, net plan cost)
MODEL_VERSION = "training-3"
# The serving model is versioned on its own: a change to one must not re-date memos of the other.
# 2: the serving engine (a named engine's published efficiencies; an unstated one widens the
# bands), a run carried across tensor-parallel degrees drawn wider (issue 37)
# 3: that widening per doubling of the replica (0.117, one engine's same-GPU runs out of sample),
# and a run carried to another GPU drawn wider by log(1.194) (issue 37, target d)
SERVING_MODEL_VERSION = "serving-3"
