"""The bundled demo evaluation: a 70B training job on 512 GPUs and six bids that teach the lesson."""

from __future__ import annotations

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.model_parsing import read_model
from clusterbid.resources import resource_path

DEMO_FILE = ("examples", "demo-evaluation.json")


def demo_evaluation() -> Evaluation:
    return read_model(Evaluation, resource_path(*DEMO_FILE))
