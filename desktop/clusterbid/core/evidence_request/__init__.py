"""Requests for evidence: what to ask each provider to run and return, and whether they did."""
