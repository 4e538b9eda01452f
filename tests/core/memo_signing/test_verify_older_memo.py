"""A memo signed by an earlier version attaches an evaluation without the fields added since (the
recipe columns of issue 39, for one). Comparing it with `--evaluation` must not call that a
difference: only what was decided counts."""

from __future__ import annotations

import json

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo.verification_differences import compare_evaluation


def _without_unset_fields(value):
    """What a version that did not yet have the optional fields wrote: no key for them."""
    if isinstance(value, dict):
        return {k: _without_unset_fields(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_unset_fields(v) for v in value]
    return value


def test_fields_added_since_the_memo_was_signed_are_not_differences():
    evaluation = demo_evaluation()
    written_now = json.loads(evaluation.model_dump_json())
    older = _without_unset_fields(written_now)
    assert older != written_now  # the demo has optional fields left unset: the case is real
    assert compare_evaluation(older, evaluation) == []


def test_a_changed_price_in_an_older_memo_still_differs():
    evaluation = demo_evaluation()
    older = _without_unset_fields(json.loads(evaluation.model_dump_json()))
    first = older["bids"][0]
    first["terms"]["price_per_gpu_hour"] = "2.86"  # the demo's first bid quotes $2.85
    assert compare_evaluation(older, evaluation) == [f"bid {first['id']} differs"]


def test_an_attachment_the_schema_refuses_is_compared_as_it_stands():
    evaluation = demo_evaluation()
    broken = json.loads(evaluation.model_dump_json())
    broken["bids"][0]["quote"] = "not a quote"
    assert compare_evaluation(broken, evaluation) == [f"bid {broken['bids'][0]['id']} differs"]
