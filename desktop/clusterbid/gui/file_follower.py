"""The window follows its file: what another window or a `clusterbid` command commits shows here.

Before this, five `clusterbid import` runs left a window showing 3 bids of 18 and refusing every
edit until reopened, and the second of two windows on one file had all its edits refused. Now a
file-system watcher (and, for file systems that send no notice, such as some network shares, a
slow poll of the recorded head: one single-row read) asks the session to catch up; the session
reads the new state in one snapshot, audits it as an open would, and says what changed.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer

from clusterbid.gui.session import Session

SETTLE_MS = 150  # a commit touches the file several times; look once it has settled
POLL_MS = 3_000  # for file systems whose changes the watcher never hears about


class FileFollower(QObject):
    """Keeps `session` current with its file; `tell(text)` shows what changed (the status bar)."""

    def __init__(
        self, session: Session, tell: Callable[[str], None], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.session, self.tell = session, tell
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(lambda _path: self.settle.start())
        self.settle: QTimer = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self.settle.timeout.connect(self.check)
        self.poll = QTimer(self, interval=POLL_MS)
        self.poll.timeout.connect(self.check)
        self.poll.start()
        session.file_changed.connect(self.tell)
        self._watch()

    def _watch(self) -> None:
        """Watch the session's current file (it changes when the window opens another evaluation;
        a watched file that was replaced drops out of the watcher and is added again)."""
        path = str(self.session.document.path)
        if self.watcher.files() != [path]:
            if self.watcher.files():
                self.watcher.removePaths(self.watcher.files())
            if self.session.document.path.exists():
                self.watcher.addPath(path)

    def check(self) -> None:
        if self.session.lane.unfinished():
            self.settle.start()  # the window's own edits are being written: look once they are
            return
        if self.session.document.is_closed:
            return
        self._watch()
        self.session.catch_up()
