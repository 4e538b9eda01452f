"""Issue 39, item 4: the Contract page's "How the SLA credit is paid" group enters the SLA's claim
terms; left blank, each stays not stated (the cautious defaults of methodology section 9)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.timeout(60)


def test_the_sla_claim_terms_are_entered_and_blank_stays_not_stated(open_wizard, evaluation):
    northwind = evaluation.bids[0]
    wizard = open_wizard(northwind)
    page = next(p for p in wizard.section_pages() if p.title() == "Contract and billing")
    assert wizard.result_bid().sla_claims == northwind.sla_claims  # the demo states none: all blank
    assert all(
        getattr(wizard.result_bid().sla_claims, name) is None
        for name in ("covered_percent", "automatic", "claim_window_days", "cap_percent")
    )
    page.binding("sla_claims", "claim_window_days").write(30)
    page.binding("sla_claims", "automatic").write(False)
    page.binding("sla_claims", "cap_percent").write(25)
    claims = wizard.result_bid().sla_claims
    assert (
        claims.claim_window_days,
        claims.automatic,
        claims.cap_percent,
        claims.covered_percent,
    ) == (30, False, 25, None)
    assert claims.not_stated() == ["what counts as downtime"]
