"""FLOP counts are printed as people read them (issue 19: '5.880e+23' unexplained on the memo)."""

from __future__ import annotations

from clusterbid.core.flops import flops_text


def test_a_flop_count_prints_as_a_power_of_ten_not_e_notation():
    # 70e9 params x 1.4e12 tokens x 6 = 5.88e23 (the demo's 6ND before the attention term).
    assert flops_text(6 * 70e9 * 1.4e12) == "5.88 × 10²³ FLOPs"
    assert flops_text(6 * 70e9 * 1.4e12, plain=True) == "5.88 x 10^23 FLOPs"
    # 9.996e23 rounds to 10.00 at two places: said as 1.00 x 10^24, never "10.00 x 10^23".
    assert flops_text(9.996e23) == "1.00 × 10²⁴ FLOPs"
    assert flops_text(3.2e18) == "3.20 × 10¹⁸ FLOPs"
