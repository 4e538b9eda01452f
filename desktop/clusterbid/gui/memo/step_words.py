"""Each step a memo finding calls for (core/memo/next_steps.py) in the app's own words.

The core decides the step once and marks it in its text; `clusterbid` renders each mark as its
option or command (cli_signoff._step_words), the app as the button or field that takes it, named
here once so the dialogs' labels and the words pointing to them cannot drift apart.
"""

from __future__ import annotations

from clusterbid.core.memo.next_steps import Step

# the Verify dialog's buttons
CERTIFICATES_BUTTON = "Approvers and Trusted Certificates…"  # as the File menu names the dialog
CA_FILE_BUTTON = "Check against CA certificate…"
ANY_ORDER_BUTTON = "Verify again in any signing order"
# the Seal dialog's fields, and the menu items that open the Seal and Sign dialogs
SEAL_TSA_FIELD = "Timestamp authority"
SEAL_CA_FIELD = "CA certificate"
SEAL_MENU = "File > Seal for the Archive"

# Never the command line's options: tests/gui/test_verify_words_per_door.py holds every step to
# words here and in the CLI's, and scans these for command-line hints.
STEP_WORDS = {
    Step.TRUST_GIVEN: "CA certificate {subject}",
    Step.KEEP_CERTIFICATES: "keep the organisation's CA or the approvers' certificates in this "
    f"evaluation with {CERTIFICATES_BUTTON} below, then verify again; or "
    f"choose a CA certificate file with {CA_FILE_BUTTON}",
    Step.REGISTER_APPROVERS: "register approvers before a memo is made: Add approver in "
    f"{CERTIFICATES_BUTTON}",
    Step.ANY_ORDER: f"if the order does not matter, choose {ANY_ORDER_BUTTON} below",
    Step.TSA_GIVEN: f"{SEAL_TSA_FIELD} {{subject}}",
    Step.GIVE_TSA: f"fill in {SEAL_TSA_FIELD} (your organisation's RFC 3161 service)",
    Step.GIVE_CA: f"choose the organisation's CA certificate in {SEAL_CA_FIELD} when sealing",
    Step.SIGN_WITHOUT_TSA: "sign without a timestamp server (as the app's Sign does) and seal the "
    f"memo later with {SEAL_MENU}",
}
