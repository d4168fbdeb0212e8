"""Compatibility name of the result-file reader: it moved into the package
wormnet_analysis (wormnet_analysis.results); `import wormnet_h5` keeps working."""

from wormnet_analysis._h5 import read_table
from wormnet_analysis.results import (FINISHED, KNEE_FACTOR, NORMALIZATIONS, SCHEMA_VERSION,
                                      Point, ResultFileError, Sweep, load, saturation_point)

__all__ = ["FINISHED", "KNEE_FACTOR", "NORMALIZATIONS", "SCHEMA_VERSION", "Point",
           "ResultFileError", "Sweep", "load", "read_table", "saturation_point"]
