"""Fixtures for the store tests: a small valid evaluation and a fresh document path."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_evaluation

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument


@pytest.fixture
def evaluation() -> Evaluation:
    return make_evaluation(2)


@pytest.fixture
def doc_path(tmp_path: Path) -> Path:
    return tmp_path / "round.clusterbid"


@pytest.fixture
def document(doc_path: Path, evaluation: Evaluation):
    with EvaluationDocument.create(doc_path, evaluation, user="alice") as doc:
        yield doc
