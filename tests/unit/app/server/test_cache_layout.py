"""Values an older roc-dash pickled into the shared disk cache (cly001-cly003).

A data directory outlives an upgrade (the container's volume), and its disk cache holds
analyses pickled with the classes of the roc-dash that wrote them. Once a module has moved
(core's hull module is in ``roc_dash.core.roc`` since core was regrouped), such a value no
longer unpickles: it must be a cache miss, recomputed, never an error.
"""

from __future__ import annotations

import hashlib
import sys
import types
from dataclasses import dataclass

from roc_dash.app.server.cache import LAYOUT, SharedCache

PARTS = ("analysis", ("dataset-id",), "conditions")
#: Where core's hull module was before core was regrouped (spelt in two pieces so that the
#: script that rewrites references to old module paths leaves it alone).
OLD_MODULE = ".".join(["roc_dash", "core", "hull"])


def _old_module_value():
    """A value whose class lives in a module that exists no more: pickled while a stand-in
    module of that name is loaded, unpicklable once it is gone."""
    module = types.ModuleType(OLD_MODULE)

    @dataclass(frozen=True)
    class RocHull:
        fpr: tuple

    RocHull.__module__ = module.__name__
    RocHull.__qualname__ = "RocHull"
    module.RocHull = RocHull
    return module, RocHull(fpr=(0.0, 1.0))


def test_cly001_an_entry_of_a_moved_module_is_a_miss_and_is_recomputed(tmp_path):
    module, old = _old_module_value()
    writer = SharedCache(tmp_path)
    key = writer.key(PARTS)
    sys.modules[module.__name__] = module
    try:
        writer.disk.set(key, old)
    finally:
        del sys.modules[module.__name__]
    assert OLD_MODULE not in sys.modules
    reader = SharedCache(tmp_path)  # another worker: nothing in its memory
    made = []
    value = reader.get_or_make(PARTS, lambda: made.append(1) or {"fresh": True})
    assert value == {"fresh": True} and made == [1]
    assert SharedCache(tmp_path).disk.get(key) == {"fresh": True}  # replaced on disk


def test_cly002_an_entry_written_before_the_layout_was_raised_is_not_read(tmp_path):
    """The key carries :data:`LAYOUT`: what an older roc-dash wrote under the plain key of
    the same parts (which may still unpickle, into an outdated shape) is never read."""
    cache = SharedCache(tmp_path)
    before = hashlib.sha256(repr(PARTS).encode()).hexdigest()
    cache.disk.set(before, {"written by": "an older roc-dash"})
    value = SharedCache(tmp_path).get_or_make(PARTS, lambda: {"fresh": True})
    assert value == {"fresh": True}
    assert cache.key(PARTS) != before


def test_cly003_the_layout_is_part_of_the_key(tmp_path):
    assert LAYOUT >= 2
    assert SharedCache.key(PARTS) == hashlib.sha256(repr((LAYOUT, PARTS)).encode()).hexdigest()
    assert SharedCache.key(PARTS) != SharedCache.key(("analysis", ("other",), "conditions"))
