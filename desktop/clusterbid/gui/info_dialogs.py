"""Help and records menu items of the main window: the audit trail, trusted approver
certificates, the methodology, About. Each opens over the window's current document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from clusterbid.gui.session import Session


class InfoDialogs:
    def __init__(self, window: QMainWindow, session: Session) -> None:
        self.window, self.session = window, session
        self.audit_dialog = None  # the last one opened (non-modal: the window stays usable)
        self.trust_dialog = None
        self.documentation_dialog = None
        self.panel_dialog = None

    def show_audit_trail(self) -> None:
        from clusterbid.gui.audit_dialog import AuditTrailDialog

        self.audit_dialog = AuditTrailDialog(self.session.document, self.window)
        self.audit_dialog.open()  # not exec(): the window stays usable and tests never block

    def show_trusted_certificates(self) -> None:
        from clusterbid.gui.memo.trust_dialog import TrustedCertificatesDialog

        self.trust_dialog = TrustedCertificatesDialog(self.session.document, self.window)
        self.trust_dialog.open()

    def show_panel(self) -> None:
        from clusterbid.gui.panel_dialog import PanelDialog

        self.panel_dialog = PanelDialog(self.session, self.window)
        self.panel_dialog.open()  # non-modal, like the audit trail

    def show_methodology(self) -> None:
        from clusterbid.gui.help_dialogs import MethodologyDialog

        MethodologyDialog(self.window).exec()

    def show_documentation(self) -> None:
        from clusterbid.gui.help_dialogs import DocumentationDialog

        self.documentation_dialog = DocumentationDialog(self.window)
        self.documentation_dialog.open()  # non-modal, like the audit trail: read beside the window

    def show_about(self) -> None:
        from clusterbid import __version__

        QMessageBox.about(
            self.window,
            "About ClusterBid",
            f"<b>ClusterBid {__version__}</b><p>Scores GPU-cluster bids by the cost and "
            "time to finish the buyer's training job, or by the cost to serve its inference "
            "load, with one shared model for every bid.</p>",
        )
