"""Where the app keeps its preferences and the per-user demo copy (QSettings, AppDataLocation)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

ORGANISATION = "ClusterBid"
APPLICATION = "ClusterBid"
MAX_RECENT = 8
DEMO_FILE_NAME = "demo.clusterbid"


def _key(kind: str) -> str:
    """A QSettings key from a file-dialog filter such as 'Evaluations (*.clusterbid *.json)'."""
    return (
        "".join(ch if ch.isalnum() else "_" for ch in kind.split("(")[0].strip().lower()) or "files"
    )


class AppSettings:
    """Preferences in one place; tests pass their own ini file and data folder, never the user's."""

    def __init__(self, settings: QSettings, data_dir: Path) -> None:
        self._settings = settings
        self.data_dir = Path(data_dir)

    @classmethod
    def for_user(cls) -> AppSettings:
        data = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
        return cls(QSettings(ORGANISATION, APPLICATION), Path(data or Path.home() / ".clusterbid"))

    @classmethod
    def in_folder(cls, folder: Path) -> AppSettings:
        """Settings in `folder`/settings.ini and data in `folder`/data (tests, portable use)."""
        folder = Path(folder)
        return cls(
            QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat), folder / "data"
        )

    # -- files ---------------------------------------------------------------------------------
    def demo_path(self) -> Path:
        return self.data_dir / DEMO_FILE_NAME

    def last_evaluation(self) -> Path | None:
        value = self._settings.value("files/last")
        return Path(value) if value else None

    def recent_files(self) -> list[Path]:
        value = self._settings.value("files/recent") or []
        if isinstance(value, str):  # QSettings hands back a lone string for one-item lists
            value = [value]
        return [Path(item) for item in value if item]

    def note_opened(self, path: Path) -> None:
        path = Path(path).resolve()
        recent = [p for p in self.recent_files() if p != path]
        self._settings.setValue("files/recent", [str(p) for p in [path, *recent][:MAX_RECENT]])
        self._settings.setValue("files/last", str(path))

    def last_folder(self, kind: str) -> Path | None:
        """The folder the officer last used for this kind of file (evaluations, bid sheets ...)."""
        value = self._settings.value(f"folders/{_key(kind)}")
        return Path(value) if value and Path(value).is_dir() else None

    def note_folder(self, kind: str, chosen: Path) -> None:
        self._settings.setValue(f"folders/{_key(kind)}", str(Path(chosen).parent))

    # -- window state --------------------------------------------------------------------------
    def window_state(self, name: str) -> QByteArray | None:
        value = self._settings.value(f"window/{name}")
        return value if isinstance(value, QByteArray) else None

    def set_window_state(self, name: str, value: QByteArray) -> None:
        self._settings.setValue(f"window/{name}", value)

    def zoom(self) -> float:
        value = self._settings.value("view/zoom", 1.0)
        if not isinstance(value, str | int | float):  # a value of another type: not a zoom
            return 1.0
        try:
            return float(value)
        except ValueError:
            return 1.0

    def set_zoom(self, factor: float) -> None:
        self._settings.setValue("view/zoom", factor)

    def sync(self) -> None:
        self._settings.sync()
