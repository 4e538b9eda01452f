"""The acceptance plan of an awarded bid (the claims that won, as contract tests) and the results
returned after handover, matched to those tests (issue 39)."""
