"""``tls = true``: a table and the screen reach the broker over TLS only (the shipped config's
TLS listener, with a certificate made for the test)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from venue_helpers import (
    ROOT,
    SCREEN_PASSWORD,
    SHIPPED,
    Broker,
    SimTable,
    caught_up,
    free_port,
    wait_until,
)

from companion.venue.board import Board
from companion.venue.publisher import VenuePublisher
from companion.venue.settings import VenueSettings
from companion.venue.subscriber import ScreenSubscriber

pytestmark = pytest.mark.skipif(not shutil.which("openssl"), reason="needs openssl")


def test_a_table_and_the_screen_over_tls(tmp_path: Path, broker_off: Broker) -> None:
    crt, key = broker_off.dir / "venue.crt", broker_off.dir / "venue.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(crt), "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    tls_port = free_port()
    block = [line.lstrip("#") for line in (SHIPPED / "companion-venue.conf").read_text()
             .splitlines() if line.startswith(("#listener", "#certfile", "#keyfile"))]
    assert len(block) == 3, "the shipped config has a TLS block to uncomment"
    text = broker_off.conf.read_text()
    text += "\n".join(f"listener {tls_port} 127.0.0.1" if b.startswith("listener") else
                      b.split(" ", 1)[0] + " " + str(crt if b.startswith("cert") else key)
                      for b in block) + "\n"
    broker_off.conf.write_text(text)
    broker_off.start()
    board = Board()
    sub = ScreenSubscriber(board, "127.0.0.1", tls_port, venue="cafe", username="screen",
                           password=SCREEN_PASSWORD, tls=True, ca_file=crt,
                           client_id="tls-screen").start()
    table = SimTable(tmp_path, "t01", broker_off.port, ROOT / "examples" /
                     "monopolino-4-players.json")
    table.publisher.stop()  # the helper's plain one; this table speaks TLS
    table.publisher = VenuePublisher(table.service, VenueSettings.from_toml({
        "broker": "127.0.0.1", "port": tls_port, "venue": "cafe", "table": "t01",
        "username": "t01", "password": "pw-t01", "tls": True, "ca_file": str(crt)})).start()
    try:
        table.begin()
        table.play()
        wait_until(lambda: caught_up(board, [table]), what="the game over TLS")
    finally:
        sub.stop()
        table.close()
