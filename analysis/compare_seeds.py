#!/usr/bin/python3
"""Saturation and latency of sweeps run with other seeds (wormnet_analysis/tools/compare_seeds.py).
The same tool is `wormnet-compare-seeds` in an installed package (docs/python.md)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.tools.compare_seeds import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
