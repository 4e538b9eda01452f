"""What the officer can do about a memo finding: decided once here, worded by each door.

A verify finding, or a sign or seal refusal, that calls for a step (trust the organisation's CA,
register the approvers, accept any signing order, name a timestamp authority) carries that step
as a mark in its text, never a command line. `clusterbid` renders each mark as its option or
command; the app's Verify, Sign and Seal dialogs as their own menu item, button or field
(gui/memo/step_words.py). One result, two renderings: the checks are written once, and neither
door can drift into the other's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from enum import Enum


class Step(str, Enum):
    """A step an officer can take, or a source an officer chose, named in a finding."""

    # where a CA certificate given for this one check came from ("--trust ca.pem")
    TRUST_GIVEN = "trust-given"
    # how signers become trusted: keep the organisation's CA or the approvers' certificates
    KEEP_CERTIFICATES = "keep-certificates"
    # register the approvers in the evaluation document before a memo is made (subject: its name)
    REGISTER_APPROVERS = "register-approvers"
    # the approvers signed out of the memo's order, which may not matter
    ANY_ORDER = "any-order"
    # the timestamp authority's address the officer gave (subject: the address as given)
    TSA_GIVEN = "tsa-given"
    # no timestamp authority was given: name one
    GIVE_TSA = "give-tsa"
    # a certificate chain could not be built: give the organisation's CA certificate
    GIVE_CA = "give-ca"
    # the signature timestamp could not be had: sign without one, seal later
    SIGN_WITHOUT_TSA = "sign-without-tsa"


# Private-use characters: no text a provider or officer types carries them, and a mark that a
# door forgot to render shows as an odd glyph a test finds, never as a wrong instruction.
_OPEN, _SUBJECT, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARK = re.compile(f"{_OPEN}([a-z-]+)(?:{_SUBJECT}([^{_OPEN}{_CLOSE}]*))?{_CLOSE}")


def mark(step: Step, subject: str = "") -> str:
    """The mark for `step` in a finding's text; `subject` (a file name) is given to its words."""
    clean = "".join(ch for ch in subject if ch not in (_OPEN, _SUBJECT, _CLOSE))
    return f"{_OPEN}{step.value}{_SUBJECT + clean if clean else ''}{_CLOSE}"


def steps_in(texts: Iterable[str]) -> frozenset[Step]:
    """The steps the findings in `texts` call for: what a door offers beside its report."""
    values = {step.value: step for step in Step}
    return frozenset(
        values[m.group(1)] for text in texts for m in _MARK.finditer(text) if m.group(1) in values
    )


def render(text: str, words: Mapping[Step, str]) -> str:
    """`text` with every mark replaced by the door's words for its step (`{subject}` in them takes
    the mark's subject). KeyError when a door has no words for a step: a test holds every door to
    every step, so this cannot reach an officer."""
    values = {step.value: step for step in Step}

    def words_for(match: re.Match[str]) -> str:
        # "--trust {subject}" without a subject is "--trust", not "--trust " before the next word
        return words[values[match.group(1)]].format(subject=match.group(2) or "").rstrip()

    return _MARK.sub(words_for, text)


def has_marks(text: str) -> bool:
    return any(ch in text for ch in (_OPEN, _SUBJECT, _CLOSE))
