"""Small HDF5 helpers shared by the readers: attributes as plain Python values, time-series
tables (docs/hdf5-schema.md, "Time-series tables") and opening a file with a clear error."""

from __future__ import annotations

import os
import stat

import h5py
import numpy as np


class FileError(Exception):
    """The file is not a wormnet file this reader can trust (wrong kind, version, status)."""


def check_input(path: str, error: type = FileError) -> None:
    """Refuses (`error`, naming the file) a path that is not a regular file, without opening
    it: a FIFO or a device would block or never end, a directory gives HDF5's two lines."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise error(f"{path}: {e.strerror.lower()}") from e
    if stat.S_ISDIR(mode):
        raise error(f"{path}: is a directory, not an HDF5 file")
    if not stat.S_ISREG(mode):
        raise error(f"{path}: not a regular file (a FIFO, socket or device); give an HDF5 file")


_H5PY_ERRORS = (OSError, KeyError, RuntimeError, ValueError)


class _File(h5py.File):
    """An h5py.File whose `with` block reports a damaged file as `error`, naming the file:
    h5py raises OSError, KeyError or ValueError from whatever it cannot read."""

    def __init__(self, path: str, error: type):
        super().__init__(path, "r")
        self._path, self._error = path, error

    def __exit__(self, kind, value, tb):
        super().__exit__(kind, value, tb)
        # Only h5py's own: the readers raise KeyError for what a file lacks (congestion.py).
        if isinstance(value, _H5PY_ERRORS) and _raised_in_h5py(tb):
            why = value.args[0] if isinstance(value, KeyError) and value.args else value
            raise self._error(f"{self._path}: cannot read ({why}): damaged or not a wormnet "
                              "file") from value


def _raised_in_h5py(tb) -> bool:
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_globals.get("__name__", "").startswith("h5py")


def open_h5(path: str, error: type = FileError) -> h5py.File:
    """Opens `path` read-only; `error` (FileError or a subclass, naming the file) when it is
    not a regular file or not HDF5, or, inside its `with` block, when h5py cannot read it."""
    check_input(path, error)
    try:
        return _File(path, error)
    except OSError as e:
        raise error(f"{path}: cannot open as HDF5 ({e})") from e


def decode(v):
    """An attribute value as plain Python: bytes -> str, numpy scalars -> int/float, string
    arrays -> lists of str; other arrays stay numpy arrays."""
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray) and v.dtype.kind in ("O", "S", "U"):
        return [x.decode("utf-8") if isinstance(x, bytes) else str(x) for x in v]
    return v


def attrs(obj) -> dict:
    """All attributes of an HDF5 object, decoded (see decode)."""
    return {k: decode(v) for k, v in obj.attrs.items()}


def read_table(group) -> tuple[dict, dict]:
    """A time-series table: columns -> arrays, cut to the shortest column (the newest row of a
    killed writer may be incomplete), and columns -> units."""
    columns = [str(c) for c in decode(group.attrs["columns"])]
    if not columns:
        return {}, {}
    rows = min(group[c].shape[0] for c in columns)
    data = {c: group[c][:rows] for c in columns}
    units = {c: str(decode(group[c].attrs.get("unit", ""))) for c in columns}
    return data, units
