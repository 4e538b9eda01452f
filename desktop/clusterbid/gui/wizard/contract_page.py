"""The wizard's Contract and billing page: price, how the contract bills, fees, dates and exit,
a serving fleet's reserved base and burst, and what it takes to collect the SLA credit."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from clusterbid.core.sla_terms import SlaClaimTerms
from clusterbid.core.terms import BILLING_WORDS, Terms
from clusterbid.gui.wizard.field_rules import FieldBinding
from clusterbid.gui.wizard.section_page import FieldSpec, SectionPage

BILLING_CHARACTERS = 24  # the billing field at its narrowest: "reserved term (GPUs x term" shows


class ContractPage(SectionPage):
    """The commercial terms: how the contract bills decides what the signature commits to."""

    TITLE = "Contract and billing"
    SUBTITLE = (
        "How the contract bills. A reserved term or block bills its GPUs for the whole span, used "
        "or "
        "not; committed deals bill a minimum. Leave a field empty when the bid does not say."
    )
    SUPPORT = [("Basic", "basic"), ("Business", "business"), ("Enterprise", "enterprise")]
    # The first letter only: str.capitalize() would lower "GPUs" to "gpus".
    BILLING = [
        (BILLING_WORDS[kind][:1].upper() + BILLING_WORDS[kind][1:], kind) for kind in BILLING_WORDS
    ]
    GROUPS = [
        (
            "Price and billing",
            [
                FieldSpec(Terms, ("terms", "price_per_gpu_hour"), "Price per GPU-&hour"),
                FieldSpec(Terms, ("terms", "currency"), "Currenc&y"),
                FieldSpec(Terms, ("terms", "billing"), "Bil&ling", choices=BILLING),
                FieldSpec(Terms, ("terms", "term_months"), "&Term (months)"),
                FieldSpec(Terms, ("terms", "reserved_gpus"), "&Reserved GPUs"),
                FieldSpec(Terms, ("terms", "spares_free_in_writing"), "S&pares free in writing"),
                FieldSpec(Terms, ("terms", "block_days"), "Bloc&k (days)"),
                FieldSpec(Terms, ("terms", "committed_spend"), "Committed &spend"),
                FieldSpec(
                    Terms, ("terms", "committed_gpu_hours"), "Committe&d GPU-hours", decimals=0
                ),
                FieldSpec(
                    Terms,
                    ("terms", "billing_increment_hours"),
                    "Billing &increment (hours)",
                    not_stated=True,
                ),
                FieldSpec(
                    Terms,
                    ("terms", "minimum_billed_hours"),
                    "&Minimum hours per GPU",
                    not_stated=True,
                ),
            ],
        ),
        (
            "Fees, dates and exit",
            [
                FieldSpec(Terms, ("terms", "one_off_fees"), "&One-off fees", not_stated=True),
                FieldSpec(
                    Terms,
                    ("terms", "recurring_fees_per_month"),
                    "Re&curring fees per month",
                    not_stated=True,
                ),
                FieldSpec(
                    Terms,
                    ("terms", "payment_terms_days"),
                    "Payment due (days after invoice)",
                    not_stated=True,
                ),
                FieldSpec(
                    Terms, ("terms", "price_escalation_percent_per_year"), "&Escalation (% a year)"
                ),
                FieldSpec(Terms, ("terms", "provisioning_lead_days"), "Lead time (d&ays)"),
                FieldSpec(Terms, ("terms", "exit_clause"), "Early exit allo&wed"),
                FieldSpec(
                    Terms,
                    ("terms", "early_exit_fee_percent"),
                    "Exit fee (% of the rest of the term)",
                ),
                FieldSpec(Terms, ("terms", "support_tier"), "S&upport tier", choices=SUPPORT),
                FieldSpec(Terms, ("terms", "next_gen_migration"), "Ne&xt-generation migration"),
            ],
        ),
        # Issue 37: a serving fleet's reserved base, burst above it, and how often the base may
        # change as traffic grows; blank = no burst, and a base fixed for the term.
        (
            "Serving: reserved base and burst",
            [
                FieldSpec(
                    Terms,
                    ("terms", "burst_price_per_gpu_hour"),
                    "Burst price per GPU-hour (on demand)",
                ),
                FieldSpec(
                    Terms,
                    ("terms", "reserved_resize_months"),
                    "Reserved base may change every (months)",
                ),
            ],
        ),
        # Issue 39: what it takes to collect the SLA credit; blank = not stated (cautious defaults).
        (
            "How the SLA credit is paid",
            [
                FieldSpec(
                    SlaClaimTerms, ("sla_claims", "covered_percent"), "Failures the SLA counts (%)"
                ),
                FieldSpec(
                    SlaClaimTerms,
                    ("sla_claims", "automatic"),
                    "Credited without a claim",
                    choices=[
                        ("Yes: credited automatically", True),
                        ("No: the buyer files a claim", False),
                    ],
                ),
                FieldSpec(
                    SlaClaimTerms, ("sla_claims", "claim_window_days"), "Claim window (days)"
                ),
                FieldSpec(
                    SlaClaimTerms, ("sla_claims", "cap_percent"), "Credit cap (% of the month)"
                ),
            ],
        ),
    ]
    OWNS = (("terms",), ("sla_claims",))

    def customise(self, spec: FieldSpec, binding: FieldBinding) -> FieldBinding:
        if spec.path == ("terms", "currency"):
            binding.widget.setMaximumWidth(90)
        if isinstance(binding.widget, QComboBox) and spec.path == ("terms", "billing"):
            # Its longest choice (over 400 pixels) kept two groups from sitting side by side; the
            # list it opens shows every choice in full, and the field widens with the page.
            binding.widget.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            binding.widget.setMinimumContentsLength(BILLING_CHARACTERS)
        return binding
