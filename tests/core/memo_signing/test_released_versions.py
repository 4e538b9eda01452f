"""This build's version is listed among the releases with the cost models it ships, so a memo it
makes can be judged by a later build (core/memo/released_versions.py). Raising __version__
without adding its line fails here."""

from __future__ import annotations

from clusterbid import __version__
from clusterbid.core.costmodel import MODEL_VERSION, SERVING_MODEL_VERSION
from clusterbid.core.memo.released_versions import RELEASED_MODELS, another_release


def test_this_build_is_listed_with_its_models():
    assert RELEASED_MODELS[__version__] == {
        "training": MODEL_VERSION,
        "inference": SERVING_MODEL_VERSION,
    }


def test_pages_are_excused_only_for_a_real_other_release():
    assert not another_release(__version__)
    assert another_release("0.1.1") and another_release("0.1.0") and another_release("99.0.0")
    for never in (None, "", "0.0.7", "0.1.1-forged", "0.1.2.0", "1.0", 12):
        assert not another_release(never), never
