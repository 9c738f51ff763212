"""The server's door: which hosts it answers to, and which requests may change a game.

:class:`Guard` is an ASGI middleware in front of the whole application. It refuses,
with the JSON ``{"error": ...}`` that every other refusal uses:

* a ``Host`` header that names none of the allowed hosts (400): a page of another site
  whose name was made to point at this computer (DNS rebinding) cannot use the server;
* a state-changing request (any method but GET, HEAD and OPTIONS) that a browser sent
  from another site (403): its ``Origin`` is not this server's, or its
  ``Sec-Fetch-Site`` is not ``same-origin``;
* a state-changing request whose body is not declared ``application/json`` (415). A web
  page of another site can send a form or ``text/plain`` body without asking first, but
  never a JSON one; command-line clients that send JSON and no ``Origin`` keep working.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass
from typing import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kibitz.printable import printable

LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
"""The names of this computer that every server answers to."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
JSON_TYPE = "application/json"


def host_name(header: str) -> str | None:
    """The host of a ``Host`` header without its port (``[::1]:8765`` -> ``::1``), lower case;
    ``None`` when the header is malformed."""
    header = header.strip().lower()
    if header.startswith("["):
        name, bracket, rest = header[1:].partition("]")
        if not bracket or (rest and not _is_port(rest)):
            return None
        return name if _is_ip(name) else None
    name, colon, port = header.partition(":")
    if colon and not port.isdigit():
        return None
    if not name or any(c in name for c in "/@\\ ?#[]") or ":" in port:
        return None
    return name


def _is_port(text: str) -> bool:
    return text.startswith(":") and text[1:].isascii() and text[1:].isdigit() and len(text) <= 6


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class HostPolicy:
    """The hosts a server answers to: the names listed, and any IP address when ``any_address``."""

    names: frozenset[str]
    any_address: bool = False

    @classmethod
    def of(cls, names: Iterable[str], any_address: bool = False) -> HostPolicy:
        return cls(frozenset(name.strip("[]").lower() for name in names), any_address)

    def allows(self, name: str) -> bool:
        return name in self.names or (self.any_address and _is_ip(name))

    def describe(self) -> str:
        listed = ", ".join(sorted(self.names))
        return listed + (" or an IP address" if self.any_address else "")


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers, by lower-case name (the last of repeated ones)."""
    return {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}


def cross_site_reason(headers: dict[str, str]) -> str | None:
    """Why a state-changing request looks sent by another site's page, or ``None``."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site.strip().lower() != "same-origin":
        return f"the browser says this request comes from {printable(fetch_site.strip())[:40]!r}, not this page"
    origin = headers.get("origin")
    if origin is not None:
        origin = origin.strip().lower()
        scheme, separator, netloc = origin.partition("://")
        if not separator or scheme not in ("http", "https") or netloc != headers.get("host", "").strip().lower():
            return f"the request comes from another site ({printable(origin)[:80]})"
    return None


def body_type_reason(headers: dict[str, str]) -> str | None:
    """Why a state-changing request's body is refused (not declared JSON), or ``None``."""
    declared = headers.get("content-type")
    if declared is None:
        length = headers.get("content-length", "0").strip()
        if headers.get("transfer-encoding") is None and length in ("", "0"):
            return None   # no body at all: nothing a form could have sent
        return f"a request body must be JSON, sent as Content-Type: {JSON_TYPE}"
    media_type = declared.split(";")[0].strip().lower()
    if media_type != JSON_TYPE:
        return (f"a request body must be JSON, sent as Content-Type: {JSON_TYPE} "
                f"(not {printable(media_type)[:60]!r})")
    return None


class Guard:
    """ASGI middleware: refuse foreign hosts, cross-site changes and bodies that are not JSON."""

    def __init__(self, app: ASGIApp, hosts: HostPolicy) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        name = host_name(headers.get("host", ""))
        if name is None or not self.hosts.allows(name):
            shown = printable(headers.get("host", ""))[:80]
            await refuse(send, 400, f"this server answers only to {self.hosts.describe()}, "
                                    f"not to the host {shown!r}")
            return
        if scope["method"] not in SAFE_METHODS:
            reason = cross_site_reason(headers)
            if reason is not None:
                await refuse(send, 403, f"refused: {reason}; kibitz takes moves only from its own page")
                return
            reason = body_type_reason(headers)
            if reason is not None:
                await refuse(send, 415, reason)
                return
        await self.app(scope, receive, send)


async def refuse(send: Send, status: int, message: str) -> None:
    """Answer ``{"error": message}`` with ``status``, and close the connection."""
    body = json.dumps({"error": message}).encode("utf-8")
    start: Message = {"type": "http.response.start", "status": status,
                      "headers": [(b"content-type", b"application/json"),
                                  (b"content-length", str(len(body)).encode()),
                                  (b"connection", b"close")]}
    await send(start)
    await send({"type": "http.response.body", "body": body})
