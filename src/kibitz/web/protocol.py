"""The server's HTTP/1.1 connections: uvicorn's, with two refusals made like every other.

* A request that is not valid HTTP gets the JSON ``{"error": ...}`` (400) that every
  other refusal uses, not uvicorn's plain text.
* A connection must send the whole head of each request (request line and headers)
  within :data:`HEAD_SECONDS`; one that stalls, or opens and sends nothing, gets a
  408 and is closed, so idle or stalled clients cannot pile up. (A stalled request
  *body* is timed out by the application, :data:`kibitz.web.inputs.BODY_SECONDS`.)
"""

from __future__ import annotations

import asyncio
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 10.0
"""Longest a client may take to send the head of a request."""


def json_response(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer ``{"error": message}`` that closes the connection."""
    body = json.dumps({"error": message}).encode("utf-8")
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode("ascii") + body


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with JSON refusals and a time limit on each request's head."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_head()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:
            self._cancel_head_timer()   # the head has arrived (or the connection is done)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        self._cancel_head_timer()
        self.transport.write(json_response(400, "Bad Request", "this is not a valid HTTP request"))
        self.transport.close()

    def _await_head(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_too_late)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        self.transport.write(json_response(
            408, "Request Timeout", f"the request did not arrive within {HEAD_SECONDS:.0f} seconds"))
        self.transport.close()
