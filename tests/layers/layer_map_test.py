"""src/README.md's map of the layers states what the build holds.

Usage: layer_map_test.py src/README.md build/layer_map.txt

The build writes the map it holds (src/CMakeLists.txt: each layer and the layers it may use)
to layer_map.txt; the README's table gives, per folder, the layers it uses. Both must name the
same layers, in the same order from the bottom up, each with the same uses (the README's
parenthesised notes, such as the one header a layer uses, are ignored). `cli/` is above every
layer and not a library of its own: the README says "everything above".
"""
import re
import sys


def readme_map(path):
    rows = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\|\s*`(\w+)/`\s*\|.*\|\s*([^|]*?)\s*\|\s*$", line)
        if not m:
            continue
        layer, uses = m.group(1), re.sub(r"\([^)]*\)", "", m.group(2))
        if layer == "cli":
            continue
        rows[layer] = [] if uses.strip() in ("—", "-", "") else \
            [u.strip() for u in uses.split(",") if u.strip()]
    return rows


def build_map(path):
    rows = {}
    for line in open(path, encoding="utf-8"):
        if ":" in line:
            layer, uses = line.split(":", 1)
            rows[layer.strip()] = uses.split()
    return rows


def main():
    readme, build = readme_map(sys.argv[1]), build_map(sys.argv[2])
    failures = []
    if list(readme) != list(build):
        failures.append(f"layers: README {list(readme)}, build {list(build)}")
    for layer in build:
        if layer in readme and sorted(readme[layer]) != sorted(build[layer]):
            failures.append(f"{layer}/ uses: README {sorted(readme[layer])}, "
                            f"build {sorted(build[layer])}")
    for f in failures:
        print("layer map:", f)
    if not build:
        print("layer map: the build's map is empty")
        return 1
    print(f"layer map: {len(build)} layers, README and build agree" if not failures else "")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
