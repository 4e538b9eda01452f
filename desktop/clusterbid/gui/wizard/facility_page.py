"""The wizard's Facility page: the data-centre tier and the certifications, both scored (issue 38).

Blank is "not stated": a tier left at "— not stated —" scores as tier I and a bid naming no
certification scores as holding none of the required ones; both are flagged where the rank is
read when stating them could move it (core/unstated_criteria.py).
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QGridLayout, QGroupBox, QLabel, QScrollArea

from clusterbid.core.bid import CERTIFICATIONS, Facility
from clusterbid.gui.wizard.section_page import FieldSpec, SectionPage

TIERS = [("Tier I", 1), ("Tier II", 2), ("Tier III", 3), ("Tier IV", 4)]
CERTIFICATE_COLUMNS = 4
TENANCY = [
    ("Dedicated (no other customer on the hosts and fabric)", "dedicated"),
    ("Shared", "shared"),
]


class FacilityPage(SectionPage):
    TITLE = "Facility and security"
    SUBTITLE = (
        "The data centre's Uptime Institute tier and the security certifications the provider "
        "holds: both are scored. Leave them blank when the bid does not say: a blank one scores "
        "as the lowest and is flagged where the rank is read."
    )
    # Residency and tenancy: what the policy's must-haves gate on (issue 34); blank is "not said",
    # which fails a must-have that asks for it.
    GROUPS = [
        (
            None,
            [
                FieldSpec(
                    Facility, ("facility", "datacenter_tier"), "Data-centre &tier", choices=TIERS
                ),
                FieldSpec(Facility, ("facility", "data_residency"), "Data held &in"),
                FieldSpec(Facility, ("facility", "tenancy"), "Tenanc&y", choices=TENANCY),
            ],
        )
    ]
    OWNS = (("facility",), ("facility", "certifications"))

    def __init__(self, host) -> None:
        super().__init__(host)
        required = host.evaluation.policy.required_certifications
        box = QGroupBox("Certifications held")
        grid = QGridLayout(box)
        self.certificates: dict[str, QCheckBox] = {}
        for index, name in enumerate(CERTIFICATIONS):
            check = QCheckBox(name + (" (required)" if name in required else ""))
            check.setObjectName(f"certification_{name}")
            check.toggled.connect(host.refresh)
            grid.addWidget(check, index // CERTIFICATE_COLUMNS, index % CERTIFICATE_COLUMNS)
            self.certificates[name] = check
        self.outer.insertWidget(self.outer.count() - 1, box)
        self.flag = QLabel()
        self.flag.setObjectName("facility_flag")
        self.flag.setWordWrap(True)
        self.flag.setStyleSheet("color: #8a5a00;")
        self.outer.insertWidget(self.outer.count() - 1, self.flag)
        # One field and one box: kept together at the top rather than the field's scroll area
        # taking the page's height and pushing the certifications to the bottom edge.
        for index in range(self.outer.count()):
            if isinstance(self.outer.itemAt(index).widget(), QScrollArea):
                self.outer.setStretch(index, 0)
        self.outer.addStretch(1)
        self.binding("facility", "datacenter_tier").widget.setMaximumWidth(260)
        self.binding("facility", "data_residency").widget.setMaximumWidth(260)

    def held(self) -> list[str]:
        return [name for name, check in self.certificates.items() if check.isChecked()]

    def summary_rows(self) -> list[tuple[str, str]]:
        """The Review page's row for the certifications (not a form field)."""
        held = self.held()
        return [("Certifications held", ", ".join(held) if held else "none stated")]

    def values(self) -> dict:
        out = super().values()
        facility = out.setdefault("facility", {})
        facility.setdefault("datacenter_tier", None)
        facility["certifications"] = self.held()
        return out

    def load(self, raw: dict) -> None:
        super().load(raw)
        held = set((raw.get("facility") or {}).get("certifications") or ())
        for name, check in self.certificates.items():
            check.blockSignals(True)  # loading is not the officer's edit
            check.setChecked(name in held)
            check.blockSignals(False)

    def after_refresh(self) -> None:
        required = self.host.evaluation.policy.required_certifications
        blank = []
        if self.binding("facility", "datacenter_tier").read() is None:
            blank.append("the tier is not stated: scored as tier I")
        if required and not self.held():
            blank.append(
                f"no certification is stated: {', '.join(required)} (required) scored as not held"
            )
        self.flag.setText(("Flagged: " + "; ".join(blank) + ".") if blank else "")
        self.flag.setVisible(bool(blank))
