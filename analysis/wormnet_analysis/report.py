"""A report of one run or sweep as one self-contained HTML page (figures embedded as PNG data
URIs): configuration, the load points, latency against accepted traffic, latency
histograms, the warm-up and measurement windows with a verdict on steadiness, the channel
heatmaps, where packets wait (with `--congestion totals`), the partition and the simulation
speed."""

from __future__ import annotations

import base64
import html
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from . import heatmap as hm  # noqa: E402
from . import plots  # noqa: E402
from .channels import QUANTITIES, congestion_values, default_point  # noqa: E402
from .layouts import LayoutError, layout  # noqa: E402
from .results import ResultFileError, Sweep, describe_saturation  # noqa: E402
from .steady import point_steadiness  # noqa: E402

#: At most this many points get a time-series panel (evenly spread, first and last kept).
MAX_SERIES = 8

STYLE = """
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; max-width: 1150px;
       margin: 1em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 13px; margin: 0.4em 0; }
td, th { border: 1px solid #ccc; padding: 2px 7px; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f0f0; text-align: left; }
img { max-width: 100%; display: block; margin: 0.5em 0; }
.bad { color: #b00000; font-weight: bold; }
.ok { color: #006000; }
.meta { color: #555; font-size: 13px; }
pre { background: #f6f6f6; padding: 6px; font-size: 12px; overflow-x: auto; }
nav a { margin-right: 0.9em; font-size: 14px; }
"""


class Markup(str):
    """Text already in HTML."""


def _e(x) -> str:
    return html.escape(str(x))


def _img(fig, alt: str, dpi: int = 90) -> str:
    data = base64.b64encode(plots.png_bytes(fig, dpi=dpi)).decode("ascii")
    plt.close(fig)
    return f'<img alt="{_e(alt)}" src="data:image/png;base64,{data}">'


def _table(header, rows, numeric=None) -> str:
    numeric = numeric or set()
    out = ["<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in header) + "</tr>"]
    for r in rows:
        cells = []
        for i, v in enumerate(r):
            cls = ' class="n"' if i in numeric else ""
            cells.append(f"<td{cls}>{v if isinstance(v, Markup) else _e(v)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _fmt(v, digits: int = 4) -> str:
    if isinstance(v, float):
        if v != v:
            return "-"
        return f"{v:.{digits}g}"
    return str(v)


def _measure(sweep: Sweep) -> tuple:
    c = sweep.config
    warmup = int(c.get("warmup", 0))
    cycles = int(c.get("cycles", 0) or 0)
    return warmup, (cycles - warmup if cycles > 0 else int(c.get("measure", 0)))


def _series_points(points) -> list:
    if len(points) <= MAX_SERIES:
        return list(points)
    idx = np.unique(np.round(np.linspace(0, len(points) - 1, MAX_SERIES)).astype(int))
    return [points[i] for i in idx]


def section_config(s: Sweep) -> str:
    t, r, net = s.topology, s.routing, s.network
    cut = net.bisection()
    yes = {True: "yes", False: "no"}
    rows = [
        ("topology", t.get("spec")),
        ("nodes / links / channels", f"{t.get('nodes')} / {t.get('links')} / {t.get('channels')}"),
        ("diameter", f"{t.get('diameter')} hops"),
        ("bisection cut", f"{cut.description}: {cut.side_a} | {cut.side_b} nodes, "
                          f"{cut.channels_each_way} channels each way"),
        ("bisection bound", f"{_fmt(float(t.get('bisection_bound', 0)), 5)} flits/node/cycle"),
        ("routing", f"{r.get('name')}: {r.get('description', '')}"),
        ("VCs per channel", r.get("vcs")),
        ("minimal / bubble flow control",
         f"{yes[bool(r.get('minimal'))]} / {yes[bool(r.get('bubble_flow_control'))]}"),
        ("saturation rate (N-1)/\u03c0",
         f"{_fmt(float(r.get('saturation_rate', 0)), 5)} flits/node/cycle, uniform traffic"
         + ("" if r.get("saturation_rate") else " (load analysis not run)")),
    ]
    if s.pattern_ideal:
        p = s.pattern_ideal
        rows.append((f"ideal saturation rate of {p['name']}",
                     f"{_fmt(float(p['saturation_rate']), 5)} flits/node/cycle accepted: "
                     f"\u03c0\u209a {_fmt(float(p['pi']), 5)} on the busiest channel over "
                     f"{int(p['pairs'])} pairs, {int(p['senders'])} sending nodes offering "
                     f"1/\u03c0\u209a = {_fmt(float(p['offered_at_ideal']), 5)} each"))
    c = s.config
    for key, text in (("traffic", "traffic"), ("length-min", "message length min (flits)"),
                      ("length-max", "message length max (flits)"), ("buffer", "buffer (flits)"),
                      ("vc-bandwidth", "VC bandwidth"), ("warmup", "warm-up (cycles)"),
                      ("measure", "measurement window (cycles)"),
                      ("stats-window", "statistics window (cycles)"),
                      ("workload", "workload (closed loop)"), ("trace", "trace file"),
                      ("iterations", "iterations"), ("message-size", "message size (flits)"),
                      ("grid", "process grid"), ("mapping", "mapping"),
                      ("drain-limit", "drain limit (cycles)"), ("seed", "seed")):
        if key in c:
            rows.append((text, c[key]))
    return (
        '<h2 id="config">Configuration</h2>'
        + _table(["", ""], rows)
        + "<details><summary>effective configuration (TOML, <code>--config</code> reads it back)"
        + f"</summary><pre>{_e(s.config_text)}</pre></details>"
    )


def section_points(s: Sweep) -> str:
    sm = s.summary
    rate, rate_text = s.ideal_rate()
    rows = []
    for i in range(len(sm["point"])):
        sat = bool(sm["saturated"][i])
        dead = bool(sm["deadlock"][i])
        state = Markup('<span class="bad">deadlock</span>' if dead else
                       '<span class="bad">saturated</span>' if sat else
                       '<span class="ok">no</span>')
        rows.append((int(sm["point"][i]), _fmt(float(sm["offered_load"][i])),
                     _fmt(float(sm["accepted"][i])),
                     _fmt(100 * float(sm["accepted"][i]) / rate, 3) if rate > 0 else "-",
                     _fmt(100 * float(sm["accepted_vs_bisection"][i]), 3),
                     _fmt(float(sm["latency_mean"][i])), _fmt(float(sm["latency_mean_us"][i])),
                     _fmt(float(sm["latency_p99"][i])), _fmt(float(sm["average_hops"][i])),
                     f"{int(sm['delivered'][i])}/{int(sm['labelled'][i])}", state))
    head = ["point", "offered (flits/node/cycle)", "accepted", f"% of {rate_text}",
            "% of bisection", "latency mean (cycles)", "(\u00b5s)", "p99 (cycles)", "hops",
            "delivered/labelled", "saturated"]
    text = ""
    if len(sm["point"]):
        text = (f"<p>{_e(s.label)}: {_e(describe_saturation(s))}.</p>"
                '<p class="meta">Saturated: the simulator\'s flag (accepted traffic below 95% '
                "of offered, the drain limit, or the early stop), which the steadiness table "
                "below shows too. Saturation throughput: the largest accepted traffic of a point "
                "not flagged; peak accepted: the largest of any point.</p>")
    return ('<h2 id="points">Load points</h2>' + text
            + _table(head, rows, numeric=set(range(10))))


def section_latency(s: Sweep) -> str:
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    norm = ("pattern" if s.pattern_ideal else
            "saturation" if s.routing.get("saturation_rate") else "absolute")
    plots.latency_curves(ax, [s], norm=norm)
    fig.tight_layout()
    out = '<h2 id="latency">Latency against accepted traffic</h2>' + _img(fig, "latency curve")
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    plots.latency_histograms(axes[0], s.points, "total")
    axes[0].set_title("creation to tail ejection", fontsize=9)
    plots.latency_histograms(axes[1], s.points, "network")
    axes[1].set_title("head injection to tail ejection (network only)", fontsize=9)
    fig.tight_layout()
    return out + '<h2 id="histograms">Latency histograms</h2>' + _img(fig, "latency histograms")


def section_steady(s: Sweep) -> str:
    warmup, measure = _measure(s)
    rows = []
    for p in s.points:
        st = point_steadiness(s, p)
        cls = "ok" if st.steady else "bad"
        flagged = bool(int(p.attrs.get("saturated", 0)))
        rows.append((p.index, _fmt(float(p.attrs["offered_load"])), st.windows,
                     _fmt(st.backlog_growth, 3), f"{100 * st.occupancy_change:+.0f}%",
                     f"{100 * st.accepted_drift:+.0f}%",
                     Markup('<span class="bad">saturated</span>' if flagged else
                            '<span class="ok">no</span>'),
                     Markup(f'<span class="{cls}">{_e(st.verdict)}</span>')))
    table = _table(["point", "offered", "windows", "backlog growth (flits/node/cycle)",
                    "occupancy change", "accepted drift", "saturated", "verdict"], rows,
                   numeric={0, 1, 2, 3, 4, 5})
    chosen = _series_points(s.points)
    ncols = 2 if len(chosen) > 1 else 1
    nrows = math.ceil(len(chosen) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.6 * ncols, 2.9 * nrows), squeeze=False)
    for ax, p in zip(axes.flat, chosen):
        plots.timeseries(ax, p, warmup, measure, s.network.nodes,
                         point_steadiness(s, p).verdict.split(":")[0])
    for ax in list(axes.flat)[len(chosen):]:
        ax.set_axis_off()
    fig.tight_layout()
    note = (f"<p class=\"meta\">Warm-up {warmup} cycles (grey), measurement window {measure} "
            "cycles, then the drain (blue) until every labelled packet is delivered. Each row "
            "of the time series is one statistics window. Saturated: the simulator's flag, "
            "as in the load points above; a flagged point is never steady. Verdicts: the "
            "flag, then any least-squares trend over the measurement window's windows that "
            "is more than 4 standard errors from zero and large (backlog growth above 5% of "
            "the offered load, occupancy +25%, accepted traffic \u00b110%).</p>")
    return ('<h2 id="steady">Warm-up and measurement windows: is the run steady?</h2>' + note
            + table + _img(fig, "time series"))


def section_heatmaps(s: Sweep, quantity: str, point: int | None) -> str:
    out = ['<h2 id="heatmap">Channel heatmap</h2>']
    try:
        lay = layout(s.network)
    except LayoutError as e:
        return out[0] + f"<p>no drawing: {_e(e)}</p>"
    shown = []
    if s.points:
        shown.append((quantity, point))
    if s.channel_load is not None:
        shown.append(("load", None))
    if s.pattern_channel_load is not None:
        shown.append(("pattern-load", None))
    for q, p in shown:
        h = hm.heatmap_of(s, q, p, width=9.5)
        out.append(_img(h.figure, f"heatmap of {q}"))
        net = lay.network
        rows = [(k, net.channel_label(c), _fmt(float(h.values[c]), 5))
                for k, c in enumerate(h.busiest, 1)]
        out.append(_table(["#", "busiest channels", QUANTITIES[q]], rows, numeric={0, 2}))
    if s.points and not has_congestion(s):
        out.append('<p class="meta">Where packets wait (the waits for a VC, for credits and '
                   "for the switch, buffer occupancy, Duato's escape VCs): rerun with "
                   "<code>--congestion totals</code>.</p>")
    return "\n".join(out)


#: Channels in the table of "Where packets wait", busiest by blocked cycles first.
WAIT_ROWS = 10
#: The channel series' table lists every window up to this many, else the first and last
#: three and those drawn.
SERIES_ROWS = 24


def has_congestion(s: Sweep) -> bool:
    """Whether any point of the file holds congestion counts (`--congestion totals`)."""
    return any(p.congestion is not None for p in s.points)


def busiest_blocked(s: Sweep, index: int, top: int = WAIT_ROWS) -> list:
    """Channel ids of point `index` by blocked cycles (summed over the VCs), busiest first
    (ties: lower channel id first), at most `top`."""
    blocked = congestion_values(s, "blocked", s.point(index))
    return [int(c) for c in np.argsort(-blocked, kind="stable")[:top]]


def section_waits(s: Sweep, point: int | None) -> str:
    """Where packets wait at a load point (the heatmap's): the channels with the most blocked
    cycles, VC by VC; heatmaps of blocked cycles and occupancy; under duato the escape and
    adaptive flits per load point and the escape share's heatmap."""
    index = default_point(s) if point is None else point
    p = s.point(index)
    out = ['<h2 id="waits">Where packets wait</h2>']
    if p.congestion is None:
        return out[0] + (f"<p>point {index} has no congestion counts (the run had "
                         "--congestion off)</p>")
    c, net = p.congestion, s.network
    escape_vcs = int(c["escape_vcs"])
    vcs = c["vc_wait"].shape[1]
    window = int(c.get("window_cycles", 0))
    out.append(f'<p class="meta">Point {index} (offered {_fmt(float(p.attrs["offered_load"]))}'
               f', accepted {_fmt(float(p.attrs["accepted"]))} flits/node/cycle), over its '
               f"measurement window of {window} cycles. A channel's waits are its input VCs' "
               "at its target router, one stage per cycle: vc wait (a routed head refused an "
               "output VC), credit wait (no credit downstream), switch wait (lost the "
               "switch); blocked is their sum; occupancy the mean flits buffered. "
               "docs/simulator.md defines them.</p>")
    rows = []
    waits = ("vc_wait", "credit_wait", "switch_wait")
    for k, ch in enumerate(busiest_blocked(s, index), 1):
        per_vc = [tuple(int(c[w][ch, v]) for w in waits) for v in range(vcs)]
        total = tuple(sum(x[i] for x in per_vc) for i in range(3))
        rows.append((k, net.channel_label(ch), "all", *total, sum(total),
                     _fmt(float(c["occupancy"][ch].sum()), 4), int(c["vc_flits"][ch].sum())))
        for v in range(vcs):
            name = f"{v} (escape)" if (escape_vcs >> v) & 1 else str(v)
            rows.append(("", "", name, *per_vc[v], sum(per_vc[v]),
                         _fmt(float(c["occupancy"][ch, v]), 4), int(c["vc_flits"][ch, v])))
    out.append(f"<p>The {len(rows) // (vcs + 1)} channels with the most blocked cycles, each "
               "with its VCs:</p>")
    out.append(_table(["#", "channel", "VC", "vc wait (cycles)", "credit wait (cycles)",
                       "switch wait (cycles)", "blocked (cycles)", "occupancy (flits)",
                       "flits"], rows, numeric={0, 3, 4, 5, 6, 7, 8}))
    try:
        fig, _ = hm.panels(s, ["blocked", "occupancy"], index, ncols=2, top=5,
                           panel_width=5.6)
        out.append(_img(fig, "heatmaps of blocked cycles and occupancy"))
    except LayoutError as e:
        out.append(f"<p>no drawing: {_e(e)}</p>")
    if "escape_flits" in c:
        out.append(section_escape(s, index))
    if p.channel_series is not None:
        out.append(section_series(s, index))
    return "\n".join(out)


def section_series(s: Sweep, point: int | None) -> str:
    """The channels over time at a load point (`--congestion series`): small multiples of the
    per-window utilization over the warm-up, measurement and drain, and of the per-window
    blocked cycles, and a table of each window's cycles, phase, flits over all channels and
    busiest channel, blocked cycles over all channels and most blocked channel."""
    from .channels import series_blocked, series_windows, window_phase

    index = default_point(s) if point is None else point
    p = s.point(index)
    out = ['<h3 id="series">The channels over time</h3>']
    flits, ends = series_windows(s, p)
    try:
        blocked = series_blocked(s, p)
    except ResultFileError:  # a file from before the blocked-time series
        blocked = None
    drawn = hm.series_windows_drawn(ends)
    out.append(f'<p class="meta">Point {index}: {len(ends)} statistics windows, each channel\'s '
               "flits per window (<code>--congestion series</code>); the panels show "
               f"{len(drawn)} of them spread over the run on one colour scale, utilization = "
               "flits / cycles of the window; blocked = the cycles a channel's input VCs "
               "waited for a VC, a credit or the switch (summed over its VCs), counted inside "
               "the measurement window only (0 in the warm-up and the drain).</p>")
    rows = []
    for w in range(len(ends)):
        start = int(ends[w - 1]) if w > 0 else 0
        end = int(ends[w])
        column = flits[:, w]
        busiest = int(np.argmax(column))
        row = (w, f"{start}\u2013{end}", window_phase(s, start, end), int(column.sum()),
               s.network.channel_label(busiest), int(column[busiest]))
        if blocked is not None:
            waits = blocked[:, w]
            most = int(np.argmax(waits))
            row += ((int(waits.sum()), s.network.channel_label(most), int(waits[most]))
                    if waits[most] > 0 else (0, "\u2013", 0))
        rows.append(row)
    if len(rows) > SERIES_ROWS:  # the first and last windows, and those drawn
        keep = set(range(3)) | set(range(len(rows) - 3, len(rows))) | set(drawn)
        rows = [r for r in rows if r[0] in keep]
    head = ["window", "cycles", "phase", "flits (all channels)", "busiest channel", "its flits"]
    numeric = {0, 3, 5}
    if blocked is not None:
        head += ["blocked (cycles, all channels)", "most blocked channel", "its blocked cycles"]
        numeric |= {6, 8}
    out.append(_table(head, rows, numeric=numeric))
    try:
        fig, _ = hm.series_panels(s, drawn, index, ncols=3, top=3, panel_width=4.2)
        out.append(_img(fig, "the channels over time"))
        if blocked is not None:
            fig, _ = hm.series_panels(s, drawn, index, quantity="blocked", ncols=3, top=3,
                                      panel_width=4.2)
            out.append(_img(fig, "the channels' blocked cycles over time"))
    except LayoutError as e:
        out.append(f"<p>no drawing: {_e(e)}</p>")
    return "\n".join(out)


def section_escape(s: Sweep, index: int) -> str:
    """Duato's escape VCs against its adaptive ones: flits on each per load point, and the
    escape share's heatmap at point `index`."""
    rows = []
    for p in s.points:
        c = p.congestion
        if c is None or "escape_flits" not in c:
            continue
        escape, adaptive = int(c["escape_flits"].sum()), int(c["adaptive_flits"].sum())
        share = escape / (escape + adaptive) if escape + adaptive else float("nan")
        blocked = int((c["vc_wait"].sum() + c["credit_wait"].sum() + c["switch_wait"].sum()))
        rows.append((p.index, _fmt(float(p.attrs["offered_load"])),
                     _fmt(float(p.attrs["accepted"])), escape, adaptive, _fmt(share, 3),
                     blocked,
                     Markup('<span class="bad">saturated</span>' if int(p.attrs.get(
                         "saturated", 0)) else '<span class="ok">no</span>')))
    escape_vcs = int(s.point(index).congestion["escape_vcs"])
    names = [str(v) for v in range(64) if (escape_vcs >> v) & 1]
    out = ['<h3 id="escape">Escape against adaptive VCs</h3>',
           f'<p class="meta">Escape VC(s) {", ".join(names)} of {s.routing.get("vcs", "?")}: '
           "flits that crossed a channel on an escape VC or on an adaptive one in the "
           "measurement window, over every channel; escape share = escape / (escape + "
           "adaptive).</p>",
           _table(["point", "offered", "accepted", "escape flits", "adaptive flits",
                   "escape share", "blocked (cycles)", "saturated"], rows,
                  numeric={0, 1, 2, 3, 4, 5, 6})]
    try:
        h = hm.heatmap_of(s, "escape-share", index, width=8.0)
        out.append(_img(h.figure, "heatmap of the escape share"))
    except LayoutError as e:
        out.append(f"<p>no drawing: {_e(e)}</p>")
    return "\n".join(out)


def section_partition(s: Sweep) -> str:
    p = s.network.partition or {}
    rows = [("method", p.get("method", "?")), ("ranks", p.get("ranks", "?")),
            ("edge cut (links between ranks)", p.get("edge_cut", "?")),
            ("routers per rank", f"{p.get('smallest_part', '?')} .. {p.get('largest_part', '?')}"),
            ("lookahead (cycles)", p.get("lookahead", "?"))]
    out = '<h2 id="partition">Partition</h2>' + _table(["", ""], rows)
    if s.network.owner is not None and int(p.get("ranks", 1)) > 1:
        try:
            fig, _ = hm.draw_partition(layout(s.network), s.network.owner,
                                       title=f"{s.network.spec} over {p.get('ranks', '?')} ranks",
                                       width=6.5)
            out += _img(fig, "partition")
        except LayoutError as e:
            out += f"<p>no drawing: {_e(e)}</p>"
    return out


def section_speed(s: Sweep) -> str:
    n = s.network.nodes
    rows = []
    for pt in s.points:
        a = pt.attrs
        wall = float(a.get("wall_seconds", 0.0))
        cycles = int(a.get("cycles", 0))
        hops = int(a.get("flit_hops", 0))
        per = (lambda x: _fmt(x / wall, 3)) if wall > 0 else (lambda x: "-")
        rows.append((pt.index, cycles, _fmt(wall, 3), per(cycles), per(float(n) * cycles),
                     per(hops)))
    total = sum(float(pt.attrs.get("wall_seconds", 0.0)) for pt in s.points)
    return ('<h2 id="speed">Speed</h2>'
            + f"<p>{len(s.points)} points in {total:.3g} s of wall-clock time on "
            + f"{_e(s.root.get('ranks', '?'))} rank(s).</p>"
            + _table(["point", "cycles", "wall (s)", "cycles/s", "router-cycles/s",
                      "flit-hops/s"], rows, numeric=set(range(6))))


def report_html(s: Sweep, quantity: str = "utilization", point: int | None = None) -> str:
    """The whole report of a loaded result file."""
    title = f"wormnet report: {s.routing.get('name', '?')} on {s.topology.get('spec', '?')}"
    status = s.status if s.status == "complete" else f'<span class="bad">{_e(s.status)}</span>'
    meta = (f'<p class="meta">{_e(s.path)} \u2014 status {status}, <code>wormnet '
            f"{_e(s.command)}</code>, wormnet {_e(s.root.get('wormnet_version', '?'))} "
            f"({_e(s.root.get('git_sha', '?'))}), {_e(s.root.get('ranks', '?'))} rank(s), "
            f"{len(s.points)} load point(s).</p>")
    if s.is_workload:
        # A closed loop offers no load: its completion, iterations, critical path and
        # messages take the place of the load points, latency curve and steadiness.
        from . import workload_report

        title += f", workload {s.workload.name}"
        links = (("config", "configuration"), ("workload", "workload"),
                 ("iterations", "iterations"), ("critical", "critical path"),
                 ("timeline", "timeline"), ("msglatency", "message latency"),
                 ("heatmap", "heatmap"), ("partition", "partition"), ("speed", "speed"))
        body = [section_config(s)] + workload_report.sections(s, sys.modules[__name__])
    else:
        links = (("config", "configuration"), ("points", "load points"),
                 ("latency", "latency"), ("histograms", "histograms"),
                 ("steady", "steadiness"), ("heatmap", "heatmap"), ("partition", "partition"),
                 ("speed", "speed"))
        body = [section_config(s), section_points(s)]
        if s.points:
            body += [section_latency(s), section_steady(s)]
    body.append(section_heatmaps(s, quantity, point))
    if has_congestion(s):
        links = (*links[:-2], ("waits", "where packets wait"), *links[-2:])
        body.append(section_waits(s, point))
    body += [section_partition(s), section_speed(s)]
    nav = "<nav>" + "".join(f'<a href="#{k}">{v}</a>' for k, v in links) + "</nav>"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{_e(title)}</h1>{meta}{nav}" + "\n".join(body) + "</body></html>\n")
