"""The fingerprint of the stored rows taken after each commit (snapshot.state_digest) spells each
column with its type and length, so no two different rows spell the same bytes (issue 32 made it
cheaper than a repr of each row; it must stay as discerning)."""

from __future__ import annotations

from clusterbid.core.store.snapshot import _spelled


def row(*values: object) -> bytes:
    return b"".join(_spelled(value) for value in values) + b"\n"


def test_values_that_run_together_or_look_alike_spell_differently():
    pairs = [
        (("ab", "c"), ("a", "bc")),  # where one text ends and the next begins
        ((None,), ("None",)),  # a missing value and the word
        ((1,), ("1",)),  # a number and its digits
        ((1,), (1.0,)),  # an integer and a real
        ((b"x",), ("x",)),  # a blob and a text
        (("a:1",), ("a", "1")),  # the separator inside a text
        (("\u00e9",), ("e\u0301",)),  # the same letter composed and decomposed
    ]
    for first, second in pairs:
        assert row(*first) != row(*second), (first, second)


def test_a_text_is_spelled_by_its_utf8_length_and_bytes():
    assert _spelled("\u00e9t\u00e9") == b"s5:" + "\u00e9t\u00e9".encode()
    assert _spelled(None) == b"n4:None" and _spelled(12) == b"n2:12"
