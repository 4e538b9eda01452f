"""Help menu viewers: the methodology (the same text the memo's appendix prints) and the
documentation pages, both rendered from the Markdown that ships with the app, so they open on a
laptop with no network and no checkout."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from clusterbid.resources import resource_path

DOCUMENTATION_HOME = "index.md"


class MethodologyDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("How ClusterBid scores a bid")
        self.resize(760, 640)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        self.browser.setMarkdown(resource_path("methodology.md").read_text(encoding="utf-8"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)


class DocumentationDialog(QDialog):
    """The installed docs pages (resources/docs/*.md): a link to another page opens it here, a web
    link opens in the browser, Back and Contents move between pages."""

    def __init__(self, parent: QWidget | None = None, page: str = DOCUMENTATION_HOME) -> None:
        super().__init__(parent)
        self.setWindowTitle("ClusterBid documentation")
        self.resize(820, 660)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)  # http(s) links: the system browser
        self.browser.setSearchPaths([str(resource_path("docs", DOCUMENTATION_HOME).parent)])
        self.browser.sourceChanged.connect(self._show_page_title)
        back = QPushButton("Back")
        back.setEnabled(False)
        back.clicked.connect(self.browser.backward)
        self.browser.backwardAvailable.connect(back.setEnabled)
        contents = QPushButton("Contents")
        contents.clicked.connect(lambda: self.open_page(DOCUMENTATION_HOME))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(back)
        row.addWidget(contents)
        row.addStretch(1)
        row.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addLayout(row)
        self.open_page(page)

    def open_page(self, page: str) -> None:
        """Open one docs page by file name (e.g. "command-line.md"), rendered as Markdown."""
        url = QUrl.fromLocalFile(str(resource_path("docs", page)))
        self.browser.setSource(url, QTextDocument.ResourceType.MarkdownResource)

    def _show_page_title(self, _url: QUrl) -> None:
        title = self.browser.documentTitle() or self.browser.toPlainText().split("\n", 1)[0]
        self.setWindowTitle(f"ClusterBid documentation: {title}")
