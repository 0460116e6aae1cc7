"""Serving roc-dash under a sub-path, e.g. behind a reverse proxy at ``/roc/``.

``ROC_DASH_URL_PREFIX`` (or ``roc-dash serve --url-prefix``, or ``create_app(url_prefix=)``)
puts every route of the app under one path: the page, Dash's callbacks, component suites and
assets (Dash's ``url_base_pathname``), the streamed upload route, ``health`` and ``ready``.
The proxy passes the path on unchanged (``location /roc/ { proxy_pass http://app; }``, see
``deploy/nginx-subpath.conf``); nothing answers outside the prefix. The default, ``/``, is
the root of the host.

The page builds its links from ``window.location`` (share link, saved views, the HTML
report's links), so they carry the prefix the browser sees; the page's scripts send uploads
to Dash's ``requests_pathname_prefix`` + ``upload``.

Redirects the app makes itself (Werkzeug's ``/roc//x/`` -> ``/roc/x/``) name no host
(:func:`relative_redirects`): the browser resolves them against the address it used,
port included. nginx passes ``Host: $host``, without the port, so an absolute redirect
built from it sent the browser to the right host on the wrong port.
"""

from __future__ import annotations

import os
import re

__all__ = ["ENV", "CONFIG_KEY", "check_url_prefix", "page_link", "path_under",
           "relative_redirects", "server_prefix", "url_prefix"]

#: The environment variable that sets the prefix.
ENV = "ROC_DASH_URL_PREFIX"
#: Where :func:`create_app <roc_dash.app.create_app>` keeps the prefix in the Flask config.
CONFIG_KEY = "ROC_DASH_URL_PREFIX"
# one path segment: URL-safe characters only (RFC 3986 unreserved), so that the prefix can
# be written into nginx's location, Dash's config and the page's URLs without escaping
_SEGMENT = re.compile(r"^[A-Za-z0-9._~-]+$")


def check_url_prefix(value: str, *, source: str = ENV) -> str:
    """``value`` if it is a usable URL prefix, else a ValueError saying what to write.

    A prefix starts and ends with ``/`` and its segments are made of letters, digits and
    ``- _ . ~``; ``.`` and ``..`` segments and empty ones (``//``) are refused.
    ``source`` names the setting in the message (the variable, or a command-line option).
    """
    if not isinstance(value, str):
        raise ValueError(f"{source} must be a path such as /roc/, not {type(value).__name__}.")
    example = "e.g. /roc/ or /tools/roc/ (or / for the root of the host)"
    if value == "/":
        return value
    if not (value.startswith("/") and value.endswith("/")):
        raise ValueError(f"{source} must start and end with '/', {example}; got {value!r}.")
    segments = value[1:-1].split("/")
    if any(s in (".", "..") for s in segments):
        raise ValueError(f"{source} may not contain '.' or '..' segments, {example}; "
                         f"got {value!r}.")
    bad = [s for s in segments if not _SEGMENT.match(s)]
    if bad:
        what = "an empty segment ('//')" if "" in bad else f"the segment {bad[0]!r}"
        raise ValueError(f"{source} has {what}: use letters, digits and - _ . ~ between "
                         f"single slashes, {example}; got {value!r}.")
    return value


def url_prefix(value: str | None = None) -> str:
    """The prefix to serve under: ``value`` if given, else ``$ROC_DASH_URL_PREFIX``, else
    ``/``; checked by :func:`check_url_prefix`."""
    if value is not None:
        return check_url_prefix(value, source="url_prefix")
    return check_url_prefix(os.environ.get(ENV, "").strip() or "/")


def server_prefix(server) -> str:
    """The prefix a Flask server (a Dash app's ``app.server``) serves under."""
    return server.config.get(CONFIG_KEY, "/")


def path_under(server, path: str) -> str:
    """``path`` (``/upload``, ``health``) under the server's prefix: ``/roc/upload``."""
    return server_prefix(server) + path.lstrip("/")


def relative_redirects(server) -> None:
    """Make the ``Location`` of every redirect to this host a path (``/roc/x/``), not an
    absolute address built from the ``Host`` header (which a proxy may pass without the
    port the browser used). Redirects elsewhere are left as they are."""
    from urllib.parse import urlsplit, urlunsplit

    from flask import request

    @server.after_request
    def _relative_location(response):
        location = response.headers.get("Location")
        if not location or not 300 <= response.status_code < 400:
            return response
        parts = urlsplit(location)
        if parts.scheme in ("http", "https") and parts.netloc == request.host:
            response.headers["Location"] = urlunsplit(
                ("", "", parts.path or "/", parts.query, parts.fragment))
        return response


#: The longest page address taken from the browser (a link with many pins stays far below).
MAX_LINK = 8192


def page_link(href, prefix: str = "/") -> str | None:
    """``href`` (the page's address as the browser reports it, ``window.location.href``)
    when it has the shape of this app's page: ``http`` or ``https``, a host without user
    name or password, a path under ``prefix``, printable ASCII only (a browser reports its
    address percent-encoded); else None. The HTML report writes it as a link: a forged
    ``javascript:`` address must not become one."""
    from urllib.parse import urlsplit

    if not isinstance(href, str) or not 0 < len(href) <= MAX_LINK:
        return None
    if any(not 0x21 <= ord(c) <= 0x7E for c in href):
        return None
    try:
        parts = urlsplit(href)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    if "@" in parts.netloc or not (parts.path or "/").startswith(prefix):
        return None
    return href
