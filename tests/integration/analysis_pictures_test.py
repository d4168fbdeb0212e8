#!/usr/bin/python3
"""Channel heatmaps and layouts (analysis/wormnet_analysis, analysis/heatmap.py) against facts
found without them, on small runs of H_4, a 6x4 torus and a 4x4x3 mesh (two ranks each) and a
routing table of a 4x4 torus:

- the network the package rebuilds from a spec (the numbering of a table file's channels) is
  the one wormnet wrote into its result files;
- /routing/channel_load (gamma_c): its sum is N(N-1) times the mean route length and its
  maximum pi, both as `wormnet info --load --json` prints them; on a 4x4x3 mesh written by two
  ranks every channel's value is the closed form of dimension-order routing; a run driven by
  a routing table stores the table's own loads;
- heatmap values and colours: hand-picked channels (found here from the raw datasets by
  coordinates and port) carry the file's counts, and the pixel drawn at the middle of their
  lane has the colour the colour bar gives that count;
- layout geometry: in the hex drawing of H_4 two nodes are one unit apart exactly when they
  are linked (all others at least sqrt(3)), each link along the unit vector of the
  coordinate it changes; in the brick wall linked nodes are one unit apart, horizontally or
  vertically, and no two nodes coincide; every channel is drawn beside its own link;
- the bisection cut: the channels whose drawn pieces cross the dashed lines (segment
  intersection computed here) are exactly those with one end on each side of the cut
  `wormnet info` names, 2 x its channels_each_way of them (and 2 x 8 for the 6x4 torus,
  2 x 12 for the 4x4x3 mesh by counting links), and the cut's bound is the file's;
- the partition map: the links drawn between ranks number the file's edge_cut;
- the command line: PNG written, busiest channels listed, and one-line errors with exit
  code 2 for an unknown topology kind, a missing quantity, a bad point, a bad slice, a file
  that is not HDF5.

usage: analysis_pictures_test.py --wormnet BIN --mpiexec MPIEXEC --analysis DIR --out DIR
"""
import argparse
import functools
import json
import math
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def run(cmd, expect=0, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    if r.returncode != expect:
        print(f"FAIL: {' '.join(cmd)} exited {r.returncode}, expected {expect}:\n{r.stdout}\n"
              f"{r.stderr}", file=sys.stderr)
        sys.exit(1)
    return r


def raw_channels(path):
    """coords, source, dest, port, port labels of a result file, read with h5py."""
    with h5py.File(path, "r") as f:
        t = f["topology"]
        labels = [x.decode() if isinstance(x, bytes) else str(x) for x in t.attrs["port_labels"]]
        return (t["coords"][()], t["channel_source"][()], t["channel_dest"][()],
                t["channel_port"][()], labels)


def utilization(point):
    """A point group's channel utilization as docs/hdf5-schema.md defines it: each channel's
    flits over the measurement window's cycles (not stored since schema version 2)."""
    return point["channel_flits"][()] / float(point.attrs["window_cycles"])


def channel_at(path, coords, port):
    """Channel id leaving the node at `coords` on `port`, from the raw datasets."""
    xyz, src, _, prt, labels = raw_channels(path)
    node = int(np.nonzero((xyz == np.array(coords)).all(axis=1))[0][0])
    return int(np.nonzero((src == node) & (prt == labels.index(port)))[0][0])


def segments_cross(seg, line):
    """Proper intersection of two 2-D segments (orientation test)."""
    def orient(p, q, r):
        v = float((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))
        return (v > 1e-12) - (v < -1e-12)
    a, b = seg
    c, d = line
    return orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0


def info_json(wormnet, spec, routing=None, extra=None):
    return _info_json(wormnet, spec, routing, tuple(extra or ()))


@functools.lru_cache(maxsize=None)
def _info_json(wormnet, spec, routing, extra):
    cmd = [wormnet, "info", "-t", spec, "--json", *extra]
    if routing:
        cmd += ["--load", "-r", routing]
    return json.loads(run(cmd).stdout)


def parse_cut(text):
    """'X <= 2 | X > 2' -> (coordinate index, split)."""
    left = text.split("|")[0].split("<=")
    return "XYZKLM".index(left[0].strip()), int(left[1])


def check_cut(lay, path, info, what, expected_each_way=None):
    """The cut lines cross exactly the channels with ends on the two sides of info's cut."""
    coords, src, dst, _, _ = raw_channels(path)
    dim, split = parse_cut(info["bisection"]["cut"])
    side_a = coords[:, dim] <= split
    across = {c for c in range(len(src)) if side_a[src[c]] != side_a[dst[c]]}
    crossing = set()
    for seg, c in zip(lay.segments, lay.segment_channel):
        if any(segments_cross(seg, line) for line in lay.cut_lines):
            crossing.add(int(c))
    each_way = info["bisection"]["channels_each_way"]
    check(crossing == across, f"{what}: the drawn cut crosses {len(crossing)} channels, "
          f"{len(across)} cross {info['bisection']['cut']} ({len(crossing ^ across)} differ)")
    check(len(crossing) == 2 * each_way, f"{what}: {len(crossing)} crossing channels, "
          f"wormnet info says {each_way} each way")
    if expected_each_way is not None:
        check(each_way == expected_each_way, f"{what}: {each_way} channels each way, "
              f"{expected_each_way} by counting links")
    cut = lay.network.bisection()
    check((cut.coordinate, cut.split) == (dim, split), f"{what}: the package's cut "
          f"{cut.description} is not wormnet's {info['bisection']['cut']}")
    with h5py.File(path, "r") as f:
        bound = float(f["topology"].attrs["bisection_bound"])
    check(math.isclose(cut.bound, bound, rel_tol=1e-12), f"{what}: bound {cut.bound} != {bound}")


def check_drawn_colours(h, chosen, expected, what):
    """The pixel at the middle of each chosen channel's lane has its colour-bar colour."""
    fig = h.figure
    fig.canvas.draw()
    img = np.asarray(fig.canvas.buffer_rgba())
    height = img.shape[0]
    for c in chosen:
        seg = h.layout.segments[h.layout.segment_channel == c][0]
        x, y = h.ax.transData.transform(seg.mean(axis=0))
        px = img[int(round(height - y)), int(round(x)), :3].astype(int)
        want = np.round(np.array(h.cmap(h.norm(expected[c]))[:3]) * 255).astype(int)
        check(np.abs(px - want).max() <= 3, f"{what}: channel {c} drawn {px.tolist()}, its value "
              f"{expected[c]} is {want.tolist()} on the colour bar")


def check_hex_geometry(lay, path):
    coords, src, dst, _, _ = raw_channels(path)
    n = len(coords)
    pos = lay.pos
    linked = np.zeros((n, n), dtype=bool)
    linked[src, dst] = True
    dist = np.hypot(*(pos[:, None, :] - pos[None, :, :]).transpose(2, 0, 1))
    off = ~np.eye(n, dtype=bool)
    check(np.allclose(dist[linked], 1.0), "hex: linked nodes one unit apart")
    check(dist[off & ~linked].min() >= math.sqrt(3) - 1e-9,
          f"hex: unlinked nodes at least sqrt(3) apart (closest {dist[off & ~linked].min():.3f})")
    # A link that raises coordinate i by one is the same unit vector wherever it is.
    for i in range(3):
        step = coords[dst] - coords[src]
        sel = (step[:, i] == 1)
        vec = pos[dst[sel]] - pos[src[sel]]
        check(np.allclose(vec, vec[0]), f"hex: every +{'xyz'[i]} link points the same way")
    angles = sorted(math.degrees(math.atan2(*v[::-1])) % 360 for v in
                    (pos[dst[(coords[dst] - coords[src])[:, i] == 1][0]] -
                     pos[src[(coords[dst] - coords[src])[:, i] == 1][0]] for i in range(3)))
    check(np.allclose(np.diff(angles), 120.0), f"hex: x, y, z 120 degrees apart: {angles}")


def check_brick_geometry(lay, path):
    coords, src, dst, _, _ = raw_channels(path)
    d = lay.pos[dst] - lay.pos[src]
    check(np.allclose(np.hypot(d[:, 0], d[:, 1]), 1.0), "brick: linked nodes one unit apart")
    check(np.all((np.abs(d[:, 0]) < 1e-9) | (np.abs(d[:, 1]) < 1e-9)),
          "brick: links horizontal or vertical")
    check(len({tuple(np.round(p, 6)) for p in lay.pos}) == len(coords), "brick: nodes distinct")


def check_lanes(lay, what):
    """Every channel drawn between its own ends: a lane parallel to its link, beside it."""
    net = lay.network
    for seg, c in zip(lay.segments, lay.segment_channel):
        u, v = net.channel_source[c], net.channel_dest[c]
        pu, pv = lay.pos[u], lay.pos[v]
        if abs(np.hypot(*(pv - pu)) - 1.0) > 1e-9:
            continue  # a stub (wrap-around or out of the plane): checked by the cut
        mid = (pu + pv) / 2
        check(np.hypot(*(seg.mean(axis=0) - mid)) < 0.2, f"{what}: channel {c} drawn off its link")
        d1, d2 = seg[1] - seg[0], pv - pu
        check(abs(d1[0] * d2[1] - d1[1] * d2[0]) < 1e-9 and np.dot(d1, d2) > 0,
              f"{what}: channel {c} not drawn along its direction")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    sys.path.insert(0, args.analysis)
    import wormnet_analysis as wa
    from wormnet_analysis import heatmap as hm

    w = args.wormnet
    quick = ["--warmup", "500", "--measure", "2000", "--drain-limit", "4000", "-q"]
    h4 = os.path.join(out, "h4.h5")
    run([w, "sweep", "-t", "honeycomb:4", "-r", "double-xy", "--loads", "0.01,0.03", *quick,
         "-o", h4])
    torus = os.path.join(out, "torus.h5")
    run([args.mpiexec, "-n", "2", "--oversubscribe", w, "run", "-t", "torus:6x4", "-r",
         "dor-dateline", "--load", "0.05", *quick, "-o", torus])
    mesh = os.path.join(out, "mesh.h5")
    run([args.mpiexec, "-n", "2", "--oversubscribe", w, "run", "-t", "mesh:4x4x3", "-r", "xy",
         "--load", "0.05", *quick, "-o", mesh])
    table = os.path.join(out, "table.h5")
    run([w, "tables", "-t", "torus:4x4", "--algorithm", "bfs", "-o", table, "-q"])
    tabled = os.path.join(out, "tabled.h5")
    run([w, "run", "-t", "torus:4x4", "-r", "table", "--tables", table, "--flow-control",
         "bubble", "--buffer", "40", "--load", "0.05", *quick, "-o", tabled])

    # The package's numbering of a spec is wormnet's.
    for path in (h4, torus, mesh, tabled):
        coords, src, dst, port, _ = raw_channels(path)
        with h5py.File(path, "r") as f:
            spec = f["topology"].attrs["spec"]
        net = wa.from_spec(spec if isinstance(spec, str) else spec.decode())
        check(np.array_equal(net.coords, coords) and np.array_equal(net.channel_source, src)
              and np.array_equal(net.channel_dest, dst)
              and np.array_equal(net.channel_port, port), f"{spec}: from_spec numbering")

    # gamma_c in the file against the load analysis of `wormnet info`.
    for path, spec, routing in ((h4, "honeycomb:4", "double-xy"),
                                (torus, "torus:6x4", "dor-dateline"), (mesh, "mesh:4x4x3", "xy")):
        info = info_json(w, spec, routing)
        with h5py.File(path, "r") as f:
            load = f["routing/channel_load"][()]
        n = info["nodes"]
        check(math.isclose(load.sum(), n * (n - 1) * info["delivery"]["average_path"],
                           rel_tol=1e-9), f"{spec}: sum of gamma_c = N(N-1) x mean route length")
        check(math.isclose(load.max(), info["pi"], rel_tol=1e-12), f"{spec}: max gamma_c = pi")
    # Dimension order on a mesh, channel by channel (written by two ranks): the + channel
    # from coordinate a to a + 1 of dimension d carries the pairs whose source agrees with it
    # in the dimensions after d and lies at or before a in d, and whose destination agrees in
    # the dimensions before d and lies beyond a in d.
    sizes = (4, 4, 3)
    coords, src, dst, port, _ = raw_channels(mesh)
    with h5py.File(mesh, "r") as f:
        load = f["routing/channel_load"][()]
    for c in range(len(src)):
        d = int(port[c]) // 2
        a = int(min(coords[src[c], d], coords[dst[c], d]))
        before = int(np.prod(sizes[:d]))  # free source coordinates (already routed)
        after = int(np.prod(sizes[d + 1:]))  # free destination coordinates (routed later)
        want = before * after * (a + 1) * (sizes[d] - a - 1)
        if not check(load[c] == want, f"mesh channel {c} ({coords[src[c]]} port {port[c]}): "
                     f"gamma {load[c]}, dimension order gives {want}"):
            break
    t = wa.load_table(table)
    with h5py.File(tabled, "r") as f:
        check(np.array_equal(f["routing/channel_load"][()], t.loads.astype(float)),
              "a table-driven run stores the table's loads")
    check(t.loads.max() == t.metrics["pi"], "table: max load = pi")

    # Heatmap values and drawn colours of hand-picked channels.
    sweep = wa.load(torus)
    h = hm.heatmap_of(sweep, "utilization", 0)
    with h5py.File(torus, "r") as f:
        util = utilization(f["points/000"])
        flits = f["points/000/channel_flits"][()]
    picked = [channel_at(torus, (0, 0), "X+"), channel_at(torus, (5, 2), "X+"),
              channel_at(torus, (3, 1), "Y-"), channel_at(torus, (2, 3), "Y+")]
    for c in picked:
        check(h.values[c] == util[c], f"torus channel {c}: heatmap {h.values[c]} != file {util[c]}")
    check(flits[picked].min() > 0, "the picked torus channels carried flits")
    check_drawn_colours(h, [c for c in picked if c not in h.busiest], util, "torus")
    check(h.busiest[0] == int(np.argmax(util)), "busiest channel numbered first")
    hf = hm.heatmap_of(wa.load(h4), "flits", 1)
    with h5py.File(h4, "r") as f:
        f1 = f["points/001/channel_flits"][()]
    picked = [channel_at(h4, (0, 0, 1), "X+"), channel_at(h4, (1, 0, 1), "Z-"),
              channel_at(h4, (-3, 2, 2), "Y+")]
    for c in picked:
        check(hf.values[c] == f1[c], f"H4 channel {c}: heatmap {hf.values[c]} != file {f1[c]}")
    check_drawn_colours(hf, [c for c in picked if c not in hf.busiest and f1[c] > 0], f1, "H4")

    # Geometry of the layouts and the cut.
    net = wa.load(h4).network
    lay = wa.layout(net, "hex")
    check_hex_geometry(lay, h4)
    check_lanes(lay, "hex")
    check_cut(lay, h4, info_json(w, "honeycomb:4"), "H4 hex")
    brick = wa.layout(net, "brick")
    check_brick_geometry(brick, h4)
    check_lanes(brick, "brick")
    check_cut(brick, h4, info_json(w, "honeycomb:4"), "H4 brick")
    tl = wa.layout(sweep.network)
    check_lanes(tl, "torus")
    check(np.allclose(tl.pos, raw_channels(torus)[0]), "torus: node (x, y) drawn at (x, y)")
    check_cut(tl, torus, info_json(w, "torus:6x4"), "torus 6x4", expected_each_way=2 * 4)
    ml = wa.layout(wa.load(mesh).network)
    check(ml.panel_titles() == ["Z=0", "Z=1", "Z=2"], f"mesh slices: {ml.panel_titles()}")
    check_lanes(ml, "mesh")
    check_cut(ml, mesh, info_json(w, "mesh:4x4x3"), "mesh 4x4x3", expected_each_way=4 * 3)
    check(len(ml.segments) == wa.load(mesh).network.channels, "mesh: every channel drawn once")

    # HT_3 (Stojmenovic's honeycomb torus): H_3's 9t^2 - 3t = 72 links plus 3t = 9 wrap-around
    # links (every node of degree 3: 6t^2 x 3 / 2 = 81 links), so 18 wrap-around channels,
    # which are stubs pointing along their port; the 144 others are lanes of unit links. The
    # drawn cut line crosses exactly the non-wrap channels whose ends lie on the two sides of
    # wormnet's cut.
    ht = os.path.join(out, "ht3.h5")
    run([w, "run", "-t", "honeycomb-torus:3", "-r", "double-xy-dateline", "--load", "0.05",
         *quick, "-o", ht])
    htl = wa.layout(wa.load(ht).network)
    coords, src, dst, port, _ = raw_channels(ht)
    unit = np.abs(coords[dst] - coords[src]).sum(axis=1) == 1
    check(len(src) == 2 * 81 and int((~unit).sum()) == 18,
          f"HT_3: {len(src)} channels, {int((~unit).sum())} wrap-around ones")
    check(len(htl.segments) == len(src), "HT_3: every channel drawn once")
    check_lanes(htl, "HT_3")
    for seg, c in zip(htl.segments, htl.segment_channel):
        if unit[c]:
            continue
        d = seg[1] - seg[0]
        axis = wa.layouts.HEX_AXES[port[c] // 2] * (1 if port[c] % 2 == 0 else -1)
        check(abs(d[0] * axis[1] - d[1] * axis[0]) < 1e-9 and np.dot(d, axis) > 0,
              f"HT_3: wrap-around channel {c} is no stub along its port")
    info = info_json(w, "honeycomb-torus:3", "double-xy-dateline")
    dim, split = parse_cut(info["bisection"]["cut"])
    side_a = coords[:, dim] <= split
    across = {c for c in range(len(src)) if unit[c] and side_a[src[c]] != side_a[dst[c]]}
    crossing = {int(c) for seg, c in zip(htl.segments, htl.segment_channel)
                if any(segments_cross(seg, line) for line in htl.cut_lines)}
    check(crossing == across and len(across) > 0,
          f"HT_3: the drawn cut crosses {len(crossing)} channels, {len(across)} expected")
    run([sys.executable, os.path.join(args.analysis, "heatmap.py"), ht, "-o",
         os.path.join(out, "ht3.png")], env=dict(os.environ,
                                                  MPLCONFIGDIR=os.path.join(out, "mpl")))

    # A network with faults (docs/faults.md): mesh:5x4 without its east corners (5 - 1, 0) and
    # (4, 3), on two ranks. The package reads /faults; the failed channels (the corners' 2 + 2
    # links, both ways: 8) are drawn black, left out of the colour scale and of the busiest, the
    # failed nodes crossed out, both in the legend; the cut and its bound are over the working
    # network (`wormnet info --faults` prints the same).
    fault_file = os.path.join(out, "corners.txt")
    with open(fault_file, "w") as f:
        f.write("node (4,0)\nnode (4,3)\n")
    faulty = os.path.join(out, "faulty.h5")
    run([args.mpiexec, "-n", "2", "--oversubscribe", w, "run", "-t", "mesh:5x4", "-r",
         "west-first", "--faults", fault_file, "--load", "0.1", *quick, "-o", faulty])
    fs = wa.load(faulty)
    coords, src, dst, port, _ = raw_channels(faulty)
    corners = [4 + 5 * 0, 4 + 5 * 3]
    expect_failed = sorted(c for c in range(len(src)) if src[c] in corners or dst[c] in corners)
    check(list(fs.network.failed_nodes) == corners, f"faults: nodes {fs.network.failed_nodes}")
    check(list(fs.network.failed_channels) == expect_failed and len(expect_failed) == 8,
          f"faults: channels {fs.network.failed_channels}, expected {expect_failed}")
    fh = hm.heatmap_of(fs, "utilization", 0)
    check(fh.failed == expect_failed, "heatmap: the failed channels are the drawn-as-failed ones")
    check(not set(fh.busiest) & set(expect_failed), "heatmap: no failed channel numbered")
    for c in expect_failed:
        check(fh.color_of(c) == (0.0, 0.0, 0.0, 1.0), f"failed channel {c} not drawn black")
    with h5py.File(faulty, "r") as f:
        util = utilization(f["points/000"])
    working = [c for c in range(len(src)) if c not in expect_failed]
    check(fh.norm.vmax == util[working].max(), "the colour scale ends at the busiest working "
          "channel")
    fh.figure.canvas.draw()
    img = np.asarray(fh.figure.canvas.buffer_rgba())
    for c in expect_failed:
        seg = fh.layout.segments[fh.layout.segment_channel == c][0]
        x, y = fh.ax.transData.transform(seg.mean(axis=0) * 0.7 + seg[0] * 0.3)
        px = img[int(round(img.shape[0] - y)), int(round(x)), :3].astype(int)
        # Black, or a white dot of the hatching: no colour of the colour map.
        check(px.max() <= 40 or px.min() >= 215, f"failed channel {c} drawn {px.tolist()}")
    labels = [t.get_text() for t in fh.ax.get_legend().get_texts()]
    check(any("failed channel (0 failed links, 8 channels)" in t for t in labels) and
          any("failed node (2)" in t for t in labels), f"heatmap legend: {labels}")
    info = info_json(w, "mesh:5x4", None, ["--faults", fault_file])
    cut = fs.network.bisection()
    check(math.isclose(cut.bound, info["bisection_bound"], rel_tol=1e-12) and
          cut.description == info["bisection"]["cut"] and
          cut.channels_each_way == info["bisection"]["channels_each_way"],
          f"faulty cut {cut} against wormnet info {info['bisection']}")
    with h5py.File(faulty, "r") as f:
        check(math.isclose(cut.bound, float(f["topology"].attrs["bisection_bound"]),
                           rel_tol=1e-12), "faulty cut: the file's bisection_bound")

    # The partition map counts the file's edge cut.
    with h5py.File(torus, "r") as f:
        edge_cut = int(f["partition"].attrs["edge_cut"])
        owner = f["partition/owner"][()]
    check(len(set(owner.tolist())) == 2, "two ranks own the torus")
    _, drawn_cut = hm.draw_partition(tl, sweep.network.owner)
    check(drawn_cut == edge_cut and edge_cut > 0, f"partition: {drawn_cut} links drawn between "
          f"ranks, the file's edge_cut is {edge_cut}")

    # The command line.
    env = dict(os.environ, MPLCONFIGDIR=os.path.join(out, "mpl"))
    script = os.path.join(args.analysis, "heatmap.py")
    png = os.path.join(out, "h4.png")
    r = run([sys.executable, script, h4, "-o", png, "--partition",
             os.path.join(out, "h4_part.png")], env=env)
    with open(png, "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "heatmap.py wrote a PNG")
    with h5py.File(h4, "r") as f:
        top = float(utilization(f["points/001"]).max())
    check(f"max {top:.6g}" in r.stdout and "busiest 1" in r.stdout,
          f"heatmap.py output: {r.stdout}")
    r = run([sys.executable, script, table, "-o", os.path.join(out, "table.png")], env=env)
    check(f"max {t.metrics['pi']:.6g}" in r.stdout, f"table heatmap shows pi: {r.stdout}")
    run([sys.executable, script, mesh, "-o", os.path.join(out, "mesh.png"), "--slice", "Z=1",
         "--quantity", "load"], env=env)
    odd = os.path.join(out, "odd_kind.h5")
    shutil.copyfile(h4, odd)
    with h5py.File(odd, "r+") as f:
        f["topology"].attrs["kind"] = "ring"
        del f["routing/channel_load"]
    bad = os.path.join(out, "not_h5.h5")
    with open(bad, "w") as f:
        f.write("not HDF5\n")
    for argv, needle in (
            ([odd], "no layout for topology kind 'ring'"),
            ([odd, "--quantity", "load"], "no /routing/channel_load"),
            ([h4, "--point", "7"], "no finished point 7"),
            ([mesh, "--slice", "Q=1"], "--slice"),
            ([mesh, "--slice", "X=0"], "not a coordinate outside the plane"),
            ([h4, "--layout", "grid"], "layout 'grid' does not draw a honeycomb"),
            ([h4, "--plane", "0,1"], "the hex layout of a honeycomb has no --plane"),
            ([bad], "cannot open as HDF5")):
        r = run([sys.executable, script, *argv, "-o", os.path.join(out, "x.png")], expect=2,
                env=env)
        lines = r.stderr.strip().splitlines()
        check(len(lines) <= 2 and needle in r.stderr and "Traceback" not in r.stderr,
              f"heatmap.py {' '.join(argv[1:])}: {r.stderr!r} lacks {needle!r}")

    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("pictures: OK")


if __name__ == "__main__":
    main()
