"""Debian systems for trying scripts/install-pi.sh, made with mmdebstrap and kept per machine.

A base system (``<suite>-<arch>``: minbase with python3) is made once in
``$COMPANION_TEST_CACHE`` (default ``~/.cache/board-companion``), in a temporary directory that
is renamed into place only when complete, under an exclusive lock: two test runs at once never
see a half-made base, and the second waits for the first instead of making its own. Each run
works in its own copy (``run-*``) and holds the target's lock while it installs, so the kept
caches (downloaded .debs, apt lists, pip's downloads), moved in for the run and back after, are
used by one run at a time.

Foreign architectures (arm64, armhf) run under qemu user emulation (Debian's
qemu-user-static): through binfmt_misc when the kernel has it (registered from qemu's own
/usr/lib/binfmt.d entries if needed), else through ``proot -q``.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MIRROR = "http://deb.debian.org/debian"
NATIVE = {"x86_64": "amd64", "aarch64": "arm64", "armv7l": "armhf"}.get(platform.machine(),
                                                                          platform.machine())
QEMU = {"arm64": "aarch64", "armhf": "arm"}
KEPT = [("var/cache/apt/archives", "apt-archives"), ("var/lib/apt/lists", "apt-lists"),
        ("root/.cache/pip", "pip-cache")]
PROXY_VARS = ("http_proxy", "https_proxy", "no_proxy")
SOURCES = ["pyproject.toml", "README.md", "companion", "hardware", "web", "seeds", "scripts",
           "systemd", "docs"]
BINFMT = Path("/proc/sys/fs/binfmt_misc")
NICE = ["nice", "-n", "19", "ionice", "-c3"]


def cache_dir() -> Path:
    env = os.environ.get("COMPANION_TEST_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "board-companion"


@contextlib.contextmanager
def locked(name: str, timeout: float = 3 * 3600) -> Iterator[None]:
    """An exclusive lock shared by every test run on this machine (flock: freed if the
    holder dies)."""
    cache_dir().mkdir(parents=True, exist_ok=True)
    with open(cache_dir() / f"{name}.lock", "w") as fh:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{name} stayed locked for {timeout:.0f} s") from None
                time.sleep(2)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def emulation(arch: str) -> str | None:
    """How this machine runs ``arch``: "native", "binfmt", "proot", or None (it cannot)."""
    if arch == NATIVE:
        return "native"
    name = QEMU.get(arch)
    if name is None or shutil.which(f"qemu-{name}-static") is None:
        return None
    entry = BINFMT / f"qemu-{name}"
    if not (BINFMT / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)],
                       capture_output=True)
    if not entry.exists() and (BINFMT / "register").exists():
        conf = Path(f"/usr/lib/binfmt.d/qemu-{name}.conf")
        if conf.exists():
            with contextlib.suppress(OSError):
                (BINFMT / "register").write_text(conf.read_text().strip())
    if entry.exists() and entry.read_text().startswith("enabled") and "F" in _flags(entry):
        return "binfmt"
    return "proot" if shutil.which("proot") else None


def _flags(entry: Path) -> str:
    for line in entry.read_text().splitlines():
        if line.startswith("flags:"):
            return line.split(":", 1)[1].strip()
    return ""


def command(root: Path, arch: str, *cmd: str) -> list[str]:
    """``cmd`` run inside ``root``, at the lowest CPU and disk priority (the machine's other
    work goes first)."""
    if emulation(arch) == "proot":
        return [*NICE, "proot", "-0", "-q", f"qemu-{QEMU[arch]}-static", "-r", str(root),
                "-b", "/dev", "-b", "/proc", "-b", "/sys", "-w", "/", *cmd]
    return [*NICE, "chroot", str(root), *cmd]


def env() -> dict[str, str]:
    return {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": "/root", "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive",
            "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt",
            # emulated TLS is slow: a loaded machine's connections time out or are reset
            "PIP_DEFAULT_TIMEOUT": "180", "PIP_RETRIES": "10",
            **{k: v for k, v in os.environ.items() if k.lower() in PROXY_VARS}}


def run_in(root: Path, arch: str, *cmd: str, timeout: float = 3600
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(root, arch, *cmd), capture_output=True, text=True, env=env(),
                          timeout=timeout)


def run_steps(root: Path, arch: str, *cmd: str, timeout: float = 3600
              ) -> tuple[subprocess.CompletedProcess[str], dict[str, int]]:
    """``cmd`` run inside ``root``, and the seconds spent in each of its "==> " steps (where
    a slow install spends its time)."""
    proc = subprocess.Popen(command(root, arch, *cmd), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env())
    assert proc.stdout is not None
    lines: list[str] = []
    steps: dict[str, int] = {}
    step, since = "start", time.monotonic()
    deadline = since + timeout
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("==> "):
            now = time.monotonic()
            steps[step] = steps.get(step, 0) + round(now - since)
            step, since = line[4:].strip()[:60], now
        if time.monotonic() > deadline:
            proc.kill()
            break
    proc.stdout.close()  # else an unclosed-file warning fails the test (as error)
    code = proc.wait()
    steps[step] = steps.get(step, 0) + round(time.monotonic() - since)
    return subprocess.CompletedProcess(proc.args, code, "".join(lines), ""), steps


def base_system(suite: str, arch: str) -> Path:
    """A minimal ``suite`` for ``arch`` with python3: made once per machine, then reused."""
    base = cache_dir() / f"{suite}-{arch}"
    legacy = cache_dir() / f"{suite}-{platform.machine()}"  # named so before 2026-12
    if arch == NATIVE and not base.exists() and (legacy / ".complete").exists():
        with locked(f"{suite}-{arch}"):
            if not base.exists():
                legacy.rename(base)
    if (base / ".complete").exists():
        return base
    with locked(f"{suite}-{arch}"):
        if (base / ".complete").exists():  # made by another run while this one waited
            return base
        shutil.rmtree(base, ignore_errors=True)  # a leftover without .complete
        for dead in cache_dir().glob(f".{suite}-{arch}-*"):  # a killed run's (we hold the lock)
            remove(dead)
        partial = Path(tempfile.mkdtemp(prefix=f".{suite}-{arch}-", dir=cache_dir()))
        try:
            _bootstrap(partial, suite, arch)
            (partial / ".complete").touch()
            partial.rename(base)
        finally:
            remove(partial)
    return base


# Where dpkg writes nothing in a test system: no manual pages or documentation to unpack and
# index (man-db's trigger alone takes minutes under qemu), no fsync per file.
DPKG_OPTIONS = ["force-unsafe-io", "path-exclude=/usr/share/man/*",
                "path-exclude=/usr/share/doc/*", "path-include=/usr/share/doc/*/copyright",
                "path-exclude=/usr/share/locale/*", "path-exclude=/usr/share/info/*"]


def _bootstrap(target: Path, suite: str, arch: str) -> None:
    """mmdebstrap's apt variant (the Essential packages, apt, python3 and the CA certificates)
    into the empty ``target``. Unlike debootstrap's second stage (a shell script: every
    command it forks is emulated), mmdebstrap drives apt and dpkg from the host, one dpkg call
    for the whole lot. The .debs come from and go back to the target's kept apt cache."""
    archives = cache_dir() / f"{suite}-{arch}-caches" / "apt-archives"
    archives.mkdir(parents=True, exist_ok=True)
    mode = "proot" if emulation(arch) == "proot" else "root"
    cmd = [*NICE, "mmdebstrap", f"--mode={mode}", "--variant=apt", f"--arch={arch}",
           "--include=python3,ca-certificates", "--skip=download/empty",
           *(f"--dpkgopt={o}" for o in DPKG_OPTIONS),
           '--setup-hook=mkdir -p "$1"/var/cache/apt/archives',
           f"--setup-hook=sync-in {archives} /var/cache/apt/archives",
           f"--customize-hook=sync-out /var/cache/apt/archives {archives}",
           suite, str(target), MIRROR]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=3 * 3600,
                          env={**os.environ, **env()})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def _unsafe_io(root: Path) -> None:
    """dpkg without an fsync per file (as mmdebstrap does): a throwaway test system needs no
    power-cut safety, and under qemu every unpack otherwise waits on the disk."""
    conf = root / "etc" / "dpkg" / "dpkg.cfg.d"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "companion-test-unsafe-io").write_text("force-unsafe-io\n")


@contextlib.contextmanager
def fresh_copy(suite: str, arch: str, kept_wheels: bool = True) -> Iterator[Path]:
    """A copy of the base system for one run, with this target's caches moved in (and back
    after), the host's DNS and extra CA certificates, /proc, and the repository in /opt/src.
    The target's lock is held throughout. A run killed before it could move the caches back
    left them in its copy: the next run takes them from there."""
    base = base_system(suite, arch)
    name = f"{suite}-{arch}"
    with locked(name):
        caches = cache_dir() / f"{name}-caches"
        for dead in cache_dir().glob(f"run-{name}-*"):  # a killed run's: its caches come back
            for inside, kept_name in KEPT:
                kept = caches / kept_name
                if (dead / inside).is_dir() and not (kept.is_dir() and any(kept.iterdir())):
                    shutil.rmtree(kept, ignore_errors=True)
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    (dead / inside).rename(kept)
            remove(dead)
        root = Path(tempfile.mkdtemp(prefix=f"run-{name}-", dir=cache_dir()))
        subprocess.run([*NICE, "cp", "-a", f"{base}/.", str(root)], check=True)
        _unsafe_io(root)
        if not kept_wheels:  # every run really builds what has no wheel
            shutil.rmtree(caches / "pip-cache" / "wheels", ignore_errors=True)
        moved: list[tuple[Path, Path]] = []
        proc = False
        try:
            for inside, kept_name in KEPT:
                kept, target = caches / kept_name, root / inside
                kept.mkdir(parents=True, exist_ok=True)
                shutil.rmtree(target, ignore_errors=True)
                target.parent.mkdir(parents=True, exist_ok=True)
                kept.rename(target)
                moved.append((target, kept))
            shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
            # The host's extra CA certificates (a proxy's), added to the bundle apt, pip and
            # Python read: as update-ca-certificates would, without its minutes under qemu.
            bundle = root / "etc" / "ssl" / "certs" / "ca-certificates.crt"
            extra = sorted(Path("/usr/local/share/ca-certificates").rglob("*.crt"))
            if extra and bundle.exists():
                with open(bundle, "a") as fh:
                    for cert in extra:
                        fh.write("\n" + cert.read_text())
            src = root / "opt" / "src"
            src.mkdir(parents=True, exist_ok=True)
            for item in SOURCES:
                path = REPO / item
                if path.is_dir():
                    shutil.copytree(path, src / item,
                                    ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    shutil.copy2(path, src / item)
            if emulation(arch) != "proot":
                proc = subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")],
                                      capture_output=True).returncode == 0
            yield root
        finally:
            if proc:
                subprocess.run(["umount", "-l", str(root / "proc")], check=False)
            for target, kept in moved:
                if target.exists():
                    shutil.rmtree(kept, ignore_errors=True)
                    target.rename(kept)
            remove(root)


def remove(path: Path) -> None:
    """Delete ``path``, after unmounting what is mounted inside it (a killed bootstrap leaves
    its /proc and /sys mounted: deleting through them would reach the host's)."""
    inside = str(path.resolve()) + "/"
    with open("/proc/self/mounts") as fh:
        points = [line.split()[1].encode().decode("unicode_escape") for line in fh]
    for point in sorted((p for p in points if p.startswith(inside)), reverse=True):
        subprocess.run(["umount", "-l", point], capture_output=True)
    shutil.rmtree(path, ignore_errors=True)


def inputs_digest(*extra: Path) -> str:
    """What a proof depends on: the install script, pyproject.toml, and ``extra`` files."""
    digest = hashlib.sha256()
    for path in (REPO / "scripts" / "install-pi.sh", REPO / "pyproject.toml", *extra):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
