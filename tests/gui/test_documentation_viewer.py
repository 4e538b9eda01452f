"""Help > Documentation: the docs pages ship with the app and open offline, page to page."""

from __future__ import annotations

import re
import tomllib

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from tests.conftest import REPO

from clusterbid.gui.help_dialogs import DocumentationDialog
from clusterbid.resources import resource_path

DOCS = REPO / "resources" / "docs"


def _linked_pages(markdown: str) -> set[str]:
    return {
        target.split("#")[0] for target in re.findall(r"\]\(([a-z-]+\.md(?:#[a-z-]+)?)\)", markdown)
    }


def test_every_docs_page_is_reachable_from_the_contents_and_packaged():
    pages = {path.name for path in DOCS.glob("*.md")}
    linked = _linked_pages((DOCS / "index.md").read_text(encoding="utf-8"))
    assert linked == pages - {"index.md"}, (
        "a docs page the contents page does not list, or a dead link"
    )
    for page in pages:  # every page's own links lead to a page that exists
        assert _linked_pages((DOCS / page).read_text(encoding="utf-8")) <= pages, page
    # The evidence formats page lives beside the methodology (the wizard's evidence page names it).
    assert "](../evidence-formats.md)" in (DOCS / "index.md").read_text(encoding="utf-8")
    assert (DOCS.parent / "evidence-formats.md").is_file()
    package_data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]
    assert "docs/*.md" in package_data["clusterbid._resources"]  # so a wheel install has them


def test_help_menu_opens_the_contents_and_a_clicked_link_opens_that_page(qtbot, window):
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    documentation = next(a for a in help_menu.actions() if a.text() == "&Documentation")
    documentation.trigger()
    dialog = window.info.documentation_dialog
    assert isinstance(dialog, DocumentationDialog)
    qtbot.addWidget(dialog)
    assert dialog.browser.source().toLocalFile() == str(resource_path("docs", "index.md"))
    text = dialog.browser.toPlainText()
    assert text.startswith("ClusterBid documentation") and "##" not in text and "](" not in text
    # Click the words "Command-line reference" as an officer would.
    position = text.index("Command-line reference") + 3
    cursor = QTextCursor(dialog.browser.document())
    cursor.setPosition(position)
    dialog.browser.show()
    point = dialog.browser.cursorRect(cursor).center()
    qtbot.mouseClick(dialog.browser.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert dialog.browser.source().toLocalFile() == str(resource_path("docs", "command-line.md"))
    assert "clusterbid verify MEMO.pdf" in dialog.browser.toPlainText()
    assert dialog.windowTitle() == "ClusterBid documentation: Command-line reference"
    dialog.browser.backward()
    assert dialog.browser.source().toLocalFile() == str(resource_path("docs", "index.md"))
