"""Which versions of ClusterBid were released and which cost models priced their memos, so that
verify can tell an honest difference between versions from a forged one.

A memo's attached inputs record the version that made it, and whoever prepared the memo wrote
that record. Verify forgives pages and figures that differ only where another version really
made them differently: a version that was released with another model (or whose model is not
known), or one newer than this build. A recorded version that was never released, none at all, or
a release priced by this very model gets no such excuse: its differences are proven (INVALID).

When `__version__` is raised, add its line here with the models it ships
(tests/core/memo_signing/test_released_versions.py holds this build's line to its models).
"""

from __future__ import annotations

import re
from typing import Any

from clusterbid import __version__
from clusterbid.core.costmodel import MODEL_VERSION, SERVING_MODEL_VERSION

# version -> {"training": model, "inference": model}; None where the version number stood still
# while the models moved (0.1.0 spanned many changes to both), so its figures cannot be judged.
RELEASED_MODELS: dict[str, dict[str, str] | None] = {
    "0.1.0": None,
    "0.1.1": {"training": "training-3", "inference": "serving-1"},
    "0.1.2": {"training": "training-3", "inference": "serving-2"},
    "0.1.3": {"training": "training-3", "inference": "serving-3"},
}
THIS_BUILDS_MODELS = {"training": MODEL_VERSION, "inference": SERVING_MODEL_VERSION}


def _parts(version: object) -> tuple[int, int, int] | None:
    """A version as ClusterBid numbers them (three numbers, "0.1.2"); None for anything else
    ("0.1.2.0" is not a newer 0.1.2, "0.1.1-forged" not a release)."""
    if not isinstance(version, str) or not re.fullmatch(r"\d+\.\d+\.\d+", version):
        return None
    major, minor, patch = (int(part) for part in version.split("."))
    return major, minor, patch


def another_release(recorded: object) -> bool:
    """True when `recorded` names a version other than this build that may honestly render
    other pages: a released one, or one newer than this build (verify with that version)."""
    if recorded == __version__:
        return False
    if isinstance(recorded, str) and recorded in RELEASED_MODELS:
        return True
    mine, theirs = _parts(__version__), _parts(recorded)
    return mine is not None and theirs is not None and theirs > mine


def memo_kind(data: dict[str, Any]) -> str:
    """ "inference" for a serving memo's inputs, else "training"."""
    evaluation = data.get("evaluation")
    workload = evaluation.get("workload") if isinstance(evaluation, dict) else None
    kind = workload.get("kind") if isinstance(workload, dict) else None
    return "inference" if kind == "inference" else "training"


def why_figures_must_match(data: dict[str, Any]) -> str | None:
    """None when the recorded version may honestly have priced the memo's figures otherwise (a
    release with another model for this kind of memo, 0.1.0 whose models are not known, or a
    newer version with another model); else why the figures must be this build's: "" for this
    very version, or the reason in words."""
    recorded, model = data.get("software_version"), data.get("model_version")
    kind = memo_kind(data)
    mine = THIS_BUILDS_MODELS[kind]
    if recorded == __version__:
        return ""
    if not another_release(recorded):
        return f"the memo records ClusterBid {recorded!r}, which was never released"
    shipped = RELEASED_MODELS.get(str(recorded), {})
    if shipped is None:  # 0.1.0: its number stood still while its models moved
        return None
    if shipped and shipped[kind] == mine:
        return (
            f"ClusterBid {recorded} priced it with this model too ({mine}), so the figures must "
            "be the same"
        )
    if shipped and model != shipped[kind]:
        return f"it records cost model {model!r}, which ClusterBid {recorded} did not ship"
    if model == mine:  # a newer version, by its own record priced with this build's model
        return f"it records this build's cost model ({mine}), so the figures must be the same"
    return None


def figures_judged(data: dict[str, Any], differences: list[str]) -> tuple[list[str], list[str]]:
    """(problems, unproven) for figures the re-score gives other than the memo prints."""
    if not differences:
        return [], []
    said = (
        "re-scoring the attached inputs with this version's model gives other figures than "
        f"the memo prints ({len(differences)} difference(s))"
    )
    reason = why_figures_must_match(data)
    if reason is None:
        recorded = data.get("software_version")
        return [], [
            f"{said}: ClusterBid {recorded} made this memo, this is {__version__}; verify "
            "with that version to prove its figures"
        ]
    return [f"{said}; {reason}" if reason else said], []
