#!/usr/bin/python3
"""Mean latency against accepted traffic of wormnet sweeps (wormnet_analysis/tools/plot_sweep.py).
The same tool is `wormnet-plot-sweep` in an installed package (docs/python.md)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.tools.plot_sweep import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
