"""Opening any wormnet file: a result file (run, sweep) or a routing-table file."""

from __future__ import annotations

from ._h5 import FileError, attrs, open_h5
from .results import load
from .tables import STUDY_CONTENT, TABLE_CONTENT, load_table


def load_any(path: str, allow_partial: bool = False):
    """A Sweep for a result file, a RoutingTable for a routing-table file (both have a
    `network`); FileError for anything else, naming what the file is."""
    with open_h5(path) as f:
        a = attrs(f)
        content = a.get("content")
        is_result = "summary" in f and "topology" in f
    if content == TABLE_CONTENT:
        return load_table(path)
    if content == STUDY_CONTENT:
        raise FileError(f"{path}: a tables-study file holds no channels (analysis/tables_study.py "
                        "reads it)")
    if is_result:
        return load(path, allow_partial=allow_partial)
    raise FileError(f"{path}: neither a wormnet result file nor a routing-table file")
