"""Tipping points in an officer's words: weights by name, rivals by provider and id, no "-0.00"."""

from __future__ import annotations

import re

from tests.conftest import EXAMPLES

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo.content import tipping_rows
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty import analyse_sensitivity
from clusterbid.core.uncertainty.tipping import TippingPoint, tipping_sentence

WORDS = {"b": "Beta Cloud (b)"}
SNAKE_CASE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_a_crossing_at_zero_reads_as_drawing_level_never_minus_zero():
    # The solver reports a rival that ties the winner with the weight at zero as -0.0 (x = -0/slope).
    at_zero = TippingPoint(
        current=5, lower=-0.0, upper=None, winner_then=None, winner_below="b", winner_above=None
    )
    assert tipping_sentence(at_zero, WORDS) == "at 0 Beta Cloud (b) draws level; holds up to 100"
    inside = TippingPoint(
        current=70, lower=34.04, upper=80.0, winner_then=None, winner_below="b", winner_above="b"
    )
    assert (
        tipping_sentence(inside, WORDS)
        == "below 34.0 Beta Cloud (b) wins; above 80.0 Beta Cloud (b) wins"
    )


def test_the_cli_names_weights_and_rivals_in_words(capsys):
    assert main(["score", str(EXAMPLES / "demo-evaluation.json"), "--samples", "500"]) == 0
    out = capsys.readouterr().out
    block = out.split("Tipping points of the weights")[1].split("\n\n")[0]
    assert "winner now: Northwind AI Cloud (northwind-ib)" in block
    assert "  Net plan cost " in block and "  Data-centre tier " in block
    # The demo's rival past each edge is Hyperscale Prime (its README tipping points), never a bare id.
    assert "Hyperscale Prime (prime-efa) wins" in block
    assert not SNAKE_CASE.search(block) and "-0.0" not in block
    assert not re.search(r"(?<!\()\bprime-efa\b(?!\))", block)


def test_the_memo_tipping_table_names_each_rival_by_its_provider():
    evaluation = demo_evaluation()
    scorecard = score_evaluation(evaluation)
    rows = tipping_rows(analyse_sensitivity(evaluation, scorecard=scorecard), scorecard)
    rivals = {cell for row in rows[1:] for cell in row[3:] if cell != "-"}
    assert rivals == {"Hyperscale Prime wins"}  # as approvers know the bid, not its id
    assert [row[0] for row in rows[1:]] == sorted(
        [
            "Certifications",
            "Contract terms",
            "Net plan cost",
            "Data-centre tier",
            "Evidence",
            "SLA",
            "Support",
        ],
        key=lambda words: {
            "Net plan cost": "cost_to_finish",
            "Data-centre tier": "datacenter_tier",
            "Contract terms": "contract_terms",
        }.get(words, words.lower()),
    )
