#!/usr/bin/python3
"""A self-contained HTML report of one wormnet run or sweep.

    /usr/bin/python3 analysis/report.py results.h5 -o report.html [--point N]
        [--quantity utilization|flits] [--partial]

Configuration, the load points, latency against accepted traffic, latency histograms, the
time series of the warm-up and measurement windows with a verdict on whether each point is
steady, channel heatmaps (utilization of a point, gamma_c), the partition and the speed; the
figures are embedded as PNG, so the one file can be mailed or archived. docs/python.md.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.cli import report_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(report_main(prog="report.py"))
