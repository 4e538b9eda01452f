"""Queueing headroom against textbook Erlang-C values computed here by the defining sum."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clusterbid.core.costmodel.serving_queue import (
    erlang_c,
    replicas_with_headroom,
    wait_at_percentile_s,
)


def _erlang_c_by_the_sum(c: int, a: float) -> float:
    """C(c, a) = (a^c/c! x c/(c-a)) / (sum_{k<c} a^k/k! + a^c/c! x c/(c-a)), in logs."""
    terms = [k * math.log(a) - math.lgamma(k + 1) for k in range(c)]
    top = c * math.log(a) - math.lgamma(c + 1) + math.log(c / (c - a))
    peak = max(*terms, top)
    below = sum(math.exp(t - peak) for t in terms)
    return math.exp(top - peak) / (below + math.exp(top - peak))


def test_erlang_c_matches_the_textbook():
    # M/M/1: the chance of waiting is the utilisation. Two servers at one Erlang:
    # (1/2 x 2) / (1 + 1 + 1) = 1/3.
    assert erlang_c(np.array([1.0]), np.array([0.6]))[0] == pytest.approx(0.6)
    assert erlang_c(np.array([2.0]), np.array([1.0]))[0] == pytest.approx(1 / 3)
    assert erlang_c(np.array([50.0]), np.array([45.0]))[0] == pytest.approx(
        _erlang_c_by_the_sum(50, 45.0), rel=1e-9
    )


def test_the_large_pool_approximation_stays_close_to_the_exact_sum():
    exact = _erlang_c_by_the_sum(6000, 5900.0)
    assert erlang_c(np.array([6000.0]), np.array([5900.0]))[0] == pytest.approx(exact, rel=0.02)


def test_an_overloaded_pool_always_waits_and_never_meets_a_percentile():
    assert erlang_c(np.array([10.0]), np.array([10.0]))[0] == 1.0
    assert np.isinf(wait_at_percentile_s(np.array([10.0]), np.array([12.0]), 1.0, 0.9)[0])


def test_the_wait_at_a_percentile_follows_the_exponential_tail():
    # 2 servers, 1 Erlang, service 1 s: C = 1/3; P(W > t) = 1/3 exp(-(2 - 1) t), so the P90
    # wait solves 1/3 exp(-t) = 0.1: t = ln(10/3) = 1.204 s.
    assert wait_at_percentile_s(np.array([2.0]), np.array([1.0]), 1.0, 0.9)[0] == pytest.approx(
        math.log(10 / 3)
    )
    # At P60 fewer than 40% wait at all: no wait.
    assert wait_at_percentile_s(np.array([2.0]), np.array([1.0]), 1.0, 0.6)[0] == 0.0


def test_headroom_adds_replicas_only_when_the_slack_is_short():
    # 1 slot per replica, 1 request/s of 1 s service: the mean needs 2 replicas (1 Erlang < 2).
    # With 2 replicas the P90 wait is 1.204 s (above); with 3 it is
    # C(3, 1) = (1/6 x 1.5) / (1 + 1 + 1/2 + 1/4) = 1/11 < 10%: no wait.
    one = np.array([1.0])
    assert replicas_with_headroom(np.array([2.0]), one, 1.0, one, np.array([2.0]), 0.9)[0] == 2
    assert replicas_with_headroom(np.array([2.0]), one, 1.0, one, np.array([1.0]), 0.9)[0] == 3
    assert np.isinf(replicas_with_headroom(np.array([2.0]), one, 1.0, one, np.array([0.0]), 0.9)[0])
