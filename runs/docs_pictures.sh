#!/usr/bin/env bash
# The two pictures of the README's tour, remade from scratch: a shortened Figure 5(a) sweep of
# Double XY on H_6 (the paper's mapping, runs/fig5/paper/a_h6_double-xy.toml, three loads up to
# saturation), its channel heatmap and its HTML report, whose first screen headless chromium
# photographs. About a minute.
#   usage: runs/docs_pictures.sh path/to/wormnet [out-dir] [--update-docs] [--quick]
# Everything goes to out-dir (default build/docs_pictures): h6.h5, heatmap.png, report.html,
# report.png, and the compact palette PNGs heatmap_h6_double_xy.png and report_h6.png. Only
# with --update-docs are those two copied over docs/img/ (the committed pictures). --quick
# runs the sweep with windows a tenth as long (seconds, for the tests; not for docs/img).
set -euo pipefail
source "$(dirname "$0")/picture_args.sh"
picture_args docs_pictures build/docs_pictures "$@"
here=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3
mkdir -p "$out"
export MPLCONFIGDIR=${MPLCONFIGDIR:-$out/mpl}

windows=(--warmup 20000 --measure 100000 --drain-limit 60000)
((quick)) && windows=(--warmup 2000 --measure 10000 --drain-limit 6000)
rm -f "$out/h6.h5"
"$wormnet" sweep --config "$here/runs/fig5/paper/a_h6_double-xy.toml" --loads 0.1,0.25,0.3 \
  "${windows[@]}" -q -o "$out/h6.h5"
"$py" "$here/analysis/heatmap.py" "$out/h6.h5" -o "$out/heatmap.png" --width 7.5
"$py" "$here/analysis/report.py" "$out/h6.h5" -o "$out/report.html"

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  echo "docs_pictures: no chromium: the report screenshot is not made" >&2
  exit 1
fi
rm -rf "$out/chromium-profile"
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
  --user-data-dir="$out/chromium-profile" --window-size=1100,1500 \
  --screenshot="$out/report.png" "file://$(cd "$out" && pwd)/report.html" 2>/dev/null

# Palette PNGs, small enough to commit: written into out-dir, and over docs/img only when asked.
"$py" - "$out" <<'EOF'
import sys
from PIL import Image
out = sys.argv[1]
for src, dst, width in (("heatmap.png", "heatmap_h6_double_xy.png", 700),
                        ("report.png", "report_h6.png", 700)):
    with Image.open(f"{out}/{src}") as im:
        im = im.convert("RGB")
        im = im.resize((width, round(im.height * width / im.width)), Image.LANCZOS)
        im.quantize(colors=192, method=Image.Quantize.FASTOCTREE).save(f"{out}/{dst}",
                                                                      optimize=True)
    print(f"docs_pictures: {out}/{dst}")
EOF
if ((update)); then
  for f in heatmap_h6_double_xy.png report_h6.png; do
    cp "$out/$f" "$here/docs/img/$f"
    echo "docs_pictures: $here/docs/img/$f updated"
  done
else
  echo "docs_pictures: docs/img left as it is (--update-docs copies the two pictures there)"
fi
