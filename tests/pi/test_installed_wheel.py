"""The companion as a Pi has it: the wheel built from this tree, installed with a plain
``pip install`` into a fresh virtual environment, run from another folder. Every page, every
file those pages and their scripts load, and every catalogue answers 200 with a body, and a
phone's screen is really kept on (the keep-awake film is in the wheel). A file missing from
the wheel is invisible to every test that runs from the source tree."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine.i18n import LANGUAGES, PSEUDO

pytestmark = pytest.mark.long(2)

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("/", "/history", "/profile", "/manifest.webmanifest")
LINKED = re.compile(r"""(?:src|href)=["'](/[^"'#?]+)""")
STRONG_PIN = "73915286"
CHROMIUM = "/usr/bin/chromium"  # Debian's (tests/web/page_driver.py)
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--host-resolver-rules=MAP companion.local 127.0.0.1"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return int(r.status), bytes(r.read())
    except urllib.error.HTTPError as e:
        return int(e.code), e.read()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from this tree as pip builds it."""
    dist = tmp_path_factory.mktemp("dist")
    tree = dist / "tree"  # a copy: setuptools builds in the folder it is given
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", "tests"))
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "wheel",
                    "--no-deps", "-w", str(dist), str(tree)], check=True, cwd=dist)
    return next(dist.glob("board_companion-*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The wheel installed in a new venv and ``companion run --simulate`` started from a folder
    outside the tree; yields the page's address."""
    tmp = tmp_path_factory.mktemp("installed")
    subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
    venv = tmp / "venv" / "bin"
    subprocess.run([str(venv / "pip"), "--disable-pip-version-check", "-q", "install",
                    str(wheel)], check=True, cwd=tmp)
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    log = (tmp / "companion.log").open("wb")
    proc = subprocess.Popen(
        [str(venv / "companion"), "run", "--simulate", "--no-mdns", "--host", "127.0.0.1",
         "--port", str(port), "--pin", STRONG_PIN, "--state-dir", str(tmp / "state")],
        cwd=elsewhere, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:  # until it answers (or has stopped: then its log says why)
            printed = (tmp / "companion.log").read_text("utf-8", "replace")
            assert proc.poll() is None, printed
            if "Board Companion (" not in printed:  # not bound yet: an answer is not its
                time.sleep(0.2)
                continue
            try:
                if _get(base + "/api/session")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        assert str(ROOT) not in subprocess.run(
            [str(venv / "python"), "-c", "import web; print(web.__file__)"], cwd=elsewhere,
            env=env, capture_output=True, text=True, check=True).stdout, "runs the installed copy"
        yield base
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()


def test_every_data_file_of_the_tree_is_in_the_wheel(wheel: Path) -> None:
    tracked = subprocess.run(["git", "ls-files", "companion", "web", "hardware", "seeds"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    data = {f for f in tracked if not f.endswith((".py", "README.md"))}
    if not data:
        pytest.skip("not a git checkout")
    with zipfile.ZipFile(wheel) as z:
        missing = data - set(z.namelist())
    assert not missing, f"left out of the wheel: {sorted(missing)}"


def test_every_page_asset_and_catalogue_answers_from_the_installed_wheel(installed: str) -> None:
    wanted = set(PAGES)
    wanted |= {f"/api/i18n/{lang}.json" for lang in (*LANGUAGES, PSEUDO)}
    static = ROOT / "web" / "static"  # every file the scripts may load
    wanted |= {f"/static/{p.relative_to(static)}" for p in static.rglob("*") if p.is_file()}
    for page in PAGES[:-1]:
        status, body = _get(installed + page)
        wanted |= set(LINKED.findall(body.decode("utf-8", "replace")))
    answers = {url: _get(installed + url) for url in sorted(wanted)}
    missing = {url: status for url, (status, body) in answers.items()
               if status != 200 or not body}
    assert not missing, f"the installed wheel does not serve: {missing}"


def test_an_editions_own_words_answer_from_the_installed_wheel(installed: str) -> None:
    """An edition's words are in its own catalogue (companion/editions/<x>/locales): the
    installed companion serves them in the page's catalogue before any game was started."""
    status, body = _get(installed + "/api/i18n/it.json")
    assert status == 200
    said = json.loads(body)["messages"].get("{player}: accept the challenge.")
    assert said == "{player}: accetta la sfida."


def test_the_phone_screen_is_kept_on_by_the_installed_companion(installed: str) -> None:
    """Over plain http (no wake lock) the page keeps a phone awake with a looping film: it
    must be in the wheel, and the page must not claim it plays when it cannot."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        pytest.skip("needs Debian's chromium")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(installed.replace("127.0.0.1", "companion.local") + "/")
            page.wait_for_function("() => window.Awake !== undefined")
            page.mouse.click(5, 5)  # a tap: a phone lets a film play after one
            page.evaluate("() => { Awake.on().then((s) => { window.__awake = s; }); }")
            page.wait_for_function("() => window.__awake !== undefined")
            assert page.evaluate("window.__awake") == "video"
            page.wait_for_function(
                "() => document.querySelector('video.awake').currentTime > 0")
        finally:
            browser.close()
