"""Issue 32: a bid is checked once, when it is made; an edit that places the same (frozen) bid
objects in a new evaluation does not run every bid's rules again, but any other bid object (a
copy with changes, one built without validation) still meets every rule."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tests.conftest import bid_dict, evaluation_dict

from clusterbid.core import bid as bid_module
from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import Evaluation


def _counted_text_checks(monkeypatch) -> list[str]:
    checked: list[str] = []
    real = bid_module.check_model_text

    def counted(model, *args, **kwargs):
        checked.append(model.id)
        return real(model, *args, **kwargs)

    monkeypatch.setattr(bid_module, "check_model_text", counted)
    return checked


def _with_bids(evaluation: Evaluation, bids: tuple) -> Evaluation:
    fields = {name: getattr(evaluation, name) for name in Evaluation.model_fields}
    return Evaluation.model_validate({**fields, "bids": bids})


def test_an_edit_checks_only_the_bids_it_brings(monkeypatch):
    checked = _counted_text_checks(monkeypatch)
    evaluation = Evaluation.model_validate(evaluation_dict([bid_dict(f"b{i}") for i in range(5)]))
    assert checked == ["b0", "b1", "b2", "b3", "b4"]  # each bid checked as it was made
    edited = Bid.model_validate(
        {**bid_dict("b2"), "quote": {"provider": "Renamed", "reference": "Q-2"}}
    )
    checked.clear()
    new = _with_bids(evaluation, tuple(edited if b.id == "b2" else b for b in evaluation.bids))
    assert (
        checked == []
    )  # b2's new version was checked when it was built, above; the other 4 were kept
    assert new.bids[2].quote.provider == "Renamed"
    weights_only = _with_bids(new, new.bids)
    assert checked == [] and weights_only == new


def test_a_changed_copy_of_a_checked_bid_meets_every_rule():
    evaluation = Evaluation.model_validate(evaluation_dict([bid_dict("b1")]))
    hidden = evaluation.bids[0].model_copy(
        update={
            "quote": evaluation.bids[0].quote.model_copy(update={"provider": "Acme\u202etxt.exe"})
        }
    )  # a right-to-left override hiding a name
    with pytest.raises(ValidationError, match="quote.provider"):
        _with_bids(evaluation, (hidden,))


def test_a_bid_built_without_validation_meets_every_rule():
    good = Bid.model_validate(bid_dict("b1"))
    too_wide = good.topology.model_copy(
        update={"nvlink_domain_gpus": 72}
    )  # H100-SXM: 8 per NVLink domain
    unchecked = Bid.model_construct(**{**dict(good), "topology": too_wide})
    evaluation = Evaluation.model_validate(evaluation_dict([bid_dict("b0")]))
    with pytest.raises(ValidationError, match="exceeds the 8-GPU NVLink domain"):
        _with_bids(evaluation, (unchecked,))
