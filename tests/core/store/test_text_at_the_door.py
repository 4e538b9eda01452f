"""The hostile-text rules (core/text_rules.py) run field by field where text comes in (an edit,
an import, evidence); opening scans the stored JSON once instead, and still refuses a document
whose stored text breaks them. Counted by calls, never timed."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from builders import make_bid, make_evaluation

from clusterbid.core import bid as bid_module
from clusterbid.core import evaluation as evaluation_module
from clusterbid.core.store import CorruptDocumentError, EditRejectedError, EvaluationDocument
from clusterbid.core.text_rules import json_text_is_plain


@pytest.fixture
def walks(monkeypatch) -> list[str]:
    """Each field-by-field walk of a model's text, by the model that asked for it."""
    seen: list[str] = []
    for module in (bid_module, evaluation_module):
        original = module.check_model_text

        def counted(model, *args, _original=original, **kwargs):
            seen.append(type(model).__name__)
            return _original(model, *args, **kwargs)

        monkeypatch.setattr(module, "check_model_text", counted)
    return seen


def test_opening_a_clean_document_walks_no_text(tmp_path, walks):
    path = tmp_path / "e.clusterbid"
    EvaluationDocument.create(path, make_evaluation(4), user="ann").close()
    walks.clear()
    with EvaluationDocument.open(path) as doc:
        assert len(doc.evaluation.bids) == 4
    assert walks == []


def test_an_edit_checks_the_text_it_brings_in(tmp_path, walks):
    path = tmp_path / "e.clusterbid"
    with EvaluationDocument.create(path, make_evaluation(2), user="ann") as doc:
        walks.clear()
        doc.replace_bid("bid-0", make_bid("bid-0", price="1.50"))
        assert "Bid" in walks
        with pytest.raises((EditRejectedError, ValueError), match="RIGHT-TO-LEFT OVERRIDE"):
            doc.add_bid(make_bid("bid-9", provider="Acme\u202eSI"))


@pytest.mark.parametrize(
    ("provider", "named"),
    [
        ("Acme\x1b[31m", "ESC (U+001B)"),
        ("Acme\u202eSI", "RIGHT-TO-LEFT OVERRIDE"),
        ("Ac\u200bme", "ZERO WIDTH SPACE"),
    ],
)
def test_hostile_text_put_into_the_file_is_still_refused_on_open(tmp_path, provider, named):
    path = tmp_path / "e.clusterbid"
    EvaluationDocument.create(path, make_evaluation(2), user="ann").close()
    conn = sqlite3.connect(path, isolation_level=None)
    bid = json.loads(conn.execute("SELECT bid_json FROM bid WHERE bid_id = 'bid-1'").fetchone()[0])
    bid["quote"]["provider"] = provider
    for ensure_ascii in (True, False):  # as a \\u escape and as the raw character
        conn.execute(
            "UPDATE bid SET bid_json = ? WHERE bid_id = 'bid-1'",
            (json.dumps(bid, ensure_ascii=ensure_ascii),),
        )
        with pytest.raises(CorruptDocumentError, match=re.escape(named)) as refused:
            EvaluationDocument.open(path)
        assert "quote.provider" in str(refused.value)
    conn.close()


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ('{"a":"two\\nlines\\tand a tab, caf\u00e9"}', True),
        ('{"a":"\\u001b"}', False),  # ESC written as an escape
        ('{"a":"\x1b[31m"}', False),  # ESC raw, in ASCII text
        ('{"a":"caf\u00e9\x7f"}', False),  # DEL raw, in text that is not ASCII
        ('{"a":"\\b"}', False),  # backspace
        ('{"a":"\\f"}', False),  # form feed
        (
            '{"a":"C:\\\\bin"}',
            False,
        ),  # an escaped backslash before b: a false alarm, checked field by field
        ('{"a":"\u2066x"}', False),  # LEFT-TO-RIGHT ISOLATE, raw
        ('{"a":"\u00ad"}', False),  # soft hyphen, raw
    ],
)
def test_the_one_scan_lets_through_only_text_that_cannot_hold_a_forbidden_character(text, plain):
    assert json_text_is_plain(text) is plain
