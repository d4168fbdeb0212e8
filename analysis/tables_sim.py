#!/usr/bin/python3
"""Table-driven simulation: peak accepted traffic and latency per table (wormnet_analysis/tools/tables_sim.py).
The same tool is `wormnet-tables-sim` in an installed package (docs/python.md)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.tools.tables_sim import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
