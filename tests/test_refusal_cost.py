"""The probe the refusal tests measure with can see what it must: memory a call holds, CPU a call
spends, and what it raised (so a bound on either can fail)."""

from __future__ import annotations

from tests.refusal_cost import refusal_cost


def test_a_call_that_holds_200_mib_is_seen_to_grow_by_it():
    # 200 MiB touched page by page (an untouched bytearray might never be resident).
    call = (
        "held = bytearray(200 << 20)\nheld[::4096] = b'1' * len(held[::4096])\nraise KeyError('k')"
    )
    cost = refusal_cost("pass", call)
    assert 190 < cost.memory_growth_mib < 260
    assert cost.refused_with(KeyError) and cost.refused_with(LookupError)
    assert not cost.refused_with(ValueError)


def test_setup_is_left_out_and_a_clean_return_raises_nothing():
    # The setup's 300 MiB and its CPU are spent before the measurement starts.
    setup = "held = bytearray(300 << 20)\nheld[::4096] = b'1' * len(held[::4096])"
    cost = refusal_cost(setup, "total = sum(range(int(ARGS[0])))", "20000000")
    assert cost.raised == () and cost.message == ""
    assert cost.memory_growth_mib < 20
    assert cost.cpu_seconds > 0.05  # 20 million additions are not free, on any machine


def test_a_peak_the_setup_reached_and_let_go_is_not_the_calls():
    # Found by review: the setup's 300 MiB, freed, stayed in the high-water mark the call was
    # measured by, so a call that did nothing reported 300 MiB.
    setup = "held = bytearray(300 << 20)\nheld[::4096] = b'1' * len(held[::4096])\ndel held"
    cost = refusal_cost(setup, "pass")
    assert cost.memory_growth_mib < 20
