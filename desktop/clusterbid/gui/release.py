"""Free what the window no longer shows on a thread of its own, not on the window's thread.

A 500-bid scorecard is some hundred thousand Python objects (estimates, findings, every cell's
text); the window held the last reference to the one an edit replaced, so freeing it ran on the
window's thread at each edit (~7 ms, issue 32). The window hands it here instead, once every view
has taken the new one; this thread drops it.
"""

from __future__ import annotations

import queue
import threading

_UNUSED: queue.SimpleQueue[object] = queue.SimpleQueue()
_started = threading.Lock()
_thread: threading.Thread | None = None


def _drop_forever() -> None:
    while True:
        item = _UNUSED.get()
        del item  # the last reference: the objects are freed here


def release(*objects: object) -> None:
    """Drop the caller's references to `objects` on the release thread (started on first use)."""
    global _thread
    with _started:
        if _thread is None:
            _thread = threading.Thread(target=_drop_forever, name="release", daemon=True)
            _thread.start()
    _UNUSED.put(objects)
