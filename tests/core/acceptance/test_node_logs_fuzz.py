"""The DCGM and soak readers, fuzzed as the other readers are (tests/core/test_fuzz_every_reader):
whatever the bytes, a parsed report or an InputError naming the file, never another exception."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.core.acceptance.test_node_logs import PASS
from tests.core.test_fuzz_every_reader import SCALE, _mutate

from clusterbid.core.acceptance.node_logs import parse_dcgm_diag, parse_soak_log
from clusterbid.core.errors import InputError

SOAK = (
    b"# started: 2026-12-01T00:00:00Z\n# ended: 2026-12-02T00:00:00Z\n# gpus: 576\n"
    b"time,node,event,detail\n2026-12-01T05:12:00Z,node017,failure,XID 79\n"
    b'2026-12-01T06:00:00Z,node003,error-counter,"ECC 0 -> 2, row remap"\n'
)
BUDGET = settings(
    max_examples=60 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@BUDGET
@given(seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 40))
def test_a_mutated_dcgm_table_is_read_or_refused_by_name(seed, edits):
    text = _mutate(PASS.decode(), random.Random(seed), edits)
    try:
        parse_dcgm_diag(text.encode(), "ACC-dcgm_n1.txt")
    except InputError as exc:
        assert str(exc).startswith("ACC-dcgm_n1.txt")


@BUDGET
@given(seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 40))
def test_a_mutated_soak_log_is_read_or_refused_by_name(seed, edits):
    text = _mutate(SOAK.decode(), random.Random(seed), edits)
    try:
        parse_soak_log(text.encode(), "ACC-soak_log.csv")
    except InputError as exc:
        assert str(exc).startswith("ACC-soak_log.csv")


@BUDGET
@given(data=st.binary(max_size=2000))
def test_any_bytes_are_read_or_refused_by_name(data):
    for reader, name in ((parse_dcgm_diag, "d.txt"), (parse_soak_log, "s.csv")):
        try:
            reader(data, name)
        except InputError as exc:
            assert str(exc).startswith(name)


def test_a_stray_quote_keeps_to_its_own_line():
    # Found by hand after the fuzzing above: csv's reader joined the lines after a stray quote
    # into one field, and the row count no longer matched the lines (a ValueError, exit 70).
    data = SOAK.replace(b"failure,XID 79", b'failure,"XID 79')
    log = parse_soak_log(data, "ACC-soak_log.csv")
    assert [e.line for e in log.events] == [5, 6]
    assert log.events[0].detail == "XID 79" and len(log.of("error-counter")) == 1
