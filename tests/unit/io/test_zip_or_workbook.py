"""review8 item 5e: a ZIP holding a CSV is told apart from an Excel workbook (an xlsx is a
ZIP whose parts are ``[Content_Types].xml`` and ``xl/...``)."""

import io
import zipfile

import pytest

from roc_dash.io import InputError, load_predictions


def _zip(tmp_path, name, members):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for member, text in members:
            z.writestr(member, text)
    path = tmp_path / name
    path.write_bytes(buf.getvalue())
    with pytest.raises(InputError) as err:
        load_predictions([path])
    return str(err.value)


def test_zpx001_a_zip_of_a_csv_says_unzip_it(tmp_path):
    for name in ("bc.zip", "zipped_as.csv"):  # review8's two files
        msg = _zip(tmp_path, name, [("bc.csv", "label,score\n1,0.9\n0,0.1\n")])
        assert "ZIP archive" in msg and "unzip it" in msg, msg
        assert "Excel" not in msg and "xlsx" not in msg


def test_zpx002_a_workbook_is_still_called_a_workbook(tmp_path):
    parts = [("[Content_Types].xml", "<Types/>"), ("xl/workbook.xml", "<workbook/>")]
    msg = _zip(tmp_path, "book.csv", parts)  # renamed: told by its parts
    assert "Excel workbook (.xlsx)" in msg and "export the sheet as CSV" in msg
    assert "unzip" not in msg
