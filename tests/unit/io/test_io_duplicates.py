"""Input given twice: identical files in one call, and ids repeated within a model."""

from __future__ import annotations

import hashlib
import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from roc_dash.io import InputError, ReadOptions, load_predictions
from roc_dash.io.canonical import content_digest

BASIC = b"label,score\n1,0.9\n0,0.2\n1,0.6\n0,0.4\n"
OTHER = b"label,score\n1,0.8\n0,0.3\n1,0.5\n0,0.1\n"


def load_error(sources, **kwargs) -> InputError:
    with pytest.raises(InputError) as info:
        load_predictions(sources, **kwargs)
    return info.value


# --------------------------------------------------------------------------- identical files


def test_io065_identical_files_under_two_names_refused():
    err = load_error([("a.csv", BASIC), ("b.csv", BASIC)])
    assert str(err) == (
        "b.csv: same contents as a.csv, so the same predictions would be counted twice. "
        "Give each file once."
    )
    assert err.file == "b.csv"
    # "error" is the default; a third, different file does not matter
    err = load_error([("a.csv", BASIC), ("c.csv", OTHER), ("b.csv", BASIC)],
                     duplicate_files="error")
    assert str(err).startswith("b.csv: same contents as a.csv")


def test_io066_same_path_twice_refused(tmp_path):
    path = tmp_path / "a.csv"
    path.write_bytes(BASIC)
    err = load_error([str(path), str(path)])
    assert str(err) == (
        f"{path}: given twice, so the same predictions would be counted twice. "
        "Give each file once."
    )
    # the same file under another spelling of its path is recognised by its contents
    other = f"{tmp_path}/./a.csv"
    err = load_error([str(path), other])
    assert str(err).startswith(f"{other}: same contents as {path}")


def test_io067_drop_keeps_the_first_with_a_note():
    once = load_predictions([("a.csv", BASIC), ("c.csv", OTHER)])
    result = load_predictions(
        [("a.csv", BASIC), ("b.csv", BASIC), ("c.csv", OTHER), ("a.csv", BASIC)],
        duplicate_files="drop",
    )
    pd.testing.assert_frame_equal(result.table, once.table)
    assert set(result.table["model"]) == {"a", "c"}
    assert result.notes == ("b.csv: dropped, identical to a.csv.", "a.csv: given twice; read once.")
    assert result.digests == once.digests == (content_digest(BASIC), content_digest(OTHER))


def test_io068_unknown_policy_is_a_programming_error():
    with pytest.raises(ValueError, match="duplicate_files"):
        load_predictions([("a.csv", BASIC)], duplicate_files="merge")
    with pytest.raises(ValueError):
        load_predictions([("a.csv", BASIC)], duplicate_files="drop ")


def test_io069_digests_of_the_files_read(tmp_path):
    assert content_digest(BASIC) == hashlib.sha256(BASIC).hexdigest()
    assert len(content_digest(b"")) == 64
    path = tmp_path / "c.csv"
    path.write_bytes(OTHER)
    result = load_predictions([("a.csv", BASIC), path])
    assert result.digests == (content_digest(BASIC), content_digest(OTHER))
    # the digest is of the bytes as given (compressed files are not decompressed first)
    import gzip

    packed = gzip.compress(BASIC)
    assert load_predictions([("a.csv.gz", packed)]).digests == (content_digest(packed),)
    # a re-upload can be recognised: the same bytes give the same digest under any name
    assert load_predictions([("renamed.csv", BASIC)]).digests == result.digests[:1]
    # the same predictions in different bytes are different files
    assert content_digest(BASIC.replace(b"\n", b"\r\n")) != content_digest(BASIC)


# --------------------------------------------------------------------------- repeated ids


def test_io070_repeated_id_in_one_file():
    data = b"label,score,id\n1,0.9,a\n0,0.2,b\n1,0.6,a\n0,0.4,c\n"
    err = load_error([("preds.csv", data)])
    assert str(err) == (
        "preds.csv: model 'preds' has id 'a' on 2 rows (rows 2, 4). Each id must appear once "
        "per model: remove the repeated rows, or drop the id column 'id'."
    )
    assert (err.file, err.column, err.rows, err.count) == ("preds.csv", "id", (2, 4), 2)
    # the column as named in the file (--id KEY)
    data = b"label,score,KEY\n1,0.9,x\n0,0.2,x\n"
    err = load_error([("p.csv", data)], options=ReadOptions(id="key"))
    assert err.column == "KEY" and "drop the id column 'KEY'." in str(err)
    # ids read as numbers: 1 and 1.0 are the same id
    err = load_error([("p.csv", b"label,score,id\n1,0.9,1\n0,0.2,1.0\n")])
    assert "has id '1' on 2 rows (rows 2, 3)" in str(err)


def test_io071_many_repeated_ids_first_few_with_their_rows():
    n = 20
    rows = [f"{i % 2},{i / 100},id{i % 8}" for i in range(n)]  # 8 ids, each on 2-3 rows
    data = ("label,score,id\n" + "\n".join(rows) + "\n").encode()
    err = load_error([("p.csv", data)])
    assert str(err) == (
        "p.csv: model 'p' has 8 ids that appear on more than one row (20 rows in all): "
        "'id0' (rows 2, 10, 18), 'id1' (rows 3, 11, 19), 'id2' (rows 4, 12, 20) and 5 more. Each id "
        "must appear once per model: remove the repeated rows, or drop the id column 'id'."
    )
    assert err.rows == (2, 3, 4, 5, 6) and err.count == 20
    # an id on many rows: its first rows and the count
    data = ("label,score,id\n" + "\n".join(f"{i % 2},{i / 100},same" for i in range(9))
            + "\n").encode()
    assert "has id 'same' on 9 rows (rows 2, 3, 4, 5, 6, … (9 in all))" in str(
        load_error([("p.csv", data)]))


def test_io072_repeated_id_across_files_of_one_model():
    a = b"model,fold,label,score,id\nlr,1,1,0.9,x\nlr,1,0,0.2,y\n"
    b = b"model,fold,label,score,id\nlr,2,1,0.7,z\nlr,2,0,0.3,x\n"
    err = load_error([("a.csv", a), ("b.csv", b)])
    assert str(err) == (
        "a.csv, b.csv: model 'lr' has id 'x' on 2 rows (a.csv row 2; b.csv row 3). Each id "
        "must appear once per model: remove the repeated rows, or drop the id column 'id'."
    )
    assert (err.file, err.rows, err.count) == ("a.csv", (2,), 2)


def test_io073_shared_ids_across_models_and_missing_ids_are_fine():
    # every model scored on the same rows: the same ids once per model (long and wide form)
    long = (b"model,label,score,id\nlr,1,0.9,a\nlr,0,0.2,b\nrf,1,0.8,a\nrf,0,0.3,b\n")
    wide = b"label,lr,rf,id\n1,0.9,0.8,a\n0,0.2,0.3,b\n"
    for data in (long, wide):
        table = load_predictions([("p.csv", data)]).table
        assert table["id"].tolist() == ["a", "b", "a", "b"]
    mixed = b"model,label,score,id\nlr,1,0.9,a\nrf,1,0.8,a\nlr,0,0.2,b\nrf,0,0.3,b\n"
    assert load_predictions([("p.csv", mixed)]).table["id"].tolist() == ["a", "a", "b", "b"]
    err = load_error([("p.csv", mixed + b"rf,0,0.1,a\n")])
    assert str(err).startswith("p.csv: model 'rf' has id 'a' on 2 rows (rows 3, 6).")
    # two files named after themselves are two models: the same ids in both are fine
    data = b"label,score,id\n1,0.9,a\n0,0.2,b\n"
    other = b"label,score,id\n1,0.7,a\n0,0.1,b\n"
    assert len(load_predictions([("m1.csv", data), ("m2.csv", other)]).table) == 4
    # rows of a file without an id column have no id: never duplicates of each other
    no_id = b"model,label,score\nlr,1,0.5\nlr,0,0.4\n"
    with_id = b"model,label,score,id\nlr,1,0.9,a\nlr,0,0.2,b\n"
    table = load_predictions([("a.csv", with_id), ("b.csv", no_id), ("c.csv", no_id + b"lr,1,.7\n")]
                             ).table
    assert table["id"].isna().sum() == 5


def test_io074_row_numbers_as_in_the_file():
    # blank lines are skipped but counted, like every other error's rows
    data = b"label,score,id\n1,0.9,a\n\n0,0.2,b\n\n\n1,0.6,a\n"
    err = load_error([("p.csv", data)])
    assert err.rows == (2, 7) and "(rows 2, 7)" in str(err)
    # rows dropped for non-finite scores do not shift the numbers
    data = b"label,score,id\n1,,q\n0,0.2,b\n1,inf,r\n1,0.6,b\n0,0.1,c\n"
    err = load_error([("p.csv", data)], options=ReadOptions(drop_nonfinite=True))
    assert "has id 'b' on 2 rows (rows 3, 5)" in str(err)
    # ... nor does one in only one column of a wide file
    data = b"label,lr,rf,id\n1,0.9,,a\n0,0.2,0.3,b\n1,0.7,0.6,c\n0,0.1,0.2,b\n"
    err = load_error([("w.csv", data)], options=ReadOptions(drop_nonfinite=True))
    assert str(err).startswith("w.csv: model 'lr' has id 'b' on 2 rows (rows 3, 5).")
    assert str(err).endswith("(1 other model also has repeated ids.)")
    data = b"label,lr,rf,id\n1,0.9,0.1,a\n0,0.2,,b\n1,,0.6,c\n0,0.1,0.2,c\n"
    err = load_error([("w.csv", data)], options=ReadOptions(drop_nonfinite=True))
    assert str(err).startswith("w.csv: model 'rf' has id 'c' on 2 rows (rows 4, 5).")
    # Parquet: 1-based record numbers
    buf = io.BytesIO()
    pq.write_table(pa.table({"label": [1, 0, 1], "score": [0.9, 0.2, 0.5],
                             "id": ["u", "v", "v"]}), buf)
    err = load_error([("p.parquet", buf.getvalue())])
    assert err.rows == (2, 3) and "(rows 2, 3)" in str(err)


def test_io075_other_models_counted():
    rows = ["model,label,score,id"]
    for model in ("m1", "m2", "m3"):
        rows += [f"{model},1,0.9,a", f"{model},0,0.2,a"]
    rows += ["ok,1,0.9,a", "ok,0,0.2,b"]
    err = load_error([("p.csv", ("\n".join(rows) + "\n").encode())])
    assert str(err).startswith("p.csv: model 'm1' has id 'a' on 2 rows (rows 2, 3).")
    assert str(err).endswith("(2 other models also have repeated ids.)")


def test_io076_unique_ids_at_scale_pass_and_one_repeat_is_found():
    n = 200_000
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({
        "model": np.repeat(["lr", "rf"], n // 2),
        "label": rng.integers(0, 2, n),
        "score": rng.random(n).round(6),
        "id": np.tile([f"r{i}" for i in rng.permutation(n // 2)], 2),
    })
    data = frame.to_csv(index=False).encode()
    assert len(load_predictions([("big.csv", data)]).table) == n
    frame.loc[n - 1, "id"] = frame.loc[n // 2 + 7, "id"]
    err = load_error([("big.csv", frame.to_csv(index=False).encode())])
    assert err.rows == (n // 2 + 9, n + 1) and err.count == 2
    assert str(err).startswith(f"big.csv: model 'rf' has id {frame.loc[n - 1, 'id']!r} on 2 rows")


def test_io077_models_with_disjoint_ids():
    # each model scored on its own rows: many (model, id) codes are unused, and the check
    # hashes instead of counting; the answer is the same
    frames = [pd.DataFrame({"model": f"m{k}", "label": np.arange(1000) % 2,
                            "score": np.linspace(0, 1, 1000),
                            "id": [f"{k}-{i}" for i in range(1000)]}) for k in range(3)]
    frame = pd.concat(frames, ignore_index=True)
    assert len(load_predictions([("p.csv", frame.to_csv(index=False).encode())]).table) == 3000
    frame.loc[1500, "id"] = frame.loc[1001, "id"]
    err = load_error([("p.csv", frame.to_csv(index=False).encode())])
    assert str(err).startswith("p.csv: model 'm1' has id '1-1' on 2 rows (rows 1003, 1502).")
