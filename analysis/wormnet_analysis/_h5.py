"""Small HDF5 helpers shared by the readers: attributes as plain Python values, time-series
tables (docs/hdf5-schema.md, "Time-series tables") and opening a file with a clear error."""

from __future__ import annotations

import h5py
import numpy as np


class FileError(Exception):
    """The file is not a wormnet file this reader can trust (wrong kind, version, status)."""


def open_h5(path: str) -> h5py.File:
    """Opens `path` read-only; FileError (naming the file) when it is not HDF5."""
    try:
        return h5py.File(path, "r")
    except OSError as e:
        raise FileError(f"{path}: cannot open as HDF5 ({e})") from e


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
