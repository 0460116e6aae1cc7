"""Who is asking: the signed-in user (from a trusted proxy's header), or the browser's own key.

**Sign-in for teams.** Set ``ROC_DASH_USER_HEADER`` (e.g. ``X-Forwarded-User``, as set by
oauth2-proxy, an nginx ``auth_request`` or Apache ``mod_auth_*``) and run roc-dash behind that
proxy. The header is believed only on requests whose peer address is one of
``ROC_DASH_TRUSTED_PROXIES`` (addresses or networks, comma-separated; default the loopback
addresses ``127.0.0.1, ::1``): from anyone else it is ignored, so a client that reaches the
app directly cannot claim a name. Then:

* a request without a (believed) user gets 401 (``/health`` and ``/ready`` stay open,
  saying only ok / not ok), except a worker's own warm-up requests made inside the process
  (:data:`WARM_UP`: a WSGI environ key no HTTP request can set, gunicorn's ``post_worker_init``
  and :func:`~.security.precompress_static`), so that the scripts are compressed before the
  first visitors with sign-in on too;
* each upload records its uploader as the dataset's owner.

**Without sign-in** the page makes a random key once per browser (kept in its
``localStorage``) and sends it with every request (``X-Roc-Dash-Owner``); an upload is owned
by that key (the server keeps only its hash).

Either way, an owner is the only one who can delete a dataset (others who opened it through a
shared link, the explicit way to share, only take it off their own page) and write the note
and saved views kept with it (others read them); see :mod:`.store`.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import re
from functools import lru_cache

from flask import jsonify, request

from .url_prefix import path_under

__all__ = ["OWNER_HEADER", "WARM_UP", "current_owner", "current_user", "owner_of_key",
           "require_user", "trusted_proxies", "user_header"]

_OPEN = ("health", "ready")  # under the URL prefix: an orchestrator does not sign in
#: The header in which the page sends its browser's key.
OWNER_HEADER = "X-Roc-Dash-Owner"
_KEY = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
#: The WSGI environ key that marks a worker's warm-up request, made in the process itself
#: (``werkzeug.test.Client(app, ...).get(path, environ_overrides={WARM_UP: True})``). A
#: server puts a request's headers in the environ as ``HTTP_*`` keys: no client can set it.
WARM_UP = "roc_dash.warm_up"


def user_header() -> str | None:
    name = os.environ.get("ROC_DASH_USER_HEADER", "").strip()
    return name or None


@lru_cache(maxsize=8)
def _networks(spec: str) -> tuple:
    out = []
    for part in re.split(r"[,\s]+", spec.strip()):
        if not part:
            continue
        try:
            out.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            continue  # a typo trusts nobody more
    return tuple(out)


def trusted_proxies() -> tuple:
    """``ROC_DASH_TRUSTED_PROXIES`` as networks (default: loopback only)."""
    return _networks(os.environ.get("ROC_DASH_TRUSTED_PROXIES", "127.0.0.1, ::1"))


def from_trusted_proxy() -> bool:
    """The current request's peer is one of :func:`trusted_proxies`."""
    try:
        address = ipaddress.ip_address((request.remote_addr or "").split("%")[0])
    except (ValueError, RuntimeError):
        return False
    if getattr(address, "ipv4_mapped", None) is not None:
        address = address.ipv4_mapped
    return any(address in network for network in trusted_proxies())


def current_user() -> str | None:
    """The signed-in user of the current request: the proxy's header, believed only from a
    trusted proxy (None without sign-in, from anyone else, or outside a request)."""
    name = user_header()
    if name is None:
        return None
    try:
        user = request.headers.get(name, "").strip()
    except RuntimeError:  # no request context
        return None
    if not user or not from_trusted_proxy():
        return None
    return user[:200]


def owner_of_key(key: str) -> str:
    """How an owner key is stored: ``key:`` and a hash of it (never the key itself)."""
    return "key:" + hashlib.sha256(key.encode("ascii")).hexdigest()[:32]


def current_owner() -> str | None:
    """Whose request this is: the signed-in user with sign-in, else the browser's key
    (hashed); None when neither is known (such a request owns nothing)."""
    if user_header() is not None:
        return current_user()
    try:
        key = request.headers.get(OWNER_HEADER, "").strip()
    except RuntimeError:
        return None
    return owner_of_key(key) if _KEY.match(key) else None


def require_user(server) -> None:
    """Refuse requests without a believed user, when sign-in is configured."""
    open_paths = tuple(path_under(server, path) for path in _OPEN)

    @server.before_request
    def _signed_in():
        if user_header() is None or request.path in open_paths:
            return None
        if request.environ.get(WARM_UP) is True:  # the worker's own, in-process request
            return None
        if current_user() is None:
            response = jsonify({"ok": False, "error": "Sign in first: this roc-dash is served "
                                "behind a sign-in proxy, and the request did not come through "
                                "it."})
            response.status_code = 401
            return response
        return None
