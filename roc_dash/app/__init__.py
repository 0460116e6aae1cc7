"""The Dash application, by feature.

``create_app`` builds the page from the features' fragments (:mod:`.page`), calls each
feature's ``register`` (:mod:`.features`) and installs the server concerns
(:mod:`.server`: dataset store, upload route, limits, security headers, sign-in).
"""

from __future__ import annotations

from importlib import resources

from dash import Dash

from .analysis import AnalysisCache
from .features import FEATURES
from .page import build_layout
from .server.auth import require_user
from .server.limits import max_upload_bytes
from .server.probes import register_probes
from .server.security import harden
from .server.store import DatasetStore
from .server.upload_route import register_upload_route
from .server.url_prefix import CONFIG_KEY
from .server.url_prefix import url_prefix as _url_prefix

__all__ = ["create_app"]


def create_app(*, data_dir=None, store: DatasetStore | None = None,
               url_prefix: str | None = None) -> Dash:
    """Build the roc-dash Dash app.

    Parameters
    ----------
    data_dir : path, optional
        Where uploaded datasets are kept (default ``$ROC_DASH_DATA_DIR`` or the per-user
        cache folder). Every worker process serving the app must see the same folder.
    store : DatasetStore, optional
        A ready store (tests); overrides ``data_dir``.
    url_prefix : str, optional
        Serve every route under this path, e.g. ``"/roc/"`` behind a proxy at a sub-path
        (default ``$ROC_DASH_URL_PREFIX`` or ``/``; see :mod:`.server.url_prefix`).
        ValueError when it is not a path such as ``/roc/``.
    """
    prefix = _url_prefix(url_prefix)
    store = store or DatasetStore(data_dir)
    app = Dash(
        __name__,
        title="roc-dash",
        assets_folder=str(resources.files("roc_dash") / "assets"),
        serve_locally=True,
        update_title=None,
        **({"url_base_pathname": prefix} if prefix != "/" else {}),
    )
    app.server.config[CONFIG_KEY] = prefix  # the server's own routes go under it too
    # files stream to POST /upload (capped while streaming); other requests stay small
    app.server.config["MAX_CONTENT_LENGTH"] = max_upload_bytes() + 65536
    app.layout = build_layout()
    # the page's language, for screen readers and hyphenation (WCAG 3.1.1)
    app.index_string = app.index_string.replace("<html>", '<html lang="en">', 1)
    cache = AnalysisCache(store)
    app.analysis_cache = cache
    for feature in FEATURES:
        feature.register(app, cache, store)
    register_upload_route(app.server, store)
    register_probes(app.server, store, cache.cache)  # health, ready
    harden(app.server)  # security headers, gzip, 400 for malformed callback requests
    require_user(app.server)  # only with ROC_DASH_USER_HEADER: sign-in by a reverse proxy
    app.store = store
    try:  # orphans of a killed worker, datasets expired while the server was down
        store.sweep()
    except OSError:  # e.g. a read-only data folder: /health says so
        pass

    @app.server.before_request
    def _sweep_clock():
        """Expiry and orphans on the clock of requests (also /health's), in the background,
        in one worker at a time (see :meth:`DatasetStore.maybe_sweep`)."""
        store.maybe_sweep()

    return app
