#!/usr/bin/python3
"""A run killed with SIGKILL between statistics windows leaves a file that h5py opens, with
every row flushed before the kill and status "running" (never "complete").

Usage: h5_kill_check.py FILE ROWS RANKS -- COMMAND...
COMMAND (h5_kill_writer FILE ROWS, alone or under mpiexec) prints "pid <rank> <pid>" on
every rank and "flushed k" after its k-th flush; once "flushed ROWS" is seen, every rank's
process is sent SIGKILL, and the file is checked against the writer's closed forms."""
import os
import signal
import subprocess
import sys
import threading

import h5py
import numpy as np

TIMEOUT_S = 120


def main(path, rows, ranks, command):
    if os.path.exists(path):
        os.remove(path)
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    timer = threading.Timer(TIMEOUT_S, proc.kill)  # never hang the test suite
    timer.start()
    pids = {}
    flushed = 0
    try:
        for line in proc.stdout:
            words = line.split()
            if len(words) == 3 and words[0] == "pid":
                pids[int(words[1])] = int(words[2])
            elif len(words) == 2 and words[0] == "flushed":
                flushed = int(words[1])
                if flushed == rows:
                    break
        if flushed != rows or len(pids) != ranks:
            sys.exit(f"writer ended early: flushed {flushed} of {rows}, pids {pids}")
        for pid in pids.values():
            os.kill(pid, signal.SIGKILL)
        proc.stdout.close()
        proc.wait()
    finally:
        timer.cancel()

    with h5py.File(path, "r") as f:
        assert f.attrs["status"] == "running", f.attrs["status"]
        assert f.attrs["schema_version"] == 1
        assert np.array_equal(f["channels/flits"][:], 3 * np.arange(100) + 1)
        ts = f["timeseries"]
        n = min(ts[c].shape[0] for c in ts.attrs["columns"])
        assert n == rows, f"{n} rows in the file, {rows} flushed"
        r = np.arange(rows)
        assert np.array_equal(ts["cycle"][:rows], 1000 * (r + 1))
        assert np.array_equal(ts["latency"][:rows], 1.5 * r + 0.125)
    print(f"killed {ranks} rank(s) after {rows} flushed rows: the file holds all of them")


if __name__ == "__main__":
    sep = sys.argv.index("--")
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[sep + 1:])
