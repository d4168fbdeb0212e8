#!/usr/bin/python3
"""Checks with h5py the file h5_parallel_writer wrote at N ranks against the closed forms
documented at the top of h5_parallel_writer.cpp. Usage: h5_parallel_check.py FILE N"""
import sys

import h5py
import numpy as np


def main(path, ranks):
    with h5py.File(path, "r") as f:
        assert f.attrs["status"] == "complete", f.attrs["status"]
        assert f.attrs["schema_version"] == 1
        assert f.attrs["ranks"] == ranks, (f.attrs["ranks"], ranks)
        assert f.attrs["config"] == '[network]\ntopology = "torus"\n'

        i = np.arange(1009)
        held = i % 97 != 0
        flits = f["channels/flits"]
        assert flits.dtype == np.int64 and flits.shape == (1009,)
        expected = np.where(held, 3 * i + 1, 0)
        bad = np.flatnonzero(flits[:] != expected)
        assert bad.size == 0, f"flits differ at rows {bad[:10]}"

        vc = f["channels/vc_load"]
        assert vc.dtype == np.float64 and vc.shape == (1009, 3)
        expected = (10.0 * i[:, None] + np.arange(3)[None, :] + 0.25) * held[:, None]
        assert np.array_equal(vc[:], expected), "vc_load differs"

        kind = f["nodes/kind"]
        assert kind.dtype == np.uint8 and np.array_equal(kind[:], np.arange(50) % 3)

        hist = f["summary/histogram"]
        assert hist.dtype == np.uint64 and list(hist[:]) == [2**k for k in range(8)]

        ts = f["timeseries"]
        assert list(ts.attrs["columns"]) == ["cycle", "latency", "delivered"]
        r = np.arange(13)
        assert ts["cycle"].dtype == np.int64 and ts["cycle"].maxshape == (None,)
        assert ts["cycle"].chunks == (4,)
        assert np.array_equal(ts["cycle"][:], 100 * (r + 1))
        assert np.array_equal(ts["latency"][:], r / 4.0 + 20.0)
        assert ts["delivered"].dtype == np.uint64
        assert np.array_equal(ts["delivered"][:], r**3)
        assert ts["latency"].attrs["unit"] == "cycles"
    print(f"{path}: written by {ranks} ranks, content as expected")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
