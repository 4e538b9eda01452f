"""Issue 31's worked cases read on page 1 of the memo, with the ranking: a 24-month term against a
3-month one when the buyer states two further runs, and an exit clause whose fee nobody stated.
Seed 001's job: 256 GPUs for exactly 100 hours at $7 per GPU-hour (test_contract_economics.py)."""

from __future__ import annotations

import datetime as dt
import json
import subprocess

from tests.core.memo.test_render import needs_poppler
from tests.core.test_contract_economics import RESERVED, _seed
from tests.core.test_idle_value import _two_terms

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.making import make_memo

pytestmark = needs_poppler
APPROVERS = [("Ada Lovelace", "CFO")]


def _page_one(evaluation: Evaluation) -> str:
    pdf = make_memo(
        evaluation, approvers=APPROVERS, samples=2_000, decision_date=dt.date(2026, 12, 1)
    )
    done = subprocess.run(
        ["pdftotext", "-raw", "-f", "1", "-l", "1", "-", "-"],
        input=pdf,
        capture_output=True,
        check=True,
    )
    return " ".join(done.stdout.decode("utf-8").split())


def test_the_three_month_term_is_approved_over_the_24_month_one_and_page_one_says_what_each_commits():
    """3 months: 256 x 2,190 h x $7 = $3,924,480, a third of it the job's ($1,308,160), two thirds
    the two further runs'; 24 months: 256 x 17,520 h x $7 = $31,395,840, a third $10,465,280.
    Idle share of the 3 months: (2,190 - 100) / 2,190 = 95%."""
    page = _page_one(_two_terms({"idle_use": "more-runs", "further_runs": 2}))
    assert (
        "Approve a total commitment of $3,924,480.00 (USD) to Provider A (suitable networking)"
        in page
    )
    assert (
        "Recommended bid Provider A (suitable networking), H100-SXM" in page
    )  # bids in words (issue 38)
    assert "(the mean of the samples): $1,308,160" in page
    assert (
        "Commitment at risk 95% of the $3,924,480 commitment buys idle time, worth $2,616,320 "
        "under the "
        "plan; if the plan fails the net cost is $3,924,480, not $1,308,160"
    ) in page
    assert (
        "Long Term Cloud, H100-SXM (next by score and the likeliest to cost less): net "
        "$10,465,280, commits $31,395,840" in page
    )


def test_a_fee_less_exit_clause_loses_to_a_stated_one_on_page_one():
    """The same one-month term, both with an exit clause. Fee stated at 50%: leave after the job
    for 256 x 100 x 7 + 0.5 x 256 x 630 x 7 = $743,680. Fee not stated: priced at 100% of the
    rest, so leaving costs the whole $1,308,160 and the plan keeps the term."""
    data = _seed(**RESERVED, exit_clause=True)
    silent = data["bids"][0]
    stated = json.loads(json.dumps(silent))
    silent["id"], stated["id"] = "fee-not-stated", "fee-stated"
    stated["quote"]["provider"] = "Stated Exit Cloud"
    stated["terms"]["early_exit_fee_percent"] = 50
    data["bids"] = [silent, stated]
    page = _page_one(Evaluation.model_validate(data))
    assert "Recommended bid Stated Exit Cloud, H100-SXM" in page
    assert "early exit allowed at 50% of the remaining term" in page
    assert "the point estimate $743,680" in page
    assert (
        "Provider A (suitable networking), H100-SXM (next by score and the likeliest to cost "
        "less): "
        "net $1,308,160, commits $1,308,160" in page
    )
    # Idle time worth nothing under the plan: page 1 says so once, not "$743,680, not $743,680".
    assert "the net cost already counts it as lost, so a failed plan adds nothing" in page
    assert "not $743,680" not in page
