"""The name of each approver's signature field ("approver-N"), in a module of its own so that
verify's checks name fields without loading pyHanko's signers (signing.py), which verify never
uses; and the field in words, as the reports an officer reads name it ("approver 1")."""

import re

FIELD_PREFIX = "approver-"
_FIELD = re.compile(r"\bapprover-(\d+)\b")


def fields_in_words(text: str) -> str:
    """Every signature field's id in `text` ("approver-2") as words ("approver 2")."""
    return _FIELD.sub(r"approver \1", text)
