"""The sections of a report that are a closed-loop workload's own (report.py puts them in place
of the load points, latency curve and steadiness of a load sweep): the workload and its
completion, the iterations, the critical path and its breakdown, a timeline of every message
per process, and the message latencies. Figures are matplotlib figures; the HTML helpers are
report.py's."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402

from .results import Sweep  # noqa: E402
from .workload import Workload  # noqa: E402

#: Colours of the three parts of the critical path (and of a message's life).
PART_COLORS = {"wait": "#bdbdbd", "compute": "#6aa84f", "queueing": "#f2a541",
               "network": "#2a7ab0", "local": "#8e6bb0"}
#: The timeline draws at most this many messages (evenly spread over the ids, the critical
#: path always); the figure says when it left some out.
TIMELINE_MESSAGES = 40000
#: At most this many rows of the iteration and critical-path tables (first and last ones).
TABLE_ROWS = 24


def breakdown_figure(w: Workload):
    """The critical path as one horizontal bar: wait, compute, queueing, network and local
    cycles, to scale with the completion time."""
    b = w.breakdown()
    fig, ax = plt.subplots(figsize=(8.5, 1.5))
    left = 0
    for part, cycles in b.items():
        ax.barh([0], [cycles], left=left, color=PART_COLORS[part], edgecolor="white")
        if cycles > 0.06 * max(1, w.completion):
            ax.text(left + cycles / 2, 0, f"{part}\n{cycles}", ha="center", va="center",
                    fontsize=8, color="black" if part not in ("network", "local") else "white")
        left += cycles
    ax.set_xlim(0, max(1, left))
    ax.set_yticks([])
    ax.set_xlabel("cycles along the critical path (their sum is the completion time)",
                  fontsize=8)
    ax.tick_params(labelsize=7)
    parts = " + ".join(f"{k} {v}" for k, v in b.items())
    ax.set_title(f"critical path: {len(w.critical_path)} messages; {parts} = {w.completion} "
                 "cycles", fontsize=9)
    fig.tight_layout()
    return fig


def iterations_figure(w: Workload):
    """Each iteration as a bar from its first issue to its last delivery (overlapping bars:
    the iterations pipeline), its message count beside it."""
    frame = w.iterations_frame()
    n = len(frame)
    fig, ax = plt.subplots(figsize=(8.5, min(6.0, 1.0 + 0.22 * n)))
    used = frame["messages"] > 0
    ax.barh(frame.index[used], frame["span"][used], left=frame["start"][used], height=0.7,
            color="#2a7ab0")
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_ylabel("iteration", fontsize=8)
    ax.set_xlabel("cycle (bar: first issue to last delivery of the iteration's messages)",
                  fontsize=8)
    ax.tick_params(labelsize=7)
    ax.set_xlim(0, max(1, int(frame["end"].max()) if n else 1))
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("iterations", fontsize=9)
    fig.tight_layout()
    return fig


def timeline_figure(w: Workload):
    """Every message on the row of its source process (or node, for a trace): a light segment
    while it waits in the source queue (issue to head injection), a dark one in the network
    (head injection to tail delivery), coloured by iteration; the critical path in red."""
    m = w.messages
    ids = np.arange(len(m.get("source", [])))
    never = np.iinfo(np.uint64).max
    done = (m["issued"] != never) & (m["injected"] != never) & (m["delivered"] != never)
    ids = ids[done]
    shown = ids
    if len(ids) > TIMELINE_MESSAGES:
        shown = ids[np.unique(np.linspace(0, len(ids) - 1, TIMELINE_MESSAGES).astype(int))]
    crit = np.asarray(w.critical_path, dtype=np.int64)
    node_process = w.node_process()
    src = m["source"].astype(np.int64)
    if node_process is not None and len(node_process) > int(src.max(initial=0)):
        rows, what = node_process[src], "process"
    else:
        rows, what = src, "source node"
    nrows = int(rows.max(initial=0)) + 1
    fig, ax = plt.subplots(figsize=(9.5, min(7.5, 1.6 + 0.045 * nrows)))
    lw = float(np.clip(250.0 / max(1, nrows), 0.4, 5.0))
    issued = m["issued"].astype(np.float64)
    injected = m["injected"].astype(np.float64)
    delivered = m["delivered"].astype(np.float64)
    y = rows.astype(np.float64)
    q = np.stack([np.stack([issued[shown], y[shown]], 1),
                  np.stack([injected[shown], y[shown]], 1)], 1)
    ax.add_collection(LineCollection(q, colors="#f2c48a", linewidths=lw, zorder=2))
    iters = m["iteration"].astype(np.int64)
    cmap = plt.get_cmap("viridis")
    top = max(1, int(iters.max(initial=0)))
    net = np.stack([np.stack([injected[shown], y[shown]], 1),
                    np.stack([delivered[shown], y[shown]], 1)], 1)
    ax.add_collection(LineCollection(net, colors=cmap(0.85 * iters[shown] / top),
                                     linewidths=lw, zorder=3))
    if len(crit):
        c = np.stack([np.stack([issued[crit], y[crit]], 1),
                      np.stack([delivered[crit], y[crit]], 1)], 1)
        ax.add_collection(LineCollection(c, colors="#d62728", linewidths=max(1.2, lw * 1.3),
                                         zorder=4))
        # The path's hand-overs: from a message's delivery (or issue) to the next one's row.
        xs = np.column_stack([delivered[crit[:-1]], issued[crit[1:]]]).ravel()
        ys = np.column_stack([y[crit[:-1]], y[crit[1:]]]).ravel()
        ax.plot(xs, ys, color="#d62728", lw=0.6, alpha=0.7, zorder=4)
    ax.set_xlim(0, max(1.0, float(delivered[ids].max()) if len(ids) else 1.0))
    ax.set_ylim(nrows - 0.5, -0.5)
    ax.set_xlabel("cycle", fontsize=8)
    ax.set_ylabel(what, fontsize=8)
    ax.tick_params(labelsize=7)
    handles = [plt.Line2D([], [], color="#f2c48a", lw=3, label="in the source queue"),
               plt.Line2D([], [], color=cmap(0.4), lw=3,
                          label="in the network (colour: iteration)"),
               plt.Line2D([], [], color="#d62728", lw=2, label="critical path")]
    ax.legend(handles=handles, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.08),
              ncol=3, frameon=False)
    note = "" if len(shown) == len(ids) else f" ({len(shown)} of {len(ids)} drawn)"
    ax.set_title(f"every message on its {what}'s row{note}", fontsize=9)
    fig.tight_layout()
    return fig


def latency_figure(w: Workload):
    """The distribution of the messages' latency (issue to tail delivery) and of its two
    parts, queueing and network, over all delivered messages."""
    frame = w.messages_frame().dropna(subset=["delivered", "injected", "issued"])
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    if len(frame) == 0:
        ax.text(0.5, 0.5, "no delivered message", ha="center", transform=ax.transAxes)
        return fig
    hi = float(frame["latency"].max()) + 1.0
    edges = np.linspace(0, hi, min(80, int(hi) + 1) + 1)
    for col, color in (("latency", "black"), ("network", PART_COLORS["network"]),
                       ("queueing", PART_COLORS["queueing"])):
        v = frame[col].to_numpy(dtype=float)
        counts, _ = np.histogram(v, bins=edges)
        ax.stairs(counts / len(v), edges, color=color, lw=1.3,
                  label=f"{col}: mean {v.mean():.1f}, max {v.max():.0f} cycles")
    ax.set_xlabel("cycles", fontsize=8)
    ax.set_ylabel("fraction of messages", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("message latency: issue to tail delivery = queueing + network", fontsize=9)
    fig.tight_layout()
    return fig


def _rows_shown(n: int) -> list:
    if n <= TABLE_ROWS:
        return list(range(n))
    half = TABLE_ROWS // 2
    return list(range(half)) + [None] + list(range(n - half, n))


def sections(s: Sweep, h) -> list:
    """The workload's sections as HTML strings; `h` is report.py (its _e, _fmt, _img,
    _table, Markup)."""
    w = s.workload
    b = w.breakdown()
    us = w.flit_rate
    status = (h.Markup('<span class="ok">complete</span>') if w.complete else
              h.Markup('<span class="bad">incomplete: the drain limit ended the run with '
                       'messages undelivered</span>'))
    m = w.messages
    never = np.iinfo(np.uint64).max
    delivered = int(np.sum(m["delivered"] != never)) if "delivered" in m else 0
    a = w.attrs
    grid = a.get("grid")
    grid_text = "x".join(str(int(g)) for g in grid) if grid is not None and len(grid) else "-"
    rows = [("workload", w.label), ("status", status),
            ("messages", f"{delivered} of {int(a.get('messages', 0))} delivered"),
            ("iterations", int(a.get("iterations", 0))),
            ("process grid", grid_text),
            ("completion", f"{w.completion} cycles ({w.completion / us:.4g} \u00b5s)"
             if w.complete else "-"),
            ("critical path", f"{len(w.critical_path)} messages: "
                              + " + ".join(f"{k} {v}" for k, v in b.items())
                              + f" = {sum(b.values())} cycles")]
    if s.points:
        p = s.points[0].attrs
        rows.append(("traffic delivered", f"{h._fmt(float(p['accepted']), 5)} flits/node/cycle "
                     f"over the run ({h._fmt(100 * float(p['accepted_vs_bisection']), 3)}% of "
                     "the bisection bound)"))
    out = ['<h2 id="workload">Workload</h2>' + h._table(["", ""], rows)]
    if w.complete and len(w.critical_path):
        out.append(h._img(breakdown_figure(w), "critical path breakdown"))
    if s.points and len(s.points[0].timeseries.get("cycle_end", [])) >= 4:
        from . import plots

        fig, ax = plt.subplots(figsize=(8.5, 3.0))
        plots.timeseries(ax, s.points[0], 0, w.completion, s.network.nodes)
        ax.set_title("traffic over the run, one point per statistics window "
                     f"({int(s.config.get('stats-window', 0))} cycles)", fontsize=9)
        fig.tight_layout()
        out.append(h._img(fig, "traffic over the run"))

    frame = w.iterations_frame()
    it_rows = []
    for k in _rows_shown(len(frame)):
        if k is None:
            it_rows.append(("...",) * 8)
            continue
        r = frame.iloc[k]
        it_rows.append((int(frame.index[k]), int(r["start"]), int(r["end"]), int(r["span"]),
                        int(r["cycles"]), int(r["messages"]),
                        h._fmt(float(r["mean_queueing"])), h._fmt(float(r["mean_network"]))))
    out.append('<h2 id="iterations">Completion per iteration</h2>'
               '<p class="meta">start: the first issue of a message of the iteration; end: its '
               'last delivery; length = end - start; increment = end - the previous '
               "iteration's end (iterations of a pipelined motif overlap, so the increments "
               "are not their lengths). Cycles.</p>"
               + h._table(["iteration", "start", "end", "length", "increment", "messages",
                           "mean queueing", "mean network"], it_rows, numeric=set(range(8)))
               + h._img(iterations_figure(w), "iterations"))

    cp = w.critical_path_frame()
    cp_rows = []
    for k in _rows_shown(len(cp)):
        if k is None:
            cp_rows.append(("...",) * 12)
            continue
        r = cp.iloc[k]
        cp_rows.append((k, int(r["message"]), int(r["source"]), int(r["destination"]),
                        int(r["iteration"]), int(r["issued"]), int(r["delivered"]),
                        int(r["wait"]), int(r["compute"]), int(r["queueing"]),
                        int(r["network"]), int(r["local"])))
    out.append('<h2 id="critical">Critical path</h2>'
               '<p class="meta">From the last delivery back through the dependency satisfied '
               "last: each step adds its computation, its wait (from that dependency to its "
               "issue, less the computation) and, when the next message waited for its "
               "delivery, its queueing and network time (or its copy time within a node: "
               "local). The columns sum to the completion time.</p>"
               + h._table(["step", "message", "source", "destination", "iteration", "issued",
                           "delivered", "wait", "compute", "queueing", "network", "local"],
                          cp_rows, numeric=set(range(12))))
    out.append('<h2 id="timeline">Timeline of the messages</h2>'
               + h._img(timeline_figure(w), "message timeline"))
    out.append('<h2 id="msglatency">Message latency</h2>'
               + h._img(latency_figure(w), "message latency distribution"))
    return out
