"""Which document to open: the one asked for, the last one, or a per-user copy of the demo."""

from __future__ import annotations

from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.settings import AppSettings


def open_document(path: Path, settings: AppSettings) -> EvaluationDocument:
    """A .clusterbid opens in place; a JSON evaluation is copied into a new .clusterbid beside
    the app's data, since every edit must be committed to a document."""
    path = Path(path)
    if path.suffix == ".clusterbid":
        _offer_to_merge_a_stray_log(path)
        return EvaluationDocument.open(path)
    from clusterbid.core.documents import read_evaluation

    evaluation = read_evaluation(path)
    return EvaluationDocument.create(unused_path(settings.data_dir, path.stem), evaluation)


def _offer_to_merge_a_stray_log(path: Path) -> None:
    """A -wal beside the document (ClusterBid never writes one): the officer decides. No (the
    default) leaves it, and the open then refuses it by name; Yes merges it, keeping both files
    aside and checking the result (core/store/stray_log.py)."""
    from clusterbid.core.store.stray_log import KEPT_SUFFIX, merge_stray_log, stray_log_of
    from clusterbid.gui import dialogs

    wal = stray_log_of(path)
    if wal is None or not dialogs.confirm(
        None,
        "Merge changes found beside the document?",
        f"{wal.name} lies beside {path.name}. ClusterBid never writes such a file: another "
        "program made it, and it holds changes not in the document. Merge them only if you know "
        f"where they came from. Both files are first copied aside (ending {KEPT_SUFFIX}), and "
        "the merged document must pass every check, or both are put back as they were.",
    ):
        return
    merge_stray_log(path)


def unused_path(folder: Path, stem: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    candidate = folder / f"{stem}.clusterbid"
    number = 2
    while candidate.exists():
        candidate = folder / f"{stem}-{number}.clusterbid"
        number += 1
    return candidate


def demo_document(settings: AppSettings) -> EvaluationDocument:
    """The demo, saved once into the user's data folder so edits to it are kept."""
    path = settings.demo_path()
    if path.exists():
        try:
            return EvaluationDocument.open(path)
        except InputError:
            path = unused_path(settings.data_dir, "demo")  # keep the damaged file for inspection
    from clusterbid.core.demo import demo_evaluation

    path.parent.mkdir(parents=True, exist_ok=True)
    return EvaluationDocument.create(path, demo_evaluation())


def startup_document(
    path: str | Path | None, settings: AppSettings
) -> tuple[EvaluationDocument, str | None]:
    """(document, a note for the status bar when the file asked for, or the last evaluation, could
    not be opened: the app then opens what it can and says why, rather than closing)."""
    if path is not None:
        try:
            return open_document(Path(path), settings), None
        except InputError as exc:
            document, _ = startup_document(None, settings)
            return (
                document,
                f"Could not open {Path(path).name}: {exc} Showing {document.path.name} instead.",
            )
    last = settings.last_evaluation()
    if last is not None and last.exists():
        try:
            return open_document(last, settings), None
        except InputError as exc:
            return demo_document(
                settings
            ), f"Could not reopen the last evaluation ({exc}); showing the demo."
    return demo_document(settings), None
