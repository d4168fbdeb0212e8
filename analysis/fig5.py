#!/usr/bin/python3
"""The honeycomb paper's Figure 5 from sweep files (wormnet_analysis/tools/fig5.py).
The same tool is `wormnet-fig5` in an installed package (docs/python.md)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.tools.fig5 import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
