"""Paths under the app's file prefixes that name no file: a plain 404, never the page.

Dash serves the page at every path under the URL prefix that no other route takes (its
catch-all ``<prefix><path:path>``), so that the page's own links work wherever they point.
Under the two prefixes of files that does harm:

* ``<prefix>assets//x.css?m=1`` (an empty segment: not the assets route's) was answered
  with the page, and the fingerprint rule then marked it ``immutable`` for a year: nginx's
  cache (``deploy/nginx.conf``) kept a page as a style sheet. Any request under
  ``<prefix>assets/`` or ``<prefix>_dash-component-suites/`` that those routes do not take
  is now a 404 (and :func:`roc_dash.app.server.security.harden` marks only the assets
  route's answers immutable).
* An unknown component suite (``_dash-component-suites/nope/x.js``, or a file Dash has not
  registered) made Dash raise ``DependencyException``: a 500 with a 3 KB traceback in the
  log per request. It is a 404 with one log line.
"""

from __future__ import annotations

import logging

from flask import Flask, abort, request
from werkzeug.exceptions import NotFound

from .url_prefix import path_under

__all__ = ["install", "is_file_route", "static_prefixes"]

log = logging.getLogger(__name__)


def static_prefixes(server: Flask) -> tuple[str, str]:
    """The paths under which only files are served: assets and Dash's component suites."""
    return path_under(server, "assets/"), path_under(server, "_dash-component-suites/")


def is_file_route(server: Flask) -> bool:
    """The current request was taken by the route of a file prefix (not by the page's
    catch-all), and its path lies under that prefix."""
    rule = request.url_rule
    return rule is not None and any(request.path.startswith(p) and rule.rule.startswith(p)
                                    for p in static_prefixes(server))


def _unknown_suite(error: Exception):
    """Dash's ``DependencyException`` (an unknown package or file): 404, one log line."""
    first = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
    log.warning("404 for %r: %s: %s", request.path[:300], type(error).__name__, first)
    return NotFound()


def install(server: Flask) -> None:
    """Answer 404 for paths under the file prefixes that no file route takes, and for
    component suites Dash does not know (see the module docstring)."""
    prefixes = static_prefixes(server)

    @server.before_request
    def _only_files_under_file_prefixes():
        if request.path.startswith(prefixes) and not is_file_route(server):
            abort(404)

    try:
        from dash.exceptions import DependencyException
    except ImportError:  # pragma: no cover - dash is a dependency
        return
    server.register_error_handler(DependencyException, _unknown_suite)
