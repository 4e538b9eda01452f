"""One Qt-free function per user operation, shared by the command line and the app.

Each takes the document or inputs, a progress callback and a cancel token (operations.progress)
and returns a result object: `clusterbid` (cli*.py) formats it, the app runs it on its one
background runner and shows it. What goes into a document's audit trail is decided here, never
by a front door: the rows are written by the functions of this package, to the document the
operation checked.
"""
