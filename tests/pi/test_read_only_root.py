"""A state directory that would vanish at reboot (Raspberry Pi OS's overlay file system, a
tmpfs) stops ``companion run`` with the reason; one on a writable partition under a read-only
root starts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.platform import config

REPO = Path(__file__).resolve().parents[2]

# /proc/self/mountinfo of Raspberry Pi OS Bookworm with "Overlay File System" on (raspi-config):
# overlayroot mounts the SD card's root read-only at /media/root-ro and keeps every change in a
# tmpfs at /media/root-rw.
OVERLAY_ROOT = """\
22 1 0:24 / / rw,relatime shared:1 - overlay overlayroot rw,lowerdir=/media/root-ro,\
upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir
23 22 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=187212k,mode=755
24 22 179:2 / /media/root-ro ro,relatime shared:3 - ext4 /dev/mmcblk0p2 ro
25 22 0:23 / /media/root-rw rw,relatime shared:4 - tmpfs tmpfs-root rw,mode=755
26 22 179:1 / /boot/firmware rw,relatime shared:5 - vfat /dev/mmcblk0p1 rw,fmask=0022
27 22 0:25 / /run rw,nosuid,nodev shared:6 - tmpfs tmpfs rw,size=89068k,mode=755
"""
# The same with a third partition for the games, kept out of the overlay (recurse=0).
STATE_PARTITION = OVERLAY_ROOT + (
    "30 22 179:3 / /var/lib/companion rw,noatime shared:9 - ext4 /dev/mmcblk0p3 rw\n")
# The same partition, but overlayroot's default recurse=1 overlays it too.
STATE_PARTITION_OVERLAID = OVERLAY_ROOT + (
    "30 22 0:26 / /var/lib/companion rw,relatime shared:9 - overlay overlayroot rw,"
    "lowerdir=/media/root-ro/var/lib/companion,upperdir=/media/root-rw/var/lib/companion/"
    "overlay,workdir=/media/root-rw/var/lib/companion/overlay-workdir\n")
# A plain SD card: ext4 root, read-write.
PLAIN = """\
22 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw
26 22 179:1 / /boot/firmware rw,relatime shared:5 - vfat /dev/mmcblk0p1 rw,fmask=0022
27 22 0:25 / /run rw,nosuid,nodev shared:6 - tmpfs tmpfs rw,size=89068k,mode=755
"""


def problem(tmp_path: Path, mountinfo: str, state: str = "/var/lib/companion") -> str | None:
    table = tmp_path / "mountinfo"
    table.write_text(mountinfo)
    return config.volatile_state_problem(Path(state), table)


def test_overlay_mode_with_the_games_on_the_root_is_refused(tmp_path: Path) -> None:
    said = problem(tmp_path, OVERLAY_ROOT)
    assert said is not None
    assert "lost at the next reboot" in said and "/var/lib/companion" in said
    assert "Read-only root" in said, "it points the owner at the documented fix"


def test_a_state_partition_outside_the_overlay_starts(tmp_path: Path) -> None:
    assert problem(tmp_path, STATE_PARTITION) is None
    assert problem(tmp_path, STATE_PARTITION, "/var/lib/companion/sub") is None


def test_a_state_partition_the_overlay_covers_too_is_refused(tmp_path: Path) -> None:
    assert problem(tmp_path, STATE_PARTITION_OVERLAID) is not None


def test_a_plain_card_and_a_tmpfs(tmp_path: Path) -> None:
    assert problem(tmp_path, PLAIN) is None
    assert problem(tmp_path, PLAIN, "/run/companion") is not None, "/run is a tmpfs"
    assert problem(tmp_path, PLAIN, "/var/lib/companion") is None


def test_companion_run_refuses_and_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The real command, with the Pi's mount table: it stops before touching the database."""
    table = tmp_path / "mountinfo"
    table.write_text(OVERLAY_ROOT)
    monkeypatch.setattr(config, "MOUNTINFO", table)
    # The state directory is not under the temporary directory, as the service's is not.
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    state = tmp_path / "state"
    code = main(["run", "--simulate", "--no-mdns", "--state-dir", str(state), "--port", "0"])
    assert code == 1
    assert "lost at the next reboot" in capsys.readouterr().out
    assert not (state / "companion.db").exists()


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="mounting a tmpfs and an overlay needs root and unshare")
def test_a_real_overlay_in_memory_is_refused(tmp_path: Path) -> None:
    """In a private mount namespace: a read-only lower layer and a tmpfs upper layer mounted
    over a directory, exactly as overlayroot does it; ``companion run`` refuses it."""
    base = tmp_path
    for d in ("lower", "rw", "merged", "tmp"):
        (base / d).mkdir(parents=True)
    script = textwrap.dedent(f"""\
        set -e
        mount -t tmpfs tmpfs-root {base}/rw
        mkdir {base}/rw/upper {base}/rw/work
        mount -t overlay overlayroot -o lowerdir={base}/lower,upperdir={base}/rw/upper,\
workdir={base}/rw/work {base}/merged
        exec {sys.executable} -m companion.app.cli run --simulate --no-mdns --port 0 \
--state-dir {base}/merged/state
        """)
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           script], capture_output=True, text=True, timeout=600, cwd=REPO,
                          env={**os.environ, "TMPDIR": str(base / "tmp")})
    if done.returncode != 1 and "mount:" in done.stderr:
        pytest.skip(f"this kernel cannot mount a tmpfs and an overlay here: {done.stderr}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "lost at the next reboot" in done.stdout
    assert not (base / "rw" / "upper" / "state" / "companion.db").exists()
