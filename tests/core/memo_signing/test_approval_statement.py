"""The approval statement built from a memo's attached inputs: the amount to the cent with its
currency code, the override's bid when the officer overrode the model, a serving memo's monthly
bill; inputs written here by hand."""

from __future__ import annotations

from clusterbid.core.memo.approval_statement import approval_statement, approval_terms, reason_text

SHA = "abcdef12" + "0" * 56


def _inputs(**results) -> dict:
    return {
        "evaluation": {
            "currency": "EUR",
            "bids": [
                {"id": "b1", "quote": {"provider": "First Cloud"}},
                {"id": "b2", "quote": {"provider": "Second Cloud"}},
            ],
        },
        "results": {"ranking": ["b1", "b2"], "bids": results},
        "override": None,
    }


def test_a_training_memo_states_the_total_commitment():
    data = _inputs(b1={"total_commitment": "1234567.5"})
    assert approval_statement(data, SHA, 2) == (
        "Approver 2 approves a total commitment of EUR 1,234,567.50 to First Cloud; memo "
        "CB-ABCDEF12, "
        f"inputs SHA-256 {SHA}"
    )


def test_the_officers_override_is_what_is_approved():
    data = {
        **_inputs(b1={"total_commitment": "100"}, b2={"total_commitment": "90.25"}),
        "override": {"bid_id": "b2", "justification": "local support"},
    }
    assert approval_terms(data, SHA).startswith("a total commitment of EUR 90.25 to Second Cloud;")


def test_a_serving_memo_states_the_monthly_bill():
    data = _inputs(b1={"monthly_cost": "98765", "cost_per_million_output_tokens": "1.20"})
    assert approval_terms(data, SHA).startswith("EUR 98,765.00 a month to First Cloud;")
    # as memos signed before bids were named in words stated it (verify still accepts those)
    assert approval_terms(data, SHA, legacy=True).startswith(
        "EUR 98,765.00 a month to First Cloud, bid b1;"
    )


def test_no_bid_passing_is_said_and_a_remark_is_one_short_line():
    data = {**_inputs(), "results": {"ranking": [], "bids": {}}}
    assert approval_terms(data, SHA).startswith("no bid (none passes the gates);")
    assert reason_text("S", "  two\nlines ") == "S; remark: two lines"
    assert len(reason_text("S", "x" * 500)) == len("S; remark: ") + 200
