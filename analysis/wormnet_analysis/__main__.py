"""python3 -m wormnet_analysis heatmap|report ..."""

import sys

from .cli import main

sys.exit(main())
