#!/usr/bin/python3
"""What faults cost (wormnet_analysis/tools/faults_study.py; docs/faults_study.md).
The same tool is `wormnet-faults-study` in an installed package (docs/python.md)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wormnet_analysis.tools.faults_study import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
