#!/usr/bin/python3
"""Channel heatmap of a wormnet result or routing-table file on the network's own layout.

    /usr/bin/python3 analysis/heatmap.py FILE.h5 -o heatmap.png [--quantity utilization|flits|load|
        pattern-load|blocked|vc-wait|credit-wait|switch-wait|occupancy|escape-share|congestion|
        over-time] [--windows 0,5,12] [--point N] [--layout hex|brick|grid] [--plane 0,2] [--slice Z=0] [--top 5]
        [--partition partition.png]

Every directed channel is coloured by its utilization (flits/cycle) or flit count in a load
point of a result file, or by its load gamma_c (`/routing/channel_load` of a result file,
`loads` of a routing-table file), or, for a run with --congestion totals, by where its
packets waited (blocked cycles, each wait, occupancy, duato's escape share; `congestion`: a
panel for each), or with --congestion series by its utilization in chosen statistics
windows (`over-time`: a panel per window, warm-up to drain, one colour scale); the --top busiest channels are numbered and listed, the bisection cut is
dashed. H_t is drawn as hexagons (or a brick wall), the honeycomb tori as
hexagons with their wrap-around channels as stubs, tori and meshes as
grids, with one panel per slice for 3-D and more. docs/python.md has the details.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.cli import heatmap_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(heatmap_main(prog="heatmap.py"))
