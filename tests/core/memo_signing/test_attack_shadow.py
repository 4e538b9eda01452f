"""Shadow attacks and fields added after signing fail verify, naming the field (issue 30, item 2).

Each attack is made after approver 1's signature (approver 2 then signs over it, as an unwary
second approver would) and after approver 2's, the last. pdfsig is run on the same files.
"""

from __future__ import annotations

import shutil

import pytest
from tests.core.memo_signing.attacks import (
    HIDDEN,
    VISIBLE,
    add_text_field,
    change_field,
    pdfsig,
    pdfsig_whole_file,
    plant_unused_content,
    point_page_at,
)
from tests.core.memo_signing.conftest import ADA, GRACE

from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo

DOCTORED = "Approve USD 1,395,648.00"  # what the attacker's field shows after the signature
PLANTED = {  # field as planted before signing -> the change made after a signature
    "hide": ({"shown": "Approve USD 3,195,648.00"}, {"flags": HIDDEN}),
    "replace": ({"shown": ""}, {"value": DOCTORED, "shown": DOCTORED}),
    "hide-and-replace": (
        {"shown": "", "flags": HIDDEN},
        {"value": DOCTORED, "shown": DOCTORED, "flags": VISIBLE},
    ),
}
AFTER = ("approver-1", "approver-2")


@pytest.fixture(scope="module")
def corpus(pki, unsigned_memo) -> dict[tuple[str, str], bytes]:
    """(attack, after which signature) -> the memo as verify receives it, both fields signed."""
    ada, grace = load_credentials(pki.ada_p12, ADA[1]), load_credentials(pki.grace_p12, GRACE[1])
    memos = {}
    for attack, (planted, change) in {**PLANTED, "added after signing": (None, None)}.items():
        start = (
            unsigned_memo if planted is None else add_text_field(unsigned_memo, "shadow", **planted)
        )
        once = sign_memo(start, "approver-1", ada).pdf
        for after in AFTER:

            def attacked(pdf: bytes, planted=planted, change=change) -> bytes:
                if planted is None:
                    return add_text_field(pdf, "shadow", value=DOCTORED, shown=DOCTORED)
                return change_field(pdf, "shadow", **change)

            if after == "approver-1":
                memos[attack, after] = sign_memo(attacked(once), "approver-2", grace).pdf
            else:
                memos[attack, after] = attacked(sign_memo(once, "approver-2", grace).pdf)
    return memos


def _problems(pki, pdf: bytes):
    result = verify_memo(pdf, load_trust_roots([pki.ca_pem]))
    assert not result.ok
    return result, " | ".join(result.problems)


@pytest.mark.parametrize("after", AFTER)
@pytest.mark.parametrize("attack", list(PLANTED))
def test_a_field_planted_before_signing_and_changed_after_fails_naming_it(
    pki, corpus, attack, after
):
    result, problems = _problems(pki, corpus[attack, after])
    assert "text field 'shadow' is in the memo as approver-1 signed it" in problems
    assert f"text field 'shadow' filled or changed after {after} signed" in problems
    # pyHanko's analysis of the signature before the change, read as well: the field is locked.
    assert f"{after}: pyHanko refuses what was written after this signature" in problems
    assert "is locked" in problems or "not allowed" in problems
    before = next(s for s in result.signatures if s.field == after)
    assert "only later signature fields filled" not in before.changes_after
    assert before.changes_after != "form fields filled: approver-2"


@pytest.mark.parametrize("after", AFTER)
def test_hide_and_replace_by_cross_reference_fails(pki, unsigned_memo, after):
    """The other hide-and-replace: the signed document carries a page content no page uses; after a
    signature an update points page 1 at it (pyHanko's analysis names the change)."""
    ada, grace = load_credentials(pki.ada_p12, ADA[1]), load_credentials(pki.grace_p12, GRACE[1])
    planted, idnum = plant_unused_content(unsigned_memo, DOCTORED)
    once = sign_memo(planted, "approver-1", ada).pdf
    if after == "approver-1":
        memo = sign_memo(point_page_at(once, idnum), "approver-2", grace).pdf
    else:
        memo = point_page_at(sign_memo(once, "approver-2", grace).pdf, idnum)
    result, problems = _problems(pki, memo)
    assert f"{after}: the signature followed by changes that are not signatures" in problems
    assert f"{after}: pyHanko refuses what was written after this signature" in problems
    changed = next(s for s in result.signatures if s.field == after).changes_after
    assert changed == "content, attachments, fields or structure changed (refused)"


@pytest.mark.parametrize("after", AFTER)
def test_a_text_field_added_after_a_signature_fails_naming_it(pki, corpus, after):
    _, problems = _problems(pki, corpus["added after signing", after])
    assert f"text field 'shadow' added after {after} signed" in problems
    assert "is in the memo as approver-1 signed it" not in problems  # it was not there when signed


def test_the_honest_memo_has_no_field_problem_and_approver_1_certified(pki, signed_twice):
    from io import BytesIO

    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.fields import FieldMDPAction, MDPPerm

    result = verify_memo(signed_twice, load_trust_roots([pki.ca_pem]))
    assert result.ok, result.problems
    first, second = PdfFileReader(BytesIO(signed_twice)).embedded_signatures
    # Approver 1 certifies with form filling allowed; approver 1 locks every field but approver 2's,
    # approver 2 (the last) locks every field and the document.
    assert first.docmdp_level == MDPPerm.FILL_FORMS and second.docmdp_level == MDPPerm.NO_CHANGES
    assert (first.fieldmdp.action, list(first.fieldmdp.fields)) == (
        FieldMDPAction.EXCLUDE,
        ["approver-2"],
    )
    assert second.fieldmdp.action == FieldMDPAction.ALL
    assert [s.changes_after for s in result.signatures] == [
        "form fields filled: approver-2",
        "nothing (the signature covers the whole file)",
    ]


@pytest.mark.skipif(
    shutil.which("pdfsig") is None, reason="poppler-utils (pdfsig) is not installed"
)
def test_pdfsig_on_the_shadow_corpus(tmp_path, pki, corpus, record_property):
    """pdfsig checks each signature's bytes and certificate, not what was written after it: on every
    attacked memo it finds both signatures cryptographically valid, as our 'intact' does, and has
    no verdict on the planted or changed field (where we fail the memo). Where the change follows
    the last signature, pdfsig does say that signature no longer covers the whole file, as pyHanko
    does; its verdict stays "Signature is Valid."."""
    for (attack, after), pdf in corpus.items():
        theirs = pdfsig(pdf, tmp_path)
        ours = verify_memo(pdf, load_trust_roots([pki.ca_pem]))
        record_property(f"{attack} after {after}", f"pdfsig {theirs}; clusterbid ok={ours.ok}")
        print(f"shadow {attack} after {after}: pdfsig {theirs}; clusterbid ok={ours.ok}")
        assert len(theirs) == 2
        assert [v == "Signature is Valid." for v in theirs] == [s.intact for s in ours.signatures]
        assert pdfsig_whole_file(pdf, tmp_path) == [False, after == "approver-1"]
        assert not ours.ok
