"""The dashboard on your own data, from a notebook or a script: :func:`show`.

:func:`show` reads a DataFrame or files through :mod:`roc_dash.io` (as an upload), keeps the
table in the app's dataset store (:class:`~roc_dash.app.server.store.DatasetStore`) and
serves the page of :func:`~roc_dash.app.create_app` with one addition: the bare address
(``/``) redirects to the link of that dataset under the given conditions
(``?data=<id>&cfp=…&cfn=…&prior=…``), which the page reads on its first load as it reads
any shared link (:func:`~roc_dash.app.state.parse_query`). In Jupyter it runs through Dash's
``jupyter_mode`` (inline in the output cell, or a link, or a new tab); elsewhere it serves
from a background thread and prints the address.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import webbrowser
from dataclasses import dataclass, field
from urllib.parse import urlencode

import pandas as pd

__all__ = ["show", "Dashboard", "MODES", "LOCAL_FRAME_ANCESTORS"]

#: Display modes (Dash's ``jupyter_mode``): in the output cell, a link, a new tab, or a
#: JupyterLab tab (with the ``jupyterlab-dash`` extension).
MODES = ("inline", "external", "tab", "jupyterlab")

#: Pages that may show the dashboard in a frame (``inline`` and ``jupyterlab`` modes): a
#: notebook served from this machine. The page itself forbids every other frame
#: (``X-Frame-Options``, CSP ``frame-ancestors``; :mod:`roc_dash.app.server.security`).
LOCAL_FRAME_ANCESTORS = ("http://localhost:*", "http://127.0.0.1:*", "https://localhost:*",
                         "https://127.0.0.1:*")

_AVERAGING = ("none", "pooled", "vertical", "threshold")
_LEVELS = (0.8, 0.9, 0.95, 0.99)
_TABS = ("decide", "compare", "beyond", "monitor")


#: The dashboard :func:`show` runs on each (host, port): a new one there stops it first.
_RUNNING: dict = {}


@dataclass
class Dashboard:
    """A running dashboard started by :func:`show`.

    Attributes
    ----------
    url : str
        Its address (the bare one: it opens the data under the given conditions).
    link : str
        The page's link of the data and conditions (what ``url`` redirects to).
    dataset_id : str
        The id of the data in the store (the page's ``?data=``).
    app : dash.Dash
        The app (``app.store`` is its dataset store).
    """

    url: str
    link: str
    dataset_id: str
    app: object = field(repr=False)
    _stop: object = field(default=None, repr=False)
    _data_dir: str | None = field(default=None, repr=False)

    def stop(self) -> None:
        """Stop the server (and delete the temporary data folder :func:`show` made)."""
        if self._stop is not None:
            self._stop()
            self._stop = None
        for key, running in list(_RUNNING.items()):
            if running is self:
                del _RUNNING[key]
        if self._data_dir is not None:
            shutil.rmtree(self._data_dir, ignore_errors=True)
            self._data_dir = None


def _read(data, options):
    """``LoadResult`` of a DataFrame (an in-memory Parquet file) or of paths, via the io."""
    from ..io import load_predictions
    from . import parquet_bytes

    if isinstance(data, pd.DataFrame):
        frame = data.reset_index(drop=True)
        frame.columns = [str(c) for c in frame.columns]
        return load_predictions([("data", parquet_bytes(frame))], options=options)
    if isinstance(data, str | os.PathLike):
        data = [data]
    try:
        paths = [os.fspath(p) for p in data]
    except TypeError:
        raise ValueError("data must be a pandas DataFrame, a path to a predictions file, or "
                         f"a list of paths; got {type(data).__name__}.") from None
    return load_predictions(paths, options=options, duplicate_files="error")


def _query(dataset_id: str, conditions: dict) -> str:
    """The page's link query of the dataset and the conditions (refusing unusable ones)."""
    from ..app.state import COST_LIMITS, parse_query

    unknown = sorted(set(conditions) - {"cost_fp", "cost_fn", "prior", "averaging", "level",
                                        "band", "models", "tab", "det"})
    if unknown:
        raise ValueError(f"show() does not know the condition(s) {', '.join(unknown)}; it "
                         "takes cost_fp, cost_fn, prior, averaging, level, band, models, tab "
                         "and det.")
    q: dict = {"data": dataset_id}
    keys = {"cost_fp": "cfp", "cost_fn": "cfn", "prior": "prior", "averaging": "avg",
            "level": "level", "band": "band", "tab": "tab"}
    for name, key in keys.items():
        if conditions.get(name) is not None:
            q[key] = conditions[name]
    if conditions.get("models"):
        models = conditions["models"]
        q["models"] = "|".join([models] if isinstance(models, str) else map(str, models))
    if conditions.get("det"):
        q["det"] = "1"
    query = urlencode(q)
    read = parse_query("?" + query)
    allowed = {
        "cfp": f"a cost between {COST_LIMITS[0]:g} and {COST_LIMITS[1]:g}",
        "cfn": f"a cost between {COST_LIMITS[0]:g} and {COST_LIMITS[1]:g}",
        "prior": "strictly between 0 and 1", "avg": f"one of {_AVERAGING}",
        "level": f"one of {_LEVELS}", "band": "'pointwise' or 'simultaneous'",
        "tab": f"one of {_TABS}"}
    read_keys = {"cfp": "cost_fp", "cfn": "cost_fn", "prior": "prior", "avg": "averaging",
                 "level": "level", "band": "band", "tab": "tab"}
    for key, what in allowed.items():
        if key in q and read_keys[key] not in read:
            name = next(n for n, k in keys.items() if k == key)
            raise ValueError(f"{name} must be {what}; got {conditions[name]!r}.")
    return query


def _allow_frames(server, ancestors) -> None:
    """Let the pages in ``ancestors`` show this app in a frame (a notebook's output cell):
    ``frame-ancestors`` of the CSP widened to them, ``X-Frame-Options`` (which cannot name
    another origin) left out. Runs after the security headers are set."""
    allowed = " ".join(("'self'", *ancestors))

    def frames(response):
        response.headers.pop("X-Frame-Options", None)
        csp = response.headers.get("Content-Security-Policy")
        if csp:
            parts = [p.strip() for p in csp.split(";") if p.strip()]
            parts = [f"frame-ancestors {allowed}" if p.startswith("frame-ancestors") else p
                     for p in parts]
            response.headers["Content-Security-Policy"] = "; ".join(parts)
        return response

    # Flask runs after_request functions last-registered first: at the front, this one runs
    # after the security headers (harden) are in place
    server.after_request_funcs.setdefault(None, []).insert(0, frames)


def _start_here(app, query: str) -> None:
    """The bare address redirects to the link of the data and conditions (the page reads
    its settings from the link on first load)."""
    from flask import redirect, request

    root = app.config.routes_pathname_prefix

    @app.server.before_request
    def _link():
        if request.path == root and not request.query_string:
            return redirect("?" + query, code=302)
        return None


def _serve_in_thread(app, host: str, port: int):
    """Serve ``app`` from a daemon thread (outside Jupyter); return a function that stops it."""
    from werkzeug.serving import make_server

    from ..app.server.security import QuietRequestHandler

    class Handler(QuietRequestHandler):
        def log_request(self, *args, **kwargs):  # no line per request in a notebook's output
            pass

    try:
        server = make_server(host, port, app.server, threaded=True, request_handler=Handler)
    except (OSError, SystemExit) as exc:  # werkzeug exits when the port is taken
        raise OSError(f"cannot serve on {host}:{port} (in use, or not an address of this "
                      "machine); pass another port= to show().") from exc
    thread = threading.Thread(target=server.serve_forever, daemon=True,
                              name=f"roc-dash-{port}")
    thread.start()

    def stop():
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)

    return stop


def _in_jupyter() -> bool:
    from dash._jupyter import jupyter_dash

    return bool(jupyter_dash.active)


def _run_in_jupyter(app, mode, host, port, width, height):
    """Dash's own Jupyter display (``app.run(jupyter_mode=...)``); return its stopper."""
    from dash._jupyter import JupyterDash

    app.run(jupyter_mode=mode, jupyter_width=width, jupyter_height=height, host=host,
            port=port)

    def stop():
        server = JupyterDash._servers.pop((host, port), None)
        if server is not None:
            server.shutdown()
            server.server_close()  # the port is free again

    return stop


def _file_names(data) -> list[str]:
    if isinstance(data, pd.DataFrame):
        return ["data"]
    paths = [data] if isinstance(data, str | os.PathLike) else data
    return [os.path.basename(os.fspath(p)) for p in paths]


def _app(result, files: list[str], data_dir, conditions: dict):
    """The app over a store holding the table, its bare address leading to the table's link
    under ``conditions``; the app, the dataset's id and the link's query."""
    from ..app import create_app
    from ..app.server.store import DatasetStore

    store = DatasetStore(data_dir)
    info = store.put(result.table, files=files, notes=result.notes, digests=result.digests,
                     kind=result.kind)
    query = _query(info.id, conditions)
    app = create_app(store=store)
    _start_here(app, query)
    return app, info.id, query


def _start(app, mode, host, port, width, height):
    """Serve ``app`` on ``host:port`` (replacing what :func:`show` ran there) and show it:
    Dash's Jupyter display in a kernel, else a thread and the address printed. Its address
    and the function that stops it."""
    previous = _RUNNING.pop((host, port), None)
    if previous is not None:  # the cell run again: its dashboard gives way, as in Dash
        previous.stop()
    if _in_jupyter():
        stop = _run_in_jupyter(app, mode, host, port, width, height)
        return f"http://{host}:{port}{app.config.requests_pathname_prefix}", stop
    stop = _serve_in_thread(app, host, port)
    url = f"http://{host}:{port}{app.config.requests_pathname_prefix}"
    print(f"roc-dash is running on {url}")
    if mode == "tab":
        webbrowser.open(url)
    return url, stop


def show(data, *, mode: str = "inline", host: str = "127.0.0.1", port: int = 8050,
         width: str = "100%", height: int = 900, data_dir=None,
         frame_ancestors=LOCAL_FRAME_ANCESTORS, y_true: str | None = None,
         y_score=None, model: str | None = None, fold: str | None = None,
         sample_weight: str | None = None, pos_label=None, **conditions) -> Dashboard:
    """Run the dashboard on ``data``: inline in Jupyter, or on a local address.

    Parameters
    ----------
    data : DataFrame, path or list of paths
        Predictions in any form the page accepts (columns found by name as in an upload:
        ``label``, ``score``, ``model``, ``fold``, ``weight``, ``id``...; files: CSV, TSV,
        gzip, Parquet). They are read and checked by :mod:`roc_dash.io`.
    mode : {"inline", "external", "tab", "jupyterlab"}
        Dash's ``jupyter_mode``: the page in the output cell, a link to it, a new browser
        tab, or a JupyterLab tab. Outside Jupyter every mode serves from a background
        thread and prints the address (``"tab"`` also opens it in the browser).
    host, port : str, int
        Where to serve (a loopback address by default: only this machine can connect).
    width, height
        Size of the inline frame.
    data_dir : path, optional
        The dataset store's folder (default: a temporary folder, deleted by
        :meth:`Dashboard.stop`).
    frame_ancestors : tuple of str
        Origins whose pages may show the dashboard in a frame (``inline``, ``jupyterlab``);
        default: notebooks served from this machine. Add your JupyterHub's origin here.
    y_true, y_score, model, fold, sample_weight, pos_label : optional
        Column names (and the positive label) when the io cannot find them by name, as
        for :func:`roc_dash.predictions_table`.
    **conditions
        What the page starts with: ``cost_fp``, ``cost_fn`` (costs of errors), ``prior``
        (deployment p(+); default the data's prevalence), ``averaging`` ("pooled",
        "none", "vertical", "threshold"), ``level`` (0.8, 0.9, 0.95, 0.99), ``band``
        ("pointwise", "simultaneous"), ``models`` (names shown), ``tab`` ("decide",
        "compare", "beyond"), ``det`` (bool).

    Returns
    -------
    Dashboard
        Its ``url``, ``link`` and ``stop()``.

    Raises
    ------
    ValueError
        Unusable data (the io's message) or conditions.

    Examples
    --------
    >>> import roc_dash
    >>> dash = roc_dash.show("predictions.csv", cost_fn=5, prior=0.1)  # doctest: +SKIP
    >>> dash.stop()                                                     # doctest: +SKIP
    """
    from ..io import ReadOptions

    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}.")
    _query("", conditions)  # unusable conditions are refused before anything is read
    options = ReadOptions(label=y_true, score=y_score, model=model, fold=fold,
                          weight=sample_weight,
                          positive=None if pos_label is None else str(pos_label))
    from ..io import InputError
    from . import in_python_words

    try:
        result = _read(data, options)
    except InputError as exc:  # the io's advice in this function's words, not the CLI's
        raise InputError(in_python_words(str(exc)), file=exc.file, column=exc.column,
                         rows=exc.rows, count=exc.count) from None
    own_dir = None
    if data_dir is None:
        data_dir = own_dir = tempfile.mkdtemp(prefix="roc-dash-show-")
    try:
        app, dataset_id, query = _app(result, _file_names(data), data_dir, conditions)
        if mode in ("inline", "jupyterlab"):
            _allow_frames(app.server, tuple(frame_ancestors))
        url, stop = _start(app, mode, host, port, width, height)
    except BaseException:
        if own_dir is not None:
            shutil.rmtree(own_dir, ignore_errors=True)
        raise
    dashboard = Dashboard(url=url, link=f"{url}?{query}", dataset_id=dataset_id, app=app,
                          _stop=stop, _data_dir=own_dir)
    _RUNNING[(host, port)] = dashboard
    return dashboard
