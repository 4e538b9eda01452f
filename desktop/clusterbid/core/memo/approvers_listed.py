"""The approvers a memo lists and its attached inputs read as plain JSON, without the models:
`clusterbid sign` checks the signer against the approver named for the field (issue 38) and must
not load pydantic, numpy or the cost model to do it (tests/core/memo_signing/test_signoff_imports).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from clusterbid.core.errors import InputError
from clusterbid.core.memo.inputs_name import INPUTS_ATTACHMENT_NAME

INPUTS_FORMAT = "clusterbid-memo-inputs/1"


@dataclass(frozen=True, slots=True)
class Approver:
    name: str
    role: str
    email: str = ""  # when given, verify holds the signer's certificate to it too

    @classmethod
    def parse(cls, text: str) -> Approver:
        """'Name, Role' or 'Name, Role <name@example.org>' as typed on the command line; the role is
        everything after the first comma, up to an e-mail address in angle brackets."""
        name, _, role = text.partition(",")
        role, email = role.strip(), ""
        found = _EMAIL_AT_END.search(role)
        if found:
            role, email = role[: found.start()].strip(), found.group(1)
        elif "<" in role or ">" in role:
            raise InputError(f"approver {text!r}: give the e-mail as <name@example.org> at the end")
        if not name.strip() or not role:
            raise InputError(
                f'approver {text!r}: give it as "Name, Role", e.g. "Ada Lovelace, CFO" '
                '(an e-mail may follow: "Ada Lovelace, CFO <ada@example.org>")'
            )
        return cls(name.strip(), role, email)


_EMAIL_AT_END = re.compile(r"<([^<>@\s]+@[^<>@\s]+\.[^<>@\s]+)>$")


def parse_memo_inputs(raw: bytes) -> dict:
    """The attached inputs document as a dict; InputError when it is not one of ours."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{INPUTS_ATTACHMENT_NAME}: not UTF-8 JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != INPUTS_FORMAT:
        got = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise InputError(f"{INPUTS_ATTACHMENT_NAME}: format is {got!r}, expected {INPUTS_FORMAT!r}")
    return data
