"""Answers compressed for a phone that accepts gzip (every browser does): the page's scripts
and a long game's lines cross a table's Wi-Fi in a third to a tenth of their size.

A small after-request hook on the standard library's gzip (docs/decisions.md says why not
Flask-Compress). Live streams are never held back: only whole answers of text types are
compressed; a static file's compressed bytes are kept per version (its ETag)."""

from __future__ import annotations

import gzip
from functools import lru_cache

from flask import Flask, Response, request

MIN_BYTES = 1024
"""Smaller answers go as they are: gzip's framing would outweigh the saving."""
TYPES = frozenset({"text/html", "text/css", "text/javascript", "application/javascript",
                   "application/json", "image/svg+xml", "application/manifest+json",
                   "application/x-ndjson", "text/plain"})
"""What is worth compressing (images and films are compressed already; an event stream is
live and never buffered)."""


@lru_cache(maxsize=64)
def _static(path: str, etag: str, body: bytes) -> bytes:
    """A static file's gzip, made once per version of the file."""
    return gzip.compress(body, compresslevel=9, mtime=0)


def compress(response: Response) -> Response:
    """``response`` gzipped when the phone accepts it and it is a whole text answer."""
    if (response.status_code != 200 or response.mimetype not in TYPES
            or "Content-Encoding" in response.headers
            or not request.accept_encodings["gzip"]):
        return response
    response.vary.add("Accept-Encoding")
    static = response.direct_passthrough  # send_file: a file of known length
    if response.is_streamed and not static:
        return response
    response.direct_passthrough = False
    source = response.response
    body = response.get_data()
    if static:
        getattr(source, "close", lambda: None)()  # the file read whole
    if len(body) < MIN_BYTES:
        return response
    etag = response.get_etag()[0]
    packed = (_static(request.path, etag, body) if static and etag
              else gzip.compress(body, compresslevel=6, mtime=0))
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    return response


def install(app: Flask) -> None:
    app.after_request(compress)
