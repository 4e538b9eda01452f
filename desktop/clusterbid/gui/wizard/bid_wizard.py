"""The bid wizard: one page per bid section, a shared validation pass, and a crash-safe draft."""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget, QWizard

from clusterbid.core.bid import Bid, Capacity, Fabric, Facility, Quote, Reliability, Terms, Topology
from clusterbid.core.delivery import DeliverySchedule
from clusterbid.core.evaluation import Evaluation
from clusterbid.gui import dialogs
from clusterbid.gui.wizard.contract_page import ContractPage
from clusterbid.gui.wizard.delivery_page import DeliveryPage
from clusterbid.gui.wizard.draft_store import DraftStore
from clusterbid.gui.wizard.evidence_page import EvidencePage
from clusterbid.gui.wizard.facility_page import FacilityPage
from clusterbid.gui.wizard.problems import Checked, check_bid
from clusterbid.gui.wizard.review_page import ReviewPage
from clusterbid.gui.wizard.section_page import SectionPage
from clusterbid.gui.wizard.section_pages import (
    CapacityPage,
    FabricPage,
    QuotePage,
    TermsPage,
    TopologyPage,
)

SECTION_MODELS = {
    "quote": Quote,
    "capacity": Capacity,
    "fabric": Fabric,
    "topology": Topology,
    "reliability": Reliability,
    "terms": Terms,
    "facility": Facility,
    "delivery": DeliverySchedule,
}
DRAFT_DELAY_MS = 400
ID_LIMIT = 64


def confirm_discard(wizard: QWizard) -> bool:
    """Asked through dialogs.confirm, which tests replace: a real modal box here would block them."""
    return dialogs.confirm(
        wizard,
        "Discard this bid?",
        "You have typed values into this bid. Cancel discards them (the draft too). Discard?",
    )


def unused_id(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3` ... whichever no other bid uses (within the 64-character id limit)."""
    candidate, n = base[:ID_LIMIT], 2
    while candidate in taken:
        suffix = f"-{n}"
        candidate, n = base[: ID_LIMIT - len(suffix)] + suffix, n + 1
    return candidate


class BidWizard(QWizard):
    """Add (bid=None), edit (bid) or duplicate (bid, duplicate=True) a bid of `evaluation`."""

    def __init__(
        self,
        evaluation: Evaluation,
        bid: Bid | None = None,
        *,
        duplicate: bool = False,
        draft_store: DraftStore | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.evaluation = evaluation
        self.replaces = bid.id if bid is not None and not duplicate else None
        self.facility = bid.facility if bid is not None else Facility()
        self.drafts = draft_store or DraftStore()
        self.checked = Checked(None, ())
        self._loading = True
        self.setWindowTitle(
            "Edit bid" if self.replaces else "Duplicate bid" if bid else "Add a bid"
        )
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage)
        self.setOption(QWizard.WizardOption.HaveHelpButton, False)
        self.resize(980, 720)
        self.quote_page = QuotePage(self)
        self.pages_in_order: list[Any] = [
            self.quote_page,
            CapacityPage(self),
            FabricPage(self),
            TopologyPage(self),
            TermsPage(self),
            ContractPage(self),
            DeliveryPage(self),
            FacilityPage(self),
        ]
        self.evidence_page = EvidencePage(self)
        self.review_page = ReviewPage(self)
        self.pages_in_order += [self.evidence_page, self.review_page]
        self.page_ids = [self.addPage(page) for page in self.pages_in_order]
        self.field_names = {
            name: list(model.model_fields) for name, model in SECTION_MODELS.items()
        }
        self.titles = self._titles()
        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(DRAFT_DELAY_MS)
        self._draft_timer.timeout.connect(self.save_draft)
        self.currentIdChanged.connect(lambda _id: self._after_refresh())
        self.load(self._initial_values(bid, duplicate))
        self.initial_raw = self.raw_bid()  # what Cancel compares with before asking
        self.offered_draft = self.drafts.load()
        if self.offered_draft is not None:
            self._offer_draft(self.offered_draft)

    # --- values -------------------------------------------------------------------------------------
    def _initial_values(self, bid: Bid | None, duplicate: bool) -> dict:
        taken = {b.id for b in self.evaluation.bids}
        if bid is None:
            return {"id": unused_id(f"bid-{len(taken) + 1}", taken)}
        values = bid.model_dump(mode="json")
        if duplicate:
            values["id"] = unused_id(f"{bid.id}-copy", taken)
        return values

    def section_pages(self) -> list[SectionPage]:
        return [p for p in self.pages_in_order if isinstance(p, SectionPage)]

    def _titles(self) -> dict[str, str]:
        titles = {}
        for page in self.section_pages():
            for b in page.bindings:
                if len(b.path) > 1:  # "id" is also an ordinary word in messages: never replaced
                    titles[".".join(b.path)] = b.title
                    titles[b.path[-1]] = b.title
            titles.update(getattr(page, "EXTRA_TITLES", {}))
        return titles

    def raw_bid(self) -> dict:
        raw: dict = {"facility": self.facility.model_dump(mode="json")}
        for page in self.section_pages():
            for key, value in page.values().items():
                raw[key] = {**raw.get(key, {}), **value} if isinstance(value, dict) else value
        raw.update(self.evidence_page.values())
        return raw

    def load(self, values: dict, flags: list | None = None) -> None:
        self._loading = True
        try:
            for page in self.section_pages():
                page.load(values)
            self.evidence_page.load(values, flags)
        finally:
            self._loading = False
        self.refresh(save=False)

    # --- validation ----------------------------------------------------------------------------------
    def refresh(self, save: bool = True) -> None:
        """Validate everything through the core models and show each problem on its page."""
        if self._loading:
            return
        self.checked = check_bid(
            self.raw_bid(), self.evaluation, self.replaces, self.field_names, self.titles
        )
        for page in self.pages_in_order:
            page.show_problems(self.checked.problems)
        self._update_buttons()
        self._after_refresh()
        if save:
            self._draft_timer.start()

    def _update_buttons(self) -> None:
        """Enable Next/Finish for the current page. Not via completeChanged: QWizard's handler
        reformats a spin box mid-typing ('2' becomes '2.0000', so the '.' of '2.5' is lost)."""
        page = self.currentPage()
        if page is None:
            return
        complete = page.isComplete()
        last = self.currentId() == self.page_ids[-1]
        self.button(QWizard.WizardButton.NextButton).setEnabled(complete and not last)
        self.button(QWizard.WizardButton.FinishButton).setEnabled(complete and last)

    def _after_refresh(self) -> None:
        for page in self.pages_in_order:
            page.after_refresh()

    def locate(self, path: tuple[str, ...]) -> tuple[int, str, str]:
        """(page id, page title, field title) of the page that fixes a problem at `path`."""
        for page_id, page in zip(self.page_ids, self.pages_in_order):
            if page.owns(path):
                titles = (
                    page.field_titles()
                    if isinstance(page, SectionPage)
                    else {b.path: b.title for b in getattr(page, "bindings", [])}
                )
                return page_id, page.title(), titles.get(path, "this section")
        return self.page_ids[-1], "Review", "Bid"

    def go_to(self, page_id: int) -> None:
        """Jump back to an earlier page (the review page is last, so fixes are always behind it)."""
        while self.currentId() > page_id:
            self.back()

    def result_bid(self) -> Bid | None:
        return self.checked.bid

    # --- draft ---------------------------------------------------------------------------------------
    def save_draft(self) -> None:
        self.drafts.save(
            {
                "saved_at": dt.datetime.now().isoformat(timespec="seconds"),
                "evaluation": self.evaluation.title,
                "values": self.raw_bid(),
                "flags": self.evidence_page.flags_as_json(),
            }
        )

    def _offer_draft(self, draft: dict) -> None:
        provider = (draft["values"].get("quote") or {}).get("provider") or "no provider yet"
        banner = QFrame()
        banner.setObjectName("draft_banner")
        banner.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(banner)
        text = QLabel(
            f"An unfinished bid ({provider}, saved {draft.get('saved_at', '?')}) was found."
        )
        text.setWordWrap(True)
        restore = QPushButton("Res&tore it")
        restore.setObjectName("restore_draft")
        discard = QPushButton("&Discard it")
        discard.setObjectName("discard_draft")
        row.addWidget(text, 1)
        row.addWidget(restore)
        row.addWidget(discard)
        self.quote_page.top.addWidget(banner)
        self.draft_banner = banner

        def restore_draft() -> None:
            self.load(draft["values"], draft.get("flags"))
            banner.hide()

        def discard_draft() -> None:
            self.drafts.clear()
            banner.hide()

        restore.clicked.connect(restore_draft)
        discard.clicked.connect(discard_draft)

    def has_typed_data(self) -> bool:
        return self.raw_bid() != self.initial_raw

    def reject(self) -> None:
        """Cancel, Escape and the close button: typed data is discarded only when the officer says so."""
        if self.has_typed_data() and not confirm_discard(self):
            return
        super().reject()

    def done(self, result: int) -> None:  # noqa: D102 (finish and cancel both end the draft)
        self._draft_timer.stop()
        self.evidence_page.tasks.wait_for_done(5000)
        self.drafts.clear()
        super().done(result)
