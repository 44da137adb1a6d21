"""Keeps a CLI command's embedded PostgreSQL up while commands keep coming, and stops it once they stop.

Started detached by the `memfix` command that started the server (`python -m handlers.dbkeeper DATA_DIR SECONDS`):
it holds the server as one more of its holders, says `ready` on its standard output, and stops it (as the last
holder) once no command has used it for SECONDS. A `memfix serve` on the same data folder holds it too, so the server
then runs until both are gone. SIGTERM stops it at once.
"""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    from core.db import KEEPER, embedded_url, idle_for, stop_embedded
    from core.settings import get_settings

    folder, idle = Path(argv[0]), float(argv[1])
    settings = get_settings()
    stopping: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.append(signum))
    embedded_url(folder, settings.embedded_postgres, settings.embedded_shared_buffers_mb)
    (folder / KEEPER).write_text(str(__import__("os").getpid()))
    print("ready", flush=True)
    try:
        while not stopping and (left := idle - idle_for(folder)) > 0:
            time.sleep(min(left, 5.0))  # a clock, not a wait on work: the next command's touch moves it on
    finally:
        (folder / KEEPER).unlink(missing_ok=True)
        stop_embedded(folder)  # its last holder now: the server stops with it (unless memfix serve holds it)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
