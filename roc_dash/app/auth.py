"""Optional sign-in for teams: trust the user name a reverse proxy puts in a header.

Set ``ROC_DASH_USER_HEADER`` (e.g. ``X-Forwarded-User``, as set by oauth2-proxy, an nginx
``auth_request`` or Apache ``mod_auth_*``) and run roc-dash behind that proxy only. Then:

* a request without the header gets 401 (``/health`` stays open for the container's check);
* each upload records its uploader as the dataset's owner;
* only the owner's removal deletes a dataset's files; others who opened it through a shared
  link (the explicit way to share: the link carries the dataset's unguessable id) only take it
  off their own page.

Without the variable nothing changes: whoever reaches the server may use it, as on a laptop.
"""

from __future__ import annotations

import os

from flask import jsonify, request

__all__ = ["user_header", "current_user", "require_user"]

_OPEN = ("/health",)


def user_header() -> str | None:
    name = os.environ.get("ROC_DASH_USER_HEADER", "").strip()
    return name or None


def current_user() -> str | None:
    """The signed-in user of the current request (None without sign-in or outside one)."""
    name = user_header()
    if name is None:
        return None
    try:
        user = request.headers.get(name, "").strip()
    except RuntimeError:  # no request context
        return None
    return user[:200] or None


def require_user(server) -> None:
    """Refuse requests without the proxy's user header, when sign-in is configured."""

    @server.before_request
    def _signed_in():
        if user_header() is None or request.path in _OPEN:
            return None
        if current_user() is None:
            response = jsonify({"ok": False, "error": "Sign in first: this roc-dash is served "
                                "behind a sign-in proxy, and the request did not come through "
                                "it."})
            response.status_code = 401
            return response
        return None
