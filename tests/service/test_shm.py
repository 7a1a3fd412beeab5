"""A ``companion.db-shm`` that cannot be written (a card remounted read-only after errors, a
file cut short) must never kill the service (issue #26 item 6): SQLite maps that file into
memory, and a write to a mapped page the file no longer backs is a SIGBUS, which no Python
code can catch. The single writer keeps its log index in its own memory instead (exclusive
locking mode), so no such file is ever mapped."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from companion.service.game_service import GameService

CHILD = textwrap.dedent("""
    import json, os, sys
    from pathlib import Path
    from companion.service.game_service import GameService

    state = Path(sys.argv[1])
    service = GameService(state).start()
    gid = service.create_game({"edition": "mario", "players": ["Mario", "Luigi"],
                               "dice": "physical", "seed": 5,
                               "settings": {"order": "seated"}}).game_id
    versions = []

    def move():
        action = service.view(gid)["actions"][0]
        args = dict(action["args"])
        if action.get("input", {}).get("kind") == "dice":
            args["dice"] = [1, 2][: action["input"]["count"]]
        out = service.submit(gid, {"actor": action["actor"], "type": action["type"],
                                   "args": args})
        assert out.ok, out.error
        versions.append(out.version)

    for _ in range(5):
        move()
    shm = state / "companion.db-shm"
    had_shm = shm.exists()
    if had_shm:
        os.truncate(shm, 0)  # the mapped index is no longer backed by the file
    for _ in range(5):
        move()
    service.stop()
    print(json.dumps({"gid": gid, "versions": versions, "had_shm": had_shm}))
""")


def test_an_unwritable_shm_file_never_kills_the_service(tmp_path: Path) -> None:
    child = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], capture_output=True,
                           text=True, timeout=300)
    assert child.returncode == 0, f"the service died ({child.returncode}): {child.stderr}"
    out = json.loads(child.stdout)
    assert not out["had_shm"], "the log index lives in the process, not in a mapped file"
    with GameService(tmp_path) as again:
        assert again.state(out["gid"])[0] == out["versions"][-1]

