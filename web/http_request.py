"""HTTP/1.1 on the front's loop: a request's head and body read into a WSGI environ (with
size and time limits), and an answer's head written."""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Awaitable
from typing import Any, TypeVar
from urllib.parse import unquote_to_bytes

MAX_HEAD = 16 * 1024
MAX_HEADERS = 64
REASONS = {200: "OK", 400: "Bad Request", 408: "Request Timeout", 411: "Length Required",
           413: "Payload Too Large", 431: "Request Header Fields Too Large",
           500: "Internal Server Error", 501: "Not Implemented",
           503: "Service Unavailable"}

T = TypeVar("T")


async def within(aw: Awaitable[T], seconds: float | None) -> T:
    """``await aw``, or TimeoutError after ``seconds``: ``asyncio.wait_for`` without its extra
    task, so what is already buffered (a request's body, room to write) is taken in the same
    turn of the loop instead of one or two turns later."""
    async with asyncio.timeout(seconds):
        return await aw


class BadRequest(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status, self.text = status, text


async def read_request(head: bytes, reader: asyncio.StreamReader,
                       writer: asyncio.StreamWriter, addr: str, peer: Any, *, host: str,
                       port: int, max_body: int,
                       body_timeout: float) -> tuple[dict[str, Any], bool]:
    """The WSGI environ of the request whose head is ``head`` (its body read from
    ``reader``), and whether the connection is kept alive after it; BadRequest when it is
    malformed, too large or too slow."""
    lines = head[:-4].split(b"\r\n")
    while lines and not lines[0]:
        lines.pop(0)  # tolerate blank lines before a request (RFC 9112 2.2)
    parts = lines[0].decode("latin-1").split(" ") if lines else []
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise BadRequest(400, "Malformed request line.")
    method, target, version = parts
    if len(lines) - 1 > MAX_HEADERS:
        raise BadRequest(431, "Too many header fields.")
    environ: dict[str, Any] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(b":")
        if not sep or not name or name != name.strip():
            raise BadRequest(400, "Malformed header field.")
        key = name.decode("latin-1").upper().replace("-", "_")
        val = value.decode("latin-1").strip()
        if key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            environ[key] = val
        else:
            k = "HTTP_" + key
            environ[k] = f"{environ[k]},{val}" if k in environ else val
    conn = environ.get("HTTP_CONNECTION", "").lower()
    keep = "close" not in conn if version == "HTTP/1.1" else "keep-alive" in conn
    body = await read_body(environ, reader, writer, max_body, body_timeout)
    environ.pop("HTTP_TRANSFER_ENCODING", None)  # the body is whole now
    if target.startswith(("http://", "https://")):
        target = "/" + target.split("/", 3)[3] if target.count("/") >= 3 else "/"
    path, _, query = target.partition("?")
    environ.update({
        "REQUEST_METHOD": method, "SCRIPT_NAME": "", "QUERY_STRING": query,
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "SERVER_NAME": host, "SERVER_PORT": str(port),
        "SERVER_PROTOCOL": version, "REMOTE_ADDR": addr,
        "REMOTE_PORT": str(peer[1]) if peer else "0",
        "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    })
    if body or "CONTENT_LENGTH" in environ:
        environ["CONTENT_LENGTH"] = str(len(body))
    return environ, keep

async def read_body(environ: dict[str, Any], reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter, max_body: int, body_timeout: float) -> bytes:
    """The request's body, whole (``Content-Length`` or chunked)."""
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    raw_length = environ.get("CONTENT_LENGTH", "")
    if not chunked and not raw_length:
        return b""
    if not chunked and (not raw_length.isdigit() or len(raw_length) > 12):
        raise BadRequest(400, "Bad Content-Length.")
    if not chunked and int(raw_length) > max_body:
        raise BadRequest(413, "The request is too large.")
    if environ.get("HTTP_EXPECT", "").lower() == "100-continue":
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    try:
        if not chunked:
            return await within(reader.readexactly(int(raw_length)),
                                          body_timeout)
        return await within(read_chunks(reader, max_body), body_timeout)
    except TimeoutError:
        raise BadRequest(408, "The request body came too slowly.") from None

async def read_chunks(reader: asyncio.StreamReader, max_body: int) -> bytes:
    out = bytearray()
    while True:
        size_line = (await reader.readuntil(b"\r\n")).split(b";")[0].strip()
        try:
            size = int(size_line, 16)
        except ValueError:
            raise BadRequest(400, "Bad chunk size.") from None
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":
                pass  # trailers, ignored
            return bytes(out)
        if len(out) + size > max_body:
            raise BadRequest(413, "The request is too large.")
        out += (await reader.readexactly(size + 2))[:-2]


def head_bytes(status: int | str, headers: list[tuple[str, str]], length: int | None,
          keep: bool) -> bytes:
    line = status if isinstance(status, str) else f"{status} {REASONS.get(status, '')}"
    out = [f"HTTP/1.1 {line}"]
    out += [f"{k}: {v}" for k, v in headers
            if k.lower() not in ("content-length", "connection", "transfer-encoding")]
    out.append(f"Content-Length: {length}" if length is not None
               else "Transfer-Encoding: chunked")
    out.append("Connection: " + ("keep-alive" if keep else "close"))
    return ("\r\n".join(out) + "\r\n\r\n").encode("latin-1")
