"""What every request passes before it reaches a route, as three small ASGI middlewares:

- ``RequestCheck``: the Host header names this server (a loopback name, or the address it was bound to),
  else 400, so a web page elsewhere cannot reach the app through DNS rebinding; a URL holding a NUL byte is
  refused (400) before any route or file lookup reads it;
- ``BodyLimit``: a body larger than the limit is refused with 413 before it is parsed, whether it
  announces its length or arrives in chunks;
- ``CatchAll``: an exception no route handled is logged with its traceback and answered as one JSON line
  (500), never as a plain-text page.

The app has no authentication: ``is_loopback`` tells ``serve`` when to warn that it is reachable from
other machines.
"""

from __future__ import annotations

import ipaddress
import logging
import socket

from starlette.responses import JSONResponse

from .checks import one_line

log = logging.getLogger("tabletop_zoo.serve")

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARD_ADDRESSES = ("", "0.0.0.0", "::", "[::]")  # bound to every interface: any of this machine's names


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the app on this machine (``localhost``, ``127.0.0.0/8``, ``::1``)."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_names(host: str | None) -> frozenset[str]:
    """The Host header names (without port) the app answers: the loopback names, and the address it was
    bound to; bound to every interface (``0.0.0.0``, ``::``), this machine's host name and domain name."""
    names = set(LOOPBACK_NAMES)
    if host is not None:
        bound = host.strip().lower()
        if bound in WILDCARD_ADDRESSES:
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        else:
            names.add(f"[{bound.strip('[]')}]" if ":" in bound else bound)  # an IPv6 literal, as a Host writes it
    return frozenset(names)


def host_name(header: str) -> str:
    """The name part of a Host header: ``localhost:8000`` -> ``localhost``, ``[::1]:8000`` -> ``[::1]``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[: header.find("]") + 1]  # no closing bracket: "" (refused)
    return header.partition(":")[0]


async def answer(scope, receive, send, status: int, detail: str) -> None:
    await JSONResponse({"detail": one_line(detail)}, status_code=status)(scope, receive, send)


class RequestCheck:
    """400 unless the Host header is one of ``names``; 400 for a NUL byte in the URL's path or query."""

    def __init__(self, app, names: frozenset[str]):
        self.app, self.names = app, names

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            header = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if host_name(header) not in self.names:
                allowed = ", ".join(sorted(self.names))
                detail = f"Host {header!r} is not this server's: it answers only Host {allowed} (any port)"
                return await answer(scope, receive, send, 400, detail)
            query = scope.get("query_string", b"")
            if "\0" in scope["path"] or b"\0" in query or b"%00" in query:
                return await answer(scope, receive, send, 400, "the URL holds a NUL byte: no path or id has one")
        await self.app(scope, receive, send)


class BodyLimit:
    """413 for a request body over ``limit`` bytes, checked from Content-Length and again while reading (a
    chunked body has no length); the body, read whole within the limit, is handed on to the app."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    def _too_large(self) -> str:
        return f"the request body is larger than this server's limit of {self.limit} bytes"

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and not length.strip().isdigit():
            return await answer(scope, receive, send, 400, f"Content-Length must be a number of bytes, got {length!r}")
        if length is not None and int(length) > self.limit:
            return await answer(scope, receive, send, 413, self._too_large())
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left: nobody to answer
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                return await answer(scope, receive, send, 413, self._too_large())
            more = message.get("more_body", False)
        await self.app(scope, _replay(b"".join(chunks), receive), send)


def _replay(body: bytes, receive):
    """A ``receive`` that hands over ``body`` once, then listens to the client again (for a disconnect)."""
    sent = False

    async def replayed():
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed


class CatchAll:
    """An exception that reached here is a bug: log its traceback, answer one JSON line (500)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        started = False

        async def tracked(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as e:
            if scope["type"] != "http" or started:
                raise  # too late for an answer of ours: the server closes the connection and logs it
            log.error("unhandled error in %s %s", scope.get("method"), scope.get("path"), exc_info=e)
            detail = f"internal error ({type(e).__name__}); the server's log has the details"
            await answer(scope, receive, send, 500, detail)
