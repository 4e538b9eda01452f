"""The name of each approver's signature field ("approver-N"), in a module of its own so that
verify's checks name fields without loading pyHanko's signers (signing.py), which verify never
uses."""

FIELD_PREFIX = "approver-"
