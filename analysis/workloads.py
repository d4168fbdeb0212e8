#!/usr/bin/python3
"""The workload study: completion time of the motifs (wormnet_analysis/tools/workloads.py).
The same tool is `wormnet-workloads` in an installed package (docs/python.md)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.tools.workloads import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
