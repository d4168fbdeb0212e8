#!/usr/bin/python3
"""The Angara paper's Table III in simulation (wormnet_analysis/tools/tables_npb.py).
The same tool is `wormnet-tables-npb` in an installed package (docs/python.md)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.tools.tables_npb import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
