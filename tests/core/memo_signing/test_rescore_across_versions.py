"""A re-score that differs from the printed figures is forgery unless another release's model may
honestly give other figures (core/memo/released_versions.py).

Found on 2026-11-27: ClusterBid 0.1.2 widened an unstated serving engine's band, so a serving memo
0.1.1 made and signed re-scored to other figures under 0.1.2 with nothing altered, and verify
called it INVALID. Then a review found the first fix trusted the version the memo records, which
whoever prepared the memo writes: a forged training memo recorded as made by 0.1.1, or by a
version that never existed, verified INDETERMINATE. Now the excuse holds only where the recorded
release priced that kind of memo with another model than this build's."""

from __future__ import annotations

import pytest

from clusterbid import __version__
from clusterbid.core.memo import verification
from clusterbid.core.memo.page_proof import PageProof
from clusterbid.core.memo.released_versions import RELEASED_MODELS

DIFFERENCES = ["helio-h200: chance of being cheapest 45% printed, 41% re-scored"]
SAID = (
    "re-scoring the attached inputs with this version's model gives other figures than the memo "
    "prints (1 difference(s))"
)


def _judged(
    monkeypatch, made_by, kind: str = "training", model: str | None = "as shipped"
) -> tuple[list[str], list[str]]:
    # The pages are proven here (a proof with nothing found), so only the figures are judged.
    # `model`: the cost model the inputs record; "as shipped" is the one the release shipped.
    monkeypatch.setattr(
        verification, "prove_pages", lambda data, exported, images: PageProof("identical")
    )
    data = {"evaluation": {"workload": {"kind": kind}}}
    if made_by is not None:
        data["software_version"] = made_by
    if model == "as shipped":
        model = (RELEASED_MODELS.get(made_by) or {}).get(kind, "training-9")
    data["model_version"] = model
    return verification._pages_and_figures(data, DIFFERENCES, b"%PDF", True, {})


def test_other_figures_under_the_version_that_printed_them_are_a_problem(monkeypatch):
    assert _judged(monkeypatch, __version__) == ([SAID], [])


def test_a_serving_memo_of_a_release_with_another_serving_model_is_unproven(monkeypatch):
    # 0.1.1 priced serving memos with serving-1; this build's serving model is serving-3.
    assert RELEASED_MODELS["0.1.1"]["inference"] != RELEASED_MODELS[__version__]["inference"]
    problems, unproven = _judged(monkeypatch, "0.1.1", "inference")
    assert problems == []
    assert unproven == [
        f"{SAID}: ClusterBid 0.1.1 made this memo, this is {__version__}; verify with that "
        "version to prove its figures"
    ]


def test_a_training_memo_recorded_as_0_1_1_is_held_to_the_same_model(monkeypatch):
    # 0.1.1 and this build price training with the same model: the figures must be the same.
    assert RELEASED_MODELS["0.1.1"]["training"] == RELEASED_MODELS[__version__]["training"]
    problems, unproven = _judged(monkeypatch, "0.1.1", "training")
    assert unproven == [] and len(problems) == 1
    assert problems[0].startswith(SAID) and "priced it with this model too" in problems[0]


@pytest.mark.parametrize("recorded", [None, "", "0.0.7", "0.1.1-forged", "0.1.2.0", "1.0", 12])
def test_a_version_never_released_or_none_is_no_excuse(monkeypatch, recorded):
    # "0.1.2.0" sorted above 0.1.2 and passed as newer (second review): ClusterBid numbers its
    # versions with three numbers, so anything else was never released.
    problems, unproven = _judged(monkeypatch, recorded)
    assert unproven == [] and len(problems) == 1 and "never released" in problems[0]


def test_a_newer_version_or_one_whose_models_are_unknown_is_unproven(monkeypatch):
    for recorded in ("99.0.0", "0.1.0"):  # newer than any build; 0.1.0 spanned many models
        problems, unproven = _judged(monkeypatch, recorded)
        assert problems == [] and "verify with that version" in unproven[0]


def test_a_claim_that_contradicts_itself_is_no_excuse(monkeypatch):
    """Second review: the inputs record the cost model too. A newer version that records this
    build's model, or a release recorded with a model it never shipped, must give this build's
    figures."""
    mine = RELEASED_MODELS[__version__]["training"]
    problems, unproven = _judged(monkeypatch, "99.0.0", model=mine)
    assert unproven == [] and f"it records this build's cost model ({mine})" in problems[0]
    problems, unproven = _judged(monkeypatch, "0.1.1", "inference", model="serving-7")
    assert unproven == [] and "'serving-7', which ClusterBid 0.1.1 did not ship" in problems[0]


def test_no_differences_nothing_said(monkeypatch):
    monkeypatch.setattr(
        verification, "prove_pages", lambda data, exported, images: PageProof("identical")
    )
    assert verification._pages_and_figures({"software_version": "0.0.7"}, [], b"", True, {}) == (
        [],
        [],
    )
