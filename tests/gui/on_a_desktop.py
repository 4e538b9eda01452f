"""Which GUI tests check something only a real X server with a window manager can show.

CI runs every test offscreen, then again on Xvfb with openbox only the tests whose outcome can
differ there: window and widget geometry, keyboard focus, exposure, zoom and font metrics, and
shortcuts (which reach only the active window). A test that reads nothing but models, texts and
files gives the same answer on both platforms, so the second run of it adds minutes and no check.

The rule reads each test's own source and the helpers it calls (functions of its module or of
the tests package, followed a few calls deep), so a new test that measures a widget or gives it
focus joins the X run without anyone remembering a marker. Fixtures are not read: every window
fixture waits for exposure, and a test that only uses the window is no desktop check.
"""

from __future__ import annotations

import inspect
import re
import types
from collections.abc import Callable
from pathlib import Path

MARKER = "on_x"

# What the offscreen platform answers differently from a desktop's X server and window manager.
DESKTOP_ONLY = re.compile(
    r"setFocus|focusWidget|hasFocus|activateWindow|activeWindow|FocusReason"  # focus
    r"|\.geometry\(|\.width\(\)|\.height\(\)|\.size\(\)|\.rect\(\)|izeHint|heightForWidth"
    r"|mapTo|mapFrom|visibleRegion|rowAt\(|columnAt\(|sectionSize|\bpos="  # geometry
    r"|resize\(|ScrollBar\(\)"  # geometry: what a size hides or scrolls
    r"|waitExposed|isExposed"  # exposure
    r"|zoom|QT_SCALE_FACTOR|devicePixelRatio|fontMetrics"  # zoom and font metrics
    r"|(Control|Shift|Alt|Meta)Modifier|QKeySequence|[Ss]hortcut"  # shortcuts: active window only
)
SUITE = str(Path(__file__).resolve().parents[1])  # helpers are followed inside tests/ only
DEPTH = 3  # helper calls followed from the test: deep enough for type_into -> setFocus


def _helpers(function: types.FunctionType) -> list[Callable]:
    """The plain functions `function` names that live in the test suite (not the app, not Qt)."""
    names: set[str] = set()
    codes = [function.__code__]
    while codes:  # the names of lambdas and inner functions count as the test's own
        code = codes.pop()
        names.update(code.co_names)
        codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    found = []
    for name in sorted(names):
        value = function.__globals__.get(name)
        if (
            isinstance(value, types.FunctionType)
            and value.__code__.co_filename.startswith(SUITE)
            and value.__code__.co_filename != __file__  # the rule names what it looks for
        ):
            found.append(value)
    return found


def needs_a_desktop(test: Callable) -> bool:
    """True when the test, or a test-suite helper it calls, reads geometry, focus, exposure, zoom
    or shortcuts."""
    seen: set[Callable] = set()
    todo = [(inspect.unwrap(test), 0)]
    while todo:
        function, depth = todo.pop()
        if function in seen:
            continue
        seen.add(function)
        try:
            source = inspect.getsource(function)
        except (OSError, TypeError):
            continue
        # From the def on: a decorator's parameters name things (test_zoom) the test does not do.
        source = source[re.search(r"^\s*(async\s+)?def ", source, re.M).start() :]
        if DESKTOP_ONLY.search(source):
            return True
        if depth < DEPTH and isinstance(function, types.FunctionType):
            todo += [(helper, depth + 1) for helper in _helpers(function)]
    return False
