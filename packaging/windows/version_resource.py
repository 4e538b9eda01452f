"""Write the Windows version resource (file properties > Details) from the package version."""

from __future__ import annotations

from pathlib import Path


def write_version_resource(path: Path, version: str) -> str:
    from PyInstaller.utils.win32.versioninfo import (
        FixedFileInfo,
        StringFileInfo,
        StringStruct,
        StringTable,
        VarFileInfo,
        VarStruct,
        VSVersionInfo,
    )

    numbers = tuple(int(part) for part in (version.split(".") + ["0"] * 4)[:4])
    info = VSVersionInfo(
        ffi=FixedFileInfo(filevers=numbers, prodvers=numbers),
        kids=[
            StringFileInfo(
                [
                    StringTable(
                        "040904B0",
                        [
                            StringStruct("CompanyName", "ClusterBid"),
                            StringStruct(
                                "FileDescription", "ClusterBid: GPU-cluster bid evaluation"
                            ),
                            StringStruct("FileVersion", version),
                            StringStruct("ProductName", "ClusterBid"),
                            StringStruct("ProductVersion", version),
                            StringStruct("OriginalFilename", "clusterbid.exe"),
                        ],
                    )
                ]
            ),
            VarFileInfo([VarStruct("Translation", [0x0409, 1200])]),
        ],
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(str(info), encoding="utf-8")
    return str(path)
