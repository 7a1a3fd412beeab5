"""Helpers shared by the web tests (a unique module name: no clash with other conftests)."""

from __future__ import annotations

import threading
from typing import Any

from flask.testing import FlaskClient

PIN = "20461379"


class FakeHardware:
    """Simulated table hardware: a fixed frame and a list of taps."""

    def __init__(self) -> None:
        self.taps: list[tuple[str, str]] = []

    def frame_png(self) -> bytes:
        import io

        from PIL import Image, ImageDraw

        img = Image.new("1", (128, 64))
        ImageDraw.Draw(img).text((4, 24), "OLED mirror", fill=1)
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        return buf.getvalue()

    def virtual_tap(self, role: str, uid: str) -> None:
        self.taps.append((role, uid))


class Phone:
    """A test client that carries its CSRF token like the page does."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.csrf = client.get("/api/session").get_json()["csrf"]

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, **kw)

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None,
             **kw: Any) -> Any:
        h = {"X-CSRF-Token": self.csrf, **(headers or {})}
        if "data" not in kw:
            kw["json"] = {} if json is None else json
        return self.client.post(path, headers=h, **kw)

    def login(self) -> Phone:
        assert self.post("/api/banker/login", {"pin": PIN}).status_code == 200
        return self

    def command(self, game: str, action: dict[str, Any], version: int | None = None,
                **args: Any) -> Any:
        body = {"actor": action["actor"], "type": action["type"],
                "args": {**action.get("args", {}), **args}}
        if version is not None:
            body["version"] = version
        return self.post(f"/api/games/{game}/commands", body)


def action(view: dict[str, Any], actor: str, kind: str) -> dict[str, Any]:
    return next(a for a in view["actions"] if a["actor"] == actor and a["type"] == kind)


class SlowScreen:
    """The table's hardware with an OLED that takes as long as the test says to draw."""

    def __init__(self) -> None:
        self.drawing = threading.Event()
        self.release = threading.Event()
        self.release.set()  # draws at once until a test holds it
        self.busy = False

    def show(self, view: dict[str, Any]) -> None:
        self.busy = True
        self.drawing.set()
        self.release.wait(30)
        self.busy = False

    def show_join(self, url: str, code: str) -> None:
        self.show({})

    def show_error(self, text: str) -> None:
        pass

    def signal(self, kind: str) -> None:
        pass


def open_banker_form(page: Any) -> None:
    """Tap "Banker" on a phone's first page until its PIN field shows: a loaded machine may
    still be drawing the page, and a person taps again when nothing opened."""
    pin = page.locator("#pin")
    for _ in range(3):
        page.locator("summary", has_text="Banker").click()
        try:
            pin.wait_for(state="visible", timeout=5000)
            return
        except Exception:  # noqa: BLE001, S112 - Playwright's TimeoutError: tap again
            continue

