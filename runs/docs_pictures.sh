#!/usr/bin/env bash
# The two pictures of the README's tour, remade from scratch: a shortened Figure 5(a) sweep of
# Double XY on H_6 (the paper's mapping, runs/fig5/paper/a_h6_double-xy.toml, three loads up to
# saturation), its channel heatmap (docs/img/heatmap_h6_double_xy.png) and its HTML report,
# whose first screen headless chromium photographs (docs/img/report_h6.png). About a minute.
#   usage: runs/docs_pictures.sh path/to/wormnet [out-dir]
set -euo pipefail
wormnet=${1:?usage: $0 path/to/wormnet [out-dir]}
out=${2:-build/docs_pictures}
here=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3
mkdir -p "$out"
export MPLCONFIGDIR=${MPLCONFIGDIR:-$out/mpl}

"$wormnet" sweep --config "$here/runs/fig5/paper/a_h6_double-xy.toml" --loads 0.1,0.25,0.3 \
  --warmup 20000 --measure 100000 --drain-limit 60000 -q -o "$out/h6.h5"
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

# Palette PNGs, small enough to commit.
"$py" - "$out" "$here/docs/img" <<'EOF'
import sys
from PIL import Image
out, img = sys.argv[1], sys.argv[2]
for src, dst, width in (("heatmap.png", "heatmap_h6_double_xy.png", 700),
                        ("report.png", "report_h6.png", 700)):
    with Image.open(f"{out}/{src}") as im:
        im = im.convert("RGB")
        im = im.resize((width, round(im.height * width / im.width)), Image.LANCZOS)
        im.quantize(colors=192, method=Image.Quantize.FASTOCTREE).save(f"{img}/{dst}",
                                                                      optimize=True)
    print(f"docs_pictures: {img}/{dst}")
EOF
