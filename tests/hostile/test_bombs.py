"""Item 1 of issue 14 (small files that decode to gigabytes: tools/bombs.py) replayed through
the real server: each sent as the page sends it (POST /upload, then the callback that reads
it), alone and twelve at once. Each gets its clear message in the page's error box, no worker
dies or grows past its budget, /health stays fast, and what was loaded before stays."""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor

import pytest

from tools import bombs

from .conftest import Page, start_server, stop_server, unharmed

#: (generator, its arguments, words of the message the page must show)
PROBES = [
    ("parquet_dictionary_name", {"rows": 10**6}, "model names may have at most 256 characters"),
    ("parquet_dictionary_name", {"rows": 10**7, "name": "dict-bomb-7.parquet"},
     "model names may have at most 256 characters"),
    ("parquet_dictionary_name", {"rows": 10**7, "length": 200, "name": "dict-200.parquet"},
     "ROC_DASH_MAX_DECODED_MB"),
    ("parquet_constant_columns", {}, "more than the 1,024 MB accepted"),
    ("gzip_quoted_rows", {}, "has more than 10,000,000 rows, the most accepted per file"),
    ("gzip_blank_lines_bad_row", {}, "does not have 2 values like the header"),
    ("gzip_zeros", {}, "it is not a text, gzip or Parquet file"),
    ("gzip_long_header", {}, "is longer than 1 MB, the longest header accepted"),
    ("long_header", {}, "is longer than 1 MB, the longest header accepted"),
    ("long_model_name", {}, "has a model name of 1,000 characters"),
]


@pytest.fixture(scope="module")
def bomb_server(tmp_path_factory):
    """The container's settings (3 workers x 4 threads, default limits)."""
    root = tmp_path_factory.mktemp("bombs")
    server = start_server(root / "data", root / "gunicorn.log")
    try:
        yield server
    finally:
        stop_server(server)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bomb-files")
    return {(maker, tuple(sorted(kw.items()))): getattr(bombs, maker)(folder, **kw)
            for maker, kw, _ in PROBES}


def test_hst030_each_bomb_gets_its_message(bomb_server, files):
    s = bomb_server
    ana = Page(s, secrets.token_urlsafe(24))
    ana.upload("kept.csv", b"label,score\n1,0.9\n0,0.2\n1,0.6\n0,0.4\n")
    kept = list(ana.datasets)
    with unharmed(s) as health:
        for maker, kw, words in PROBES:
            path = files[(maker, tuple(sorted(kw.items())))]
            out = ana.upload(path.name, path.read_bytes())
            error = out["upload-error"]["children"]
            assert words in error, (maker, kw, error)
            assert path.name in error and "internal error" not in error
            assert ana.datasets == kept  # nothing loaded before is lost
    assert max(t for _, t in health.results) < 5


def test_hst031_twelve_bombs_at_once(bomb_server, files):
    """Item 1: 12 concurrent 5 GB-of-zeros gzips killed two workers and 9 clients got a
    dropped connection. Now each client gets the message (after "busy, retrying" if its
    worker was reading another one), and so do three heavier bombs sent meanwhile."""
    s = bomb_server
    zeros = files[("gzip_zeros", ())]
    heavy = [files[("gzip_quoted_rows", ())],
             files[("parquet_dictionary_name", (("name", "dict-bomb-7.parquet"),
                                                ("rows", 10**7)))],
             files[("parquet_constant_columns", ())]]

    def send(path):
        page = Page(s, secrets.token_urlsafe(24))
        return path, page.upload(path.name, path.read_bytes())["upload-error"]["children"]

    with unharmed(s), ThreadPoolExecutor(15) as pool:
        results = list(pool.map(send, [zeros] * 12 + heavy))
    words = {files[(maker, tuple(sorted(kw.items())))].name: w for maker, kw, w in PROBES}
    for path, error in results:
        assert path.name in error and words[path.name] in error, error
        assert "internal error" not in error
