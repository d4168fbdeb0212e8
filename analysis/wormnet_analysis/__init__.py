"""Readers and pictures of wormnet's HDF5 files (docs/python.md).

    import wormnet_analysis as wa
    sweep = wa.load("results.h5")           # a run or sweep: checks version and status
    sweep.summary_frame()                   # pandas DataFrame, one row per load point
    sweep.summary["accepted"]               # the same column as a numpy array
    table = wa.load_table("table.h5")       # a routing table: gamma_c per channel
    wa.layout(sweep.network)                # where nodes and channels are drawn
    sweep.workload                          # a workload's /workload (None for a sweep)
    wa.channel_series_frame("results.h5")   # --congestion series: windows x channels

Drawing (matplotlib) lives in the submodules heatmap, plots and report, imported on use.
Needs h5py, numpy, pandas and matplotlib (Debian: python3-h5py, python3-numpy,
python3-pandas, python3-matplotlib).
"""

from .congestion import channel_series_frame, congestion_frame
from ._h5 import FileError
from .layouts import LAYOUTS, Layout, LayoutError, layout
from .loaders import load_any
from .network import KINDS, BisectionCut, Network, from_spec
from .results import (FINISHED, KNEE_FACTOR, NORMALIZATIONS, SCHEMA_VERSION, Point,
                      ResultFileError, Sweep, describe_saturation, load, require_load_sweep,
                      saturation_point)
from .steady import Steadiness, point_steadiness, steadiness
from .tables import RoutingTable, load_study, load_table, study_frame
from .workload import Workload

__version__ = "0.1.0"

__all__ = [
    "channel_series_frame", "congestion_frame", "FileError", "LAYOUTS", "Layout", "LayoutError", "layout", "load_any", "KINDS",
    "BisectionCut", "Network", "from_spec", "FINISHED", "KNEE_FACTOR", "NORMALIZATIONS",
    "SCHEMA_VERSION", "Point", "ResultFileError", "Sweep", "describe_saturation", "load",
    "require_load_sweep",
    "saturation_point", "Workload",
    "Steadiness", "point_steadiness", "steadiness", "RoutingTable", "load_study", "load_table",
    "study_frame",
]
