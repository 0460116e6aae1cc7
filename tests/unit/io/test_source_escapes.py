"""Ways out of a server's allowed sources, replayed (roc_dash.io.pinned_files): a name DuckDB
would expand as a pattern, a folder named like a pattern, a file swapped for a link between
the check and the open (once, and by a thread racing the opens), a database a link takes
outside the folder, and names with invisible characters in the offer."""

import contextlib
import os
import re
import subprocess
import sys
import threading
import time

import duckdb
import numpy as np
import pandas as pd
import pytest

from roc_dash.app.features.sources import open_source, source_options
from roc_dash.app.server import sources as src
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.io import InputError
from roc_dash.io.engines import aggregate_predictions
from roc_dash.io.pinned_files import open_checked, opened
from roc_dash.text.invisible import invisible_characters
from tests.source_jobs import wait_done

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"),
                                reason="the kernel's names of open files (/proc) are Linux's")

REFUSED = ("leads outside the allowed source|replaced by a link|file not found|"
           "changed while it was being opened")


def _frame(model: str, n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    label = (rng.random(n) < 0.4).astype(int)
    score = np.round(1 / (1 + np.exp(-(rng.normal(0, 1, n) + label))), 3)
    return pd.DataFrame({"model": model, "label": label, "score": score})


def _models(value) -> set[str]:
    """The models a server source holds, read as the page's job reads it."""
    table = aggregate_predictions([src.resolve(value)]).table
    return set(table["model"].astype(str))


@pytest.fixture
def place(tmp_path, monkeypatch):
    """An allowed folder with one file of model "inside", a secret file of model "secret"
    outside every allowed entry."""
    allowed = tmp_path / "allowed" / "preds"
    allowed.mkdir(parents=True)
    _frame("inside").to_parquet(allowed / "a.parquet")
    secret = tmp_path / "secret"
    secret.mkdir()
    _frame("secret", seed=1).to_parquet(secret / "secret.parquet")
    monkeypatch.setenv(src.SOURCES_VAR, str(allowed))
    return {"allowed": allowed, "secret": secret, "root": tmp_path}


def test_sxe001_a_name_read_as_a_pattern_reads_that_file_alone(place):
    """``[_]hidden.parquet`` is a real file in the allowed folder; ``_hidden.parquet`` beside
    it (skipped by the offers, as every name starting with _) links to a file outside.
    DuckDB's read_parquet took the name as a pattern that matches the link."""
    allowed = place["allowed"]
    (allowed / "_hidden.parquet").symlink_to(place["secret"] / "secret.parquet")
    _frame("bracketed", seed=2).to_parquet(allowed / "[_]hidden.parquet")
    value = str(allowed / "[_]hidden.parquet")
    assert value in {o.value for o in src.offers()}
    assert _models(value) == {"bracketed"}
    # the whole folder: its files, each read as itself (the link is skipped, as before)
    assert _models(str(allowed)) == {"inside", "bracketed"}
    # ? and * in a name, too
    _frame("question", seed=3).to_parquet(allowed / "b?.parquet")
    (allowed / "_bx.parquet").symlink_to(place["secret"] / "secret.parquet")
    assert _models(str(allowed / "b?.parquet")) == {"question"}


def test_sxe002_a_folder_named_like_a_pattern_reads_itself(place, monkeypatch):
    """An allowed folder ``[p]reds``: its files' names, taken as patterns, matched a folder
    ``preds`` beside it that is not allowed."""
    root = place["root"] / "team"
    (root / "[p]reds").mkdir(parents=True)
    (root / "preds").mkdir()
    _frame("allowed_one", seed=4).to_parquet(root / "[p]reds" / "x.parquet")
    _frame("not_allowed", seed=5).to_parquet(root / "preds" / "x.parquet")
    monkeypatch.setenv(src.SOURCES_VAR, str(root / "[p]reds"))
    for value in (str(root / "[p]reds" / "x.parquet"), str(root / "[p]reds")):
        assert _models(value) == {"allowed_one"}, value
    # CSV goes through read_csv, which expands patterns as read_parquet does
    _frame("allowed_csv", seed=6).to_csv(root / "[p]reds" / "y.csv", index=False)
    _frame("not_allowed_csv", seed=7).to_csv(root / "preds" / "y.csv", index=False)
    assert _models(str(root / "[p]reds" / "y.csv")) == {"allowed_csv"}


def test_sxe003_a_file_swapped_for_a_link_after_the_check_is_refused(place):
    """Checked, then replaced by a link to the secret file before it is read: refused with
    a message, the secret file unread."""
    allowed, secret = place["allowed"], place["secret"] / "secret.parquet"
    source = src.resolve(str(allowed / "a.parquet"))  # checked: a real file inside
    (allowed / ".swap").symlink_to(secret)
    os.replace(allowed / ".swap", allowed / "a.parquet")
    with pytest.raises(InputError, match="leads outside the allowed source") as err:
        aggregate_predictions([source])
    assert "a.parquet" in str(err.value) and "/proc/" not in str(err.value)


def test_sxe004_a_folder_swapped_for_a_link_after_the_check_is_refused(place):
    """A sub-folder checked, then swapped for a link to a folder outside (the file names
    unchanged): the opened files' own names lead outside, refused."""
    allowed, secret = place["allowed"], place["secret"]
    (allowed / "run").mkdir()
    _frame("inside_run", seed=8).to_parquet(allowed / "run" / "secret.parquet")
    source = src.resolve(str(allowed / "run"))
    os.rename(allowed / "run", allowed / ".run-before")
    (allowed / "run").symlink_to(secret, target_is_directory=True)
    with pytest.raises(InputError, match="leads outside the allowed source"):
        aggregate_predictions([source])


def test_sxe005_a_database_swapped_after_the_check_is_refused(place, monkeypatch):
    allowed, root = place["allowed"], place["root"]
    for path, model in ((allowed / "w.duckdb", "inside"), (root / "secret" / "w.duckdb",
                                                           "secret")):
        con = duckdb.connect(str(path))
        frame = _frame(model)  # noqa: F841 - read by the query below
        con.execute("CREATE TABLE predictions AS SELECT * FROM frame")
        con.close()
    value = f"{allowed / 'w.duckdb'}::predictions"
    assert _models(value) == {"inside"}
    source = src.resolve(value)
    (allowed / ".swap").symlink_to(root / "secret" / "w.duckdb")
    os.replace(allowed / ".swap", allowed / "w.duckdb")
    with pytest.raises(InputError, match="leads outside the allowed source"):
        aggregate_predictions([source])


_SWAPPER = """
import os, sys, time
folder, secret, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
master, target = os.path.join(folder, ".master"), os.path.join(folder, "a.parquet")
deadline, k = time.monotonic() + seconds, 0
while time.monotonic() < deadline and os.path.exists(master):
    tmp = os.path.join(folder, ".tmp%d" % (k % 2))
    if k % 2:
        os.link(master, tmp)
    else:
        os.symlink(secret, tmp)
    os.replace(tmp, target)
    k += 1
    time.sleep(0.002)
"""


@contextlib.contextmanager
def _swapping(folder, secret, seconds: float):
    """Another process replaces ``folder/a.parquet`` by a link to ``secret`` and back every
    2 ms (atomic renames: the name always exists) for at most ``seconds``. A process, not a
    thread: a thread shares this interpreter's lock and hardly ever swaps between a check
    and an open (the old code read the secret file in 7 of 60 opens against a process, in
    none of 30 against a thread)."""
    master = folder / ".master"
    os.link(folder / "a.parquet", master)
    racer = subprocess.Popen([sys.executable, "-c", _SWAPPER, str(folder), str(secret),
                              str(seconds)])
    try:
        yield racer
    finally:
        os.link(master, folder / ".restore")
        master.unlink()  # the racer's signal to stop
        try:
            racer.wait(10)
        except subprocess.TimeoutExpired:
            racer.kill()
            racer.wait()
        os.replace(folder / ".restore", folder / "a.parquet")


def test_sxe006_opens_racing_a_swapping_link_never_read_outside(place, tmp_path):
    """While another process replaces the allowed file by a link to the secret one and back
    every 2 ms, the page's job opens it again and again (300 opens, at most 60 s): no job
    reads the secret file; each one either reads the allowed file or refuses with a
    message."""
    allowed = place["allowed"]
    store = DatasetStore(tmp_path / "data")
    jobs = src.SourceJobs(store)
    read, refused = [], []
    with _swapping(allowed, place["secret"] / "secret.parquet", 90) as racer:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(read) + len(refused) < 300:
            assert racer.poll() is None, "the swapping process stopped early"
            token, _, error = open_source(jobs, store, str(allowed / "a.parquet"), [DEMO_ID])
            if "already opening a data source" in error:  # the last job is finishing
                time.sleep(0.01)
                continue
            if token is None:  # refused at the check
                refused.append(error)
                continue
            job = wait_done(jobs, token)
            if job["state"] == "done":
                read.append(set(store.info(job["dataset_id"]).models))
            else:
                refused.append(job["error"])
    assert len(read) + len(refused) >= 30, "too few opens to say anything"
    escaped = [models for models in read if models != {"inside"}]
    assert not escaped, f"{len(escaped)} of {len(read) + len(refused)} opens read {escaped[0]}"
    unexplained = [e for e in refused if not re.search(REFUSED, e)]
    assert not unexplained, unexplained[:3]
    # once the swapping stops, the file opens as ever
    assert _models(str(allowed / "a.parquet")) == {"inside"}


def test_sxe007_a_database_linked_from_outside_is_neither_offered_nor_listed(place, caplog):
    """A link in the allowed folder to a database elsewhere: opening it was refused, but its
    tables were listed in the offer. Now nothing of it is offered; the log says why."""
    outside = place["root"] / "secret" / "vault.duckdb"
    con = duckdb.connect(str(outside))
    con.execute("CREATE TABLE payroll_2024 AS SELECT 1 AS label, 0.5 AS score")
    con.close()
    (place["allowed"] / "vault.duckdb").symlink_to(outside)
    with caplog.at_level("WARNING"):
        offered = src.offers()
        options = source_options()
    assert not any("payroll" in o.value or "payroll" in o.label for o in offered)
    assert not any("payroll" in str(o) for o in options)
    assert any("vault.duckdb" in r.getMessage() and "leads outside" in r.getMessage()
               for r in caplog.records)
    # a database inside the folder is still offered, table by table
    con = duckdb.connect(str(place["allowed"] / "kept.duckdb"))
    con.execute("CREATE TABLE scores AS SELECT 1 AS label, 0.5 AS score")
    con.close()
    assert f"{place['allowed'] / 'kept.duckdb'}::scores" in {o.value for o in src.offers()}


def test_sxe008_invisible_characters_leave_the_offer_and_the_label(place, tmp_path):
    """A right-to-left override (U+202E) in a file's name drew the rest of the offer and
    of the dataset's label reversed; names are cleaned as uploads' are, and the file with
    its exact name is still the one read."""
    name = "run\u202etxt.parquet"
    _frame("rtl", seed=9).to_parquet(place["allowed"] / name)
    hidden = set(invisible_characters())
    offer = next(o for o in src.offers() if o.value.endswith(name))
    assert not hidden & set(offer.label) and offer.label == "preds/runtxt.parquet"
    option = next(o for o in source_options() if o["value"] == offer.value)
    assert not hidden & set(option["label"]) and "<U+202E>" in option["title"]
    store = DatasetStore(tmp_path / "data")
    jobs = src.SourceJobs(store)
    token, status, error = open_source(jobs, store, offer.value, [DEMO_ID])
    assert error == "" and not hidden & set(status)
    job = wait_done(jobs, token)
    assert job["state"] == "done", job
    info = store.info(job["dataset_id"])
    assert not hidden & set(info.label) and "runtxt.parquet" in info.label
    assert set(info.models) == {"rtl"}
    assert not hidden & set(" ".join(job["notes"]))
    # two names that differ only by invisible characters are told apart by their paths,
    # the difference written out
    _frame("plain", seed=10).to_parquet(place["allowed"] / "runtxt.parquet")
    labels = {o.value: o.label for o in src.offers()}
    assert labels[str(place["allowed"] / name)].endswith("run<U+202E>txt.parquet")
    assert labels[str(place["allowed"] / "runtxt.parquet")] == str(
        place["allowed"] / "runtxt.parquet")


def test_sxe009_a_name_with_brackets_reads_on_the_command_line(tmp_path):
    """Outside the server too, a file is read by its exact name: ``a[1].parquet`` was taken
    as the pattern a1.parquet (and read that file, or none)."""
    _frame("bracket").to_parquet(tmp_path / "a[1].parquet")
    _frame("plain", seed=1).to_parquet(tmp_path / "a1.parquet")
    table = aggregate_predictions([str(tmp_path / "a[1].parquet")]).table
    assert set(table["model"].astype(str)) == {"bracket"}
    # DuckDB's messages name the file, not the name it was read by
    (tmp_path / "b[2].parquet").write_bytes(b"PAR1" + b"garbage" * 4 + b"PAR1")
    with pytest.raises(InputError, match=r"cannot be read by DuckDB") as err:
        aggregate_predictions([str(tmp_path / "b[2].parquet")])
    assert str(tmp_path / "b[2].parquet") in str(err.value).split("(", 1)[1]
    assert "/proc/" not in str(err.value) and "roc-dash-open-" not in str(err.value)


def test_sxe010_what_is_not_a_plain_file_is_refused_at_once(place):
    """A named pipe in the allowed folder does not hang the worker (no writer will come);
    a database with unfinished writes beside it (its .wal) is refused, not read stale."""
    fifo = place["allowed"] / "pipe.csv"
    os.mkfifo(fifo)
    outcome = []

    def open_it():
        try:
            src.resolve(str(fifo))
        except InputError as exc:
            outcome.append(str(exc))

    opener = threading.Thread(target=open_it, daemon=True)
    opener.start()
    opener.join(20)
    hung = opener.is_alive()
    if hung:  # (the old code) let the opener go: a writer that closes at once
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        opener.join(20)
    assert not hung, "opening a named pipe waited for a writer"
    assert outcome and "not a regular file" in outcome[0], outcome
    db = place["allowed"] / "w.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE predictions AS SELECT 1 AS label, 0.5 AS score")
    con.close()
    (place["allowed"] / "w.duckdb.wal").write_bytes(b"unfinished")
    with pytest.raises(InputError, match=r"w\.duckdb\.wal beside it"):
        aggregate_predictions([f"{db}::predictions"])


def test_sxe011_opened_names_are_the_open_files_and_close_with_the_block(tmp_path):
    inside = tmp_path / "in" / "x.csv"
    inside.parent.mkdir()
    inside.write_text("label,score\n1,0.5\n")
    (tmp_path / "out.csv").write_text("secret\n")
    (tmp_path / "in" / "link.csv").symlink_to(tmp_path / "out.csv")
    (tmp_path / "in" / "inner.csv").symlink_to(inside)  # a link that stays inside: allowed
    with opened([str(inside), str(tmp_path / "in" / "inner.csv")],
                within=str(inside.parent)) as names:
        kept = dict(names)
        for name in names.values():
            with open(name) as fh:
                assert fh.read().startswith("label")
    for name in kept.values():  # closed: the name no longer opens the file
        assert not os.path.exists(name) or os.readlink(name) != str(inside)
    with pytest.raises(InputError, match="leads outside"):
        open_checked(str(tmp_path / "in" / "link.csv"), within=str(inside.parent))
    with pytest.raises(InputError, match="file not found"):
        open_checked(str(tmp_path / "in" / "missing.csv"))


def test_sxe012_a_partitioned_folder_keeps_its_key_value_columns(place, monkeypatch):
    """DuckDB reads ``key=value`` folders as columns (hive partitioning): read through the
    opened files, a partitioned dataset still has its models and folds, and nothing of the
    private folder of links is left behind."""
    import tempfile

    root = place["root"] / "parts"
    for k, (model, fold) in enumerate((("rf", 1), ("rf", 2), ("lr", 1), ("lr", 2))):
        folder = root / f"model={model}" / f"fold={fold}"
        folder.mkdir(parents=True)
        _frame("ignored", seed=k).drop(columns="model").to_parquet(folder / "part-0.parquet")
    monkeypatch.setenv(src.SOURCES_VAR, str(root))
    private = place["root"] / "temporary"  # where the links go (the system's temp folder)
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    table = aggregate_predictions([src.resolve(str(root))]).table
    assert set(table["model"].astype(str)) == {"rf", "lr"}
    assert set(table["fold"].astype(str)) == {"1", "2"}
    assert table.attrs["input_rows"] == 4 * 400
    assert list(private.iterdir()) == []  # the links' folder is gone
