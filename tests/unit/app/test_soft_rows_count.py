"""review8 item 3: a soft-label file's rows are counted as the file has them, not as the
weighted halves the analysis splits each into (status line and dataset list)."""

import numpy as np
import pandas as pd

from roc_dash.app.components import dataset_list
from roc_dash.app.features.data import apply_upload
from roc_dash.app.server.store import DatasetStore


def test_sft001_status_and_dataset_list_count_the_files_rows(tmp_path):
    rng = np.random.default_rng(8)
    n = 569
    p = rng.random(n)
    p[:5] = [0.0, 1.0, 0.0, 1.0, 0.5]  # rows with one half only count once too
    raw = pd.DataFrame({"label_prob": p, "score": rng.random(n)}).to_csv(index=False).encode()
    store = DatasetStore(tmp_path)
    out = apply_upload(store, [("soft.csv", raw)], [])
    assert out.error == "", out.error
    assert "569 rows" in out.status and "1,13" not in out.status, out.status
    (info,) = [store.info(i) for i in out.dataset_ids]
    assert info.n_rows == n
    meta = str(dataset_list([info], ["soft"], []))
    assert "569 rows" in meta
