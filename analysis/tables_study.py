#!/usr/bin/python3
"""The Angara table study: metrics per system and algorithm (wormnet_analysis/tools/tables_study.py).
The same tool is `wormnet-tables-study` in an installed package (docs/python.md)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.tools.tables_study import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
