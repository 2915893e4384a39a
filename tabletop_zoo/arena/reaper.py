"""A watchdog that takes the arena's worker processes down with it, however the arena process dies.

``reaper.py`` is started by the arena with a pipe on its stdin. It keeps the list of
the arena's descendant processes (local workers, the multiprocessing resource tracker, a local Ray's raylet,
GCS and workers) up to date; when the pipe closes without the word ``done`` -- the arena was killed, even
by kill -9, which no handler can catch -- it kills them all and exits. A clean arena says ``done`` first.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import psutil

POLL_SECONDS = 1.0


class Reaper:
    """Context manager in the arena process: starts the watchdog, stands it down on a clean exit."""

    def __enter__(self) -> Reaper:
        # Run as a script by path, not with -m: it then imports psutil only, not this package (numba...).
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.proc.stdin.write(b"done\n")
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def _watch(parent: psutil.Process, known: dict[int, psutil.Process], stop: threading.Event) -> None:
    me = os.getpid()
    while not stop.wait(POLL_SECONDS):
        try:
            for p in parent.children(recursive=True):
                if p.pid != me:
                    known.setdefault(p.pid, p)
        except psutil.Error:
            return


def main(parent_pid: int) -> None:
    """The reaper process: watch the arena ``parent_pid`` and its workers, and end the workers when it is gone."""
    parent = psutil.Process(parent_pid)
    known: dict[int, psutil.Process] = {}
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(parent, known, stop), daemon=True)
    watcher.start()
    message = sys.stdin.buffer.read()  # returns when the arena closes the pipe or dies
    stop.set()
    watcher.join()
    if message.strip() == b"done":
        return
    victims = []
    for p in list(known.values()):
        try:
            victims += [p] + p.children(recursive=True)
        except psutil.Error:
            continue
    for p in victims:
        try:
            p.kill()  # psutil checks the process is still the one seen (pid and start time)
        except psutil.Error:
            pass
    psutil.wait_procs(victims, timeout=5)


if __name__ == "__main__":
    main(int(sys.argv[1]))
