#!/usr/bin/python3
"""The honeycomb tori study: load analyses and saturation (wormnet_analysis/tools/honeycomb_tori.py).
The same tool is `wormnet-honeycomb-tori` in an installed package (docs/python.md)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.tools.honeycomb_tori import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
