"""A re-score that differs from the printed figures is forgery only under the version that printed
them. ClusterBid 0.1.2 widened an unstated serving engine's band, so a serving memo 0.1.1 made and
signed re-scores to other figures under 0.1.2 with nothing altered: found on 2026-11-27, verify
called such a memo INVALID. Now another version's differences leave it unproven (INDETERMINATE,
"verify with that version"), as its pages do (page_proof.py); under the same version they are
still a problem (INVALID)."""

from __future__ import annotations

from clusterbid import __version__
from clusterbid.core.memo import verification
from clusterbid.core.memo.page_proof import PageProof

DIFFERENCES = ["helio-h200: chance of being cheapest 45% printed, 41% re-scored"]


def _judged(monkeypatch, made_by: str) -> tuple[list[str], list[str]]:
    # The pages are proven here (a proof with nothing found), so only the figures are judged.
    monkeypatch.setattr(
        verification, "prove_pages", lambda data, exported, images: PageProof("identical")
    )
    data = {"software_version": made_by}
    return verification._pages_and_figures(data, DIFFERENCES, b"%PDF", True, {})


def test_other_figures_under_the_version_that_printed_them_are_a_problem(monkeypatch):
    problems, unproven = _judged(monkeypatch, __version__)
    assert problems == [
        "re-scoring the attached inputs with this version's model gives other figures than the "
        "memo prints (1 difference(s))"
    ]
    assert unproven == []


def test_other_figures_under_another_version_are_unproven_not_forged(monkeypatch):
    problems, unproven = _judged(monkeypatch, "0.1.1")
    assert problems == []
    assert len(unproven) == 1
    assert f"ClusterBid 0.1.1 made this memo, this is {__version__}" in unproven[0]
    assert "verify with that version to prove its figures" in unproven[0]


def test_no_differences_nothing_said(monkeypatch):
    monkeypatch.setattr(
        verification, "prove_pages", lambda data, exported, images: PageProof("identical")
    )
    assert verification._pages_and_figures({"software_version": "0.1.1"}, [], b"", True, {}) == (
        [],
        [],
    )
