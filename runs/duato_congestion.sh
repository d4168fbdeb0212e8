#!/usr/bin/env bash
# Where packets wait under Duato's routing on HT_8 (docs/duato.md, "Where packets wait"): a
# sweep of honeycomb-torus:8 with duato at three loads of uniform traffic -- low, mid and
# near saturation (the saturation throughput is 0.109 flits/node/cycle with these windows:
# the largest accepted of a point not flagged saturated in --loads 0.095,...,0.115 by 0.005)
# -- with --congestion totals, and two small-multiple pictures, one panel per load: blocked
# cycles (heatmap.panels, one colour scale per picture) and the escape share (flits on the
# escape VCs / all flits). It prints, per load, the network's escape share, its spread over
# the channels, its correlation with blocked cycles and its mean over the channels of each
# port direction. About 10 s.
#   usage: runs/duato_congestion.sh path/to/wormnet [out-dir] [--update-docs] [--quick]
# Everything goes to out-dir (default build/duato_congestion): ht8_duato.h5, blocked.png,
# escape_share.png and their compact palette PNGs duato_blocked.png and
# duato_escape_share.png. Only with --update-docs are those two copied over docs/img/.
# --quick runs windows a tenth as long (for the tests; not for docs/img).
set -euo pipefail
source "$(dirname "$0")/picture_args.sh"
picture_args duato_congestion build/duato_congestion "$@"
here=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3
mkdir -p "$out"
export MPLCONFIGDIR=${MPLCONFIGDIR:-$out/mpl}

windows=(--warmup 2000 --measure 8000 --drain-limit 5000)
((quick)) && windows=(--warmup 200 --measure 800 --drain-limit 500)
rm -f "$out/ht8_duato.h5"
"$wormnet" sweep -t honeycomb-torus:8 -r duato --loads 0.03,0.07,0.105 --congestion totals \
  "${windows[@]}" -q -o "$out/ht8_duato.h5"

"$py" - "$here/analysis" "$out" <<'EOF'
import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
out = sys.argv[2]
import wormnet_analysis as wa  # noqa: E402
from wormnet_analysis import heatmap, plots  # noqa: E402
from wormnet_analysis.channels import channel_values  # noqa: E402

sweep = wa.load(f"{out}/ht8_duato.h5")
points = [p.index for p in sweep.points]
for quantity, name in (("blocked", "blocked.png"), ("escape-share", "escape_share.png")):
    fig, _ = heatmap.panels(sweep, [(quantity, p) for p in points], top=0, panel_width=5.0,
                            title=f"{sweep.network.spec}, duato, uniform traffic: {quantity}"
                                  " at three loads (measurement window)")
    plots.save_png(fig, f"{out}/{name}", dpi=100)
for p in points:
    share, _ = channel_values(sweep, "escape-share", p)
    blocked, _ = channel_values(sweep, "blocked", p)
    c = sweep.point(p).congestion
    escape, adaptive = int(c["escape_flits"].sum()), int(c["adaptive_flits"].sum())
    a = sweep.point(p).attrs
    print(f"duato_congestion: offered {a['offered_load']:.4g} accepted {a['accepted']:.4g} "
          f"saturated {int(a['saturated'])}: escape share {escape / (escape + adaptive):.3f} "
          f"(channels {share.min():.3f}..{share.max():.3f}, sd {share.std():.3f}), blocked "
          f"{blocked.mean():.0f} cycles a channel (max {blocked.max():.0f}), "
          f"corr(blocked, share) {np.corrcoef(blocked, share)[0, 1]:.2f}")
    frame = sweep.network.channels_frame()
    frame["share"] = share
    ports = frame.groupby("port").share.mean()
    print("duato_congestion:   mean escape share by port: "
          + ", ".join(f"{port} {v:.3f}" for port, v in ports.items()))

# Palette PNGs, small enough to commit.
from PIL import Image  # noqa: E402

for src, dst in (("blocked.png", "duato_blocked.png"),
                 ("escape_share.png", "duato_escape_share.png")):
    with Image.open(f"{out}/{src}") as im:
        im = im.convert("RGB")
        im.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(f"{out}/{dst}",
                                                                      optimize=True)
    print(f"duato_congestion: {out}/{dst}")
EOF
if ((update)); then
  for f in duato_blocked.png duato_escape_share.png; do
    cp "$out/$f" "$here/docs/img/$f"
    echo "duato_congestion: $here/docs/img/$f updated"
  done
else
  echo "duato_congestion: docs/img left as it is (--update-docs copies the two pictures there)"
fi
