"""JSON Schemas for bids and evaluations, generated from the pydantic models."""

from __future__ import annotations

import json

from pydantic import BaseModel

from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.serving_workload import InferenceWorkload
from clusterbid.core.workload import Workload

SCHEMAS: dict[str, type[BaseModel]] = {
    "bid.schema.json": Bid,
    "evaluation.schema.json": Evaluation,
    "workload.schema.json": Workload,
    "inference-workload.schema.json": InferenceWorkload,
}


def schema_texts() -> dict[str, str]:
    """File name -> schema text, stable across runs so the checked-in copies can be compared."""
    texts = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema(mode="validation")
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"clusterbid:{name}"
        texts[name] = json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return texts
