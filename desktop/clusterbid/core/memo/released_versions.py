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

from typing import Any

from clusterbid import __version__
from clusterbid.core.costmodel import MODEL_VERSION, SERVING_MODEL_VERSION

# version -> {"training": model, "inference": model}; None where the version number stood still
# while the models moved (0.1.0 spanned many changes to both), so its figures cannot be judged.
RELEASED_MODELS: dict[str, dict[str, str] | None] = {
    "0.1.0": None,
    "0.1.1": {"training": "training-3", "inference": "serving-1"},
    "0.1.2": {"training": "training-3", "inference": "serving-2"},
}
THIS_BUILDS_MODELS = {"training": MODEL_VERSION, "inference": SERVING_MODEL_VERSION}


def _parts(version: object) -> tuple[int, ...] | None:
    if not isinstance(version, str):
        return None
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return None


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


def priced_by_another_model(data: dict[str, Any]) -> bool:
    """True when the recorded version may honestly have priced the memo's figures otherwise: it is
    another release whose model for this kind of memo is not this build's (or not known), or a
    newer version. False for this version, a release priced by this build's model, a version
    that was never released and no version at all."""
    recorded = data.get("software_version")
    if not another_release(recorded):
        return False
    if recorded not in RELEASED_MODELS:  # newer than this build: its model is not known here
        return True
    models = RELEASED_MODELS[str(recorded)]
    kind = memo_kind(data)
    return models is None or models[kind] != THIS_BUILDS_MODELS[kind]


def figures_judged(data: dict[str, Any], differences: list[str]) -> tuple[list[str], list[str]]:
    """(problems, unproven) for figures the re-score gives other than the memo prints."""
    if not differences:
        return [], []
    said = (
        "re-scoring the attached inputs with this version's model gives other figures than "
        f"the memo prints ({len(differences)} difference(s))"
    )
    recorded = data.get("software_version")
    if priced_by_another_model(data):
        return [], [
            f"{said}: ClusterBid {recorded} made this memo, this is {__version__}; verify "
            "with that version to prove its figures"
        ]
    if recorded == __version__:
        return [said], []
    if another_release(recorded):  # released, priced by this build's model: same figures due
        kind = memo_kind(data)
        return [f"{said}; ClusterBid {recorded} priced it with this model too "
                f"({THIS_BUILDS_MODELS[kind]}), so the figures must be the same"], []  # fmt: skip
    return [f"{said}; the memo records ClusterBid {recorded!r}, which was never released"], []
