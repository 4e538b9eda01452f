"""Bring an open document to a target snapshot as one audited user action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument

if TYPE_CHECKING:
    from clusterbid.core.store.artefacts import NewArtefact


def apply_snapshot(
    document: EvaluationDocument, target: Evaluation, label: str, files: Sequence[NewArtefact] = ()
) -> Evaluation:
    """One transaction and one audit row, however many bids the action touches (an undone import,
    a wizard edit that renamed a bid): a crash leaves the state before or after, never between.
    `files` (NewArtefact): the raw evidence files the edit's figures come from, kept with it."""
    return document.apply(target, label, files)
