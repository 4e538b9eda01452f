"""Keep pyHanko's network clients unloaded until something asks to use the network.

ClusterBid signs and verifies offline: no timestamp server, no OCSP, CRL or certificate fetching.
Yet importing any of `pyhanko.sign` ran `pyhanko.sign.timestamps`, which imports its aiohttp
timestamp client, and `pyhanko.sign.validation.ades` imports pyhanko-certvalidator's aiohttp
fetchers: aiohttp and its dependencies were a third of `clusterbid sign`'s imports, for a
network client never used. A package's `__init__` always runs, so no narrower pyHanko import
avoids them.

`defer_network_clients()` puts a stand-in for each of those two modules in `sys.modules` (only
when the module is not loaded yet). A stand-in offers the names pyHanko imports from it; calling
one (making a timestamp client or a fetcher backend) or reading any other attribute loads the real
module then and hands over to it, so code that does use the network still gets pyHanko's own
classes (tests/core/memo_signing/test_offline_imports.py).

The `pyhanko.sign` package's `__init__` also imports every signer (pdf_signer, CMS, stamps), which
verify never uses: the package is set up without running it, its submodules import as usual,
and the first name asked of the package itself (`from pyhanko.sign import PdfSigner`) runs it.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

# The modules that import aiohttp at import time, and the names other pyHanko modules import
# from them when they load.
_NETWORK_MODULES = {
    "pyhanko.sign.timestamps.aiohttp_client": ("HTTPTimeStamper", "AIOHttpTimeStamper"),
    "pyhanko_certvalidator.fetchers.aiohttp_fetchers": ("AIOHttpFetcherBackend",),
}


def _load_real(name: str) -> types.ModuleType:
    """Replace every stand-in with the real module (the timestamp client imports the fetchers'
    package, so they are loaded together) and return the module `name`."""
    for module in _NETWORK_MODULES:
        if isinstance(sys.modules.get(module), _StandIn):
            del sys.modules[module]
    for module in sorted(_NETWORK_MODULES, key=lambda m: not m.startswith("pyhanko_certvalidator")):
        real = importlib.import_module(module)
        parent, _, child = module.rpartition(".")
        if parent in sys.modules:
            setattr(sys.modules[parent], child, real)
    return sys.modules[name]


class _StandIn(types.ModuleType):
    """Stands for a network module until it is used; any attribute it lacks loads the real one."""

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):  # import machinery probing (__path__, __file__, ...)
            raise AttributeError(attribute)
        return getattr(_load_real(self.__name__), attribute)


def _deferred(module: str, name: str) -> Any:
    """A callable standing for class `name` of `module`: calling it loads the module and makes
    the real object, so a timestamp client or fetcher asked for is pyHanko's own."""

    def make(*args: Any, **kwargs: Any) -> Any:
        return getattr(_load_real(module), name)(*args, **kwargs)

    make.__name__ = make.__qualname__ = name
    make.__doc__ = f"{module}.{name}, loaded when first used (clusterbid offline_pyhanko)"
    return make


class _PackageRunOnDemand(types.ModuleType):
    """A package whose `__init__` runs when a name it defines is first asked for; a submodule
    asked for (`from pyhanko.sign import fields`) is imported without it."""

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        if importlib.util.find_spec(f"{self.__name__}.{attribute}") is not None:
            return importlib.import_module(f"{self.__name__}.{attribute}")
        if not self.__dict__.get("_clusterbid_ran_init"):
            self.__dict__["_clusterbid_ran_init"] = True
            spec = self.__spec__
            assert spec is not None and spec.loader is not None
            spec.loader.exec_module(self)
        try:
            return self.__dict__[attribute]
        except KeyError:
            raise AttributeError(
                f"module {self.__name__!r} has no attribute {attribute!r}"
            ) from None


def _defer_package_init(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return  # not a package we know how to set up: imported as usual
    package = importlib.util.module_from_spec(spec)
    package.__class__ = _PackageRunOnDemand
    sys.modules[name] = package
    parent, _, child = name.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], child, package)


def defer_network_clients() -> None:
    """Install the stand-ins; harmless when called again or after pyHanko loaded them."""
    _defer_package_init("pyhanko.sign")
    for module, names in _NETWORK_MODULES.items():
        if module in sys.modules:
            continue
        stand_in = _StandIn(module)
        for name in names:
            setattr(stand_in, name, _deferred(module, name))
        sys.modules[module] = stand_in


def network_clients_loaded() -> bool:
    """Whether aiohttp has been imported in this process (for the tests and benchmarks)."""
    return "aiohttp" in sys.modules
