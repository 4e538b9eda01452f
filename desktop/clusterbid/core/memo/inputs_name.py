"""The name of the memo's attached inputs, in a module of its own: signing reads the attachment
without importing the models that inputs.py builds it from."""

INPUTS_ATTACHMENT_NAME = "clusterbid-inputs.json"
