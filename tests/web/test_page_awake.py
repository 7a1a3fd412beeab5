"""The page keeps a phone's screen on with a looping film over plain http; where the film
cannot play (a missing file, a phone that refuses it), the page must not claim the screen is
kept on: ``Awake.on()`` answers and ``Awake.state()`` says nothing keeps it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from page_driver import ARGS, CHROMIUM, running_server


def test_a_film_that_cannot_load_is_not_reported_as_keeping_the_screen_on(
        tmp_path: Path, pw: Any) -> None:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
        *ARGS, "--host-resolver-rules=MAP companion.local 127.0.0.1"])
    try:
        with running_server(tmp_path) as (base, _service):
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.route("**/static/vendor/*", lambda route: route.fulfill(status=404, body="-"))
            page.goto(base.replace("127.0.0.1", "companion.local") + "/")  # plain http
            page.wait_for_function("() => window.Awake !== undefined")
            assert page.evaluate("isSecureContext") is False
            page.evaluate("() => { Awake.on().then((s) => { window.__awake = s; }); }")
            page.wait_for_function("() => window.__awake !== undefined")
            assert page.evaluate("[window.__awake, Awake.state()]") == [None, None]
    finally:
        browser.close()
