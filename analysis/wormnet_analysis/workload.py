"""Reader of a closed-loop workload's results: the group /workload of `wormnet run --workload`
(layout: docs/hdf5-schema.md, "/workload"; the model: docs/workloads.md).

    sweep = load("halo.h5")
    w = sweep.workload                   # None for a load sweep
    w.completion, w.complete             # cycle of the last delivery; every message delivered?
    w.breakdown()                        # the critical path's wait / compute / queueing /
                                         # network / local cycles
    w.iterations_frame()                 # one row per iteration: start, end, span, ...
    w.messages_frame()                   # one row per message: ends, flits, its cycles
    w.critical_path_frame()              # the path's messages in order, what each step adds

Cycles are simulated cycles; microseconds are cycles / the file's flit rate.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ._h5 import attrs

#: A message time that never came (the writer's 2^64 - 1): the message was not issued,
#: injected or delivered before the run ended.
NEVER = np.iinfo(np.uint64).max

#: The datasets of /workload/iterations and /workload/messages.
ITERATION_COLUMNS = ("start", "end", "cycles", "messages", "flits", "mean_queueing",
                     "mean_network", "max_network")
MESSAGE_COLUMNS = ("source", "destination", "flits", "iteration", "compute", "issued",
                   "injected", "delivered")


@dataclasses.dataclass
class Workload:
    """Everything /workload holds."""

    attrs: dict  #: source, trace, mapping, grid, message_flits, messages, iterations, ...
    process_node: np.ndarray  #: (P,) node of each process (empty for a trace)
    critical_path: np.ndarray  #: message ids, first to last
    iterations: dict  #: column -> (I,) array (ITERATION_COLUMNS)
    messages: dict  #: column -> (M,) array (MESSAGE_COLUMNS; NEVER = not reached)
    flit_rate: float  #: flits per microsecond per channel (cycles -> us)

    @property
    def name(self) -> str:
        """The motif's name, or "trace"."""
        return str(self.attrs.get("source", "?"))

    @property
    def complete(self) -> bool:
        """Whether every message was delivered (else the drain limit ended the run)."""
        return bool(self.attrs.get("complete", 0))

    @property
    def completion(self) -> int:
        """The cycle of the last delivery (0 when the workload did not complete)."""
        return int(self.attrs.get("completion_cycles", 0))

    @property
    def label(self) -> str:
        """One line: the motif (or trace), its message size, iterations and mapping."""
        a = self.attrs
        if self.name == "trace":
            return f"trace {a.get('trace', '')}: {int(a.get('messages', 0))} messages"
        return (f"{self.name}, {int(a.get('iterations', 0))} iteration(s) of "
                f"{int(a.get('message_flits', 0))}-flit messages, {a.get('mapping', '')} "
                f"mapping")

    def breakdown(self) -> dict:
        """The critical path's cycles: wait + compute + queueing + network + local =
        completion (files written before computation and processes per node: 0 for those)."""
        a = self.attrs
        return {"wait": int(a.get("path_wait_cycles", 0)),
                "compute": int(a.get("path_compute_cycles", 0)),
                "queueing": int(a.get("path_queueing_cycles", 0)),
                "network": int(a.get("path_network_cycles", 0)),
                "local": int(a.get("path_local_cycles", 0))}

    def node_process(self) -> np.ndarray | None:
        """(N,) the process on each node, -1 where there is none; None for a trace."""
        if len(self.process_node) == 0:
            return None
        n = int(self.process_node.max()) + 1
        out = np.full(n, -1, dtype=np.int64)
        out[self.process_node.astype(np.int64)] = np.arange(len(self.process_node))
        return out

    def iterations_frame(self):
        """One row per iteration label (index: iteration): start (its first issue), end (its
        last delivery), span = end - start (how long the iteration itself took), cycles = end
        minus the previous iteration's end (the increment to the completion; iterations of a
        pipelined motif such as sweep2d overlap, so this is not their length), messages,
        flits, mean_queueing, mean_network, max_network (cycles)."""
        import pandas as pd

        frame = pd.DataFrame({c: self.iterations[c] for c in ITERATION_COLUMNS
                              if c in self.iterations})
        frame.index.name = "iteration"
        empty = frame["messages"] == 0
        frame.insert(2, "span", (frame["end"].astype(np.int64) - frame["start"].astype(np.int64))
                     .where(~empty, 0))
        return frame

    def messages_frame(self):
        """One row per message (index: message id): source, destination (nodes), flits,
        iteration, compute (its computation before the issue, cycles; 0 in older files),
        issued, injected, delivered (cycles; <NA> when never reached), queueing = injected -
        issued, network = delivered - injected, latency = delivered - issued, local (source
        and destination on one node: the message never entered the network) and critical (on
        the critical path)."""
        import pandas as pd

        frame = pd.DataFrame({c: self.messages[c].astype(np.int64) for c in
                              ("source", "destination", "flits", "iteration")})
        n = len(frame)
        frame["compute"] = self.messages.get("compute", np.zeros(n, np.uint64)).astype(np.int64)
        for c in ("issued", "injected", "delivered"):
            v = self.messages[c]
            frame[c] = pd.array(np.where(v == NEVER, 0, v).astype(np.int64), dtype="Int64")
            frame.loc[v == NEVER, c] = pd.NA
        frame["queueing"] = frame["injected"] - frame["issued"]
        frame["network"] = frame["delivered"] - frame["injected"]
        frame["latency"] = frame["delivered"] - frame["issued"]
        frame["local"] = frame["source"] == frame["destination"]
        frame["critical"] = False
        frame.loc[self.critical_path.astype(np.int64), "critical"] = True
        frame.index.name = "message"
        return frame

    def critical_path_frame(self):
        """The critical path, first message to last (index: position on the path): message,
        source, destination, issued, injected, delivered, then what each step adds to the
        completion: compute (its computation before the issue), wait (from the satisfaction
        of the dependency it waited for, or from cycle 0 for the first, to its issue, less
        the computation), and for a message whose delivery the next one waited for (a
        receive; and the last message) queueing (issue to head injection) and network (head
        injection to tail delivery), or local (issue to delivery) for a message within a
        node. A step from a send of the same source (its program order) adds no queueing,
        network or local time. The columns sum to the breakdown() (docs/workloads.md,
        "Results")."""
        import pandas as pd

        m = self.messages
        compute = m.get("compute", np.zeros(len(m["source"]), np.uint64))
        ids = self.critical_path.astype(np.int64)
        rows = []
        for k, i in enumerate(ids):
            issued, injected, delivered = (int(m[c][i]) for c in
                                           ("issued", "injected", "delivered"))
            if k == 0:
                wait = issued
            else:
                p = ids[k - 1]
                received = int(m["destination"][p]) == int(m["source"][i])
                at = int(m["delivered"][p]) if received else int(m["issued"][p])
                wait = issued - at
            wait -= int(compute[i])
            # This message's queueing and network count when the next message waited for its
            # delivery (the next one's source received it), and for the last message.
            counted = k == len(ids) - 1 or int(m["destination"][i]) == int(
                m["source"][ids[k + 1]])
            local = int(m["destination"][i]) == int(m["source"][i])
            rows.append({"message": int(i), "source": int(m["source"][i]),
                         "destination": int(m["destination"][i]),
                         "iteration": int(m["iteration"][i]), "issued": issued,
                         "injected": injected, "delivered": delivered, "wait": wait,
                         "compute": int(compute[i]),
                         "queueing": injected - issued if counted and not local else 0,
                         "network": delivered - injected if counted and not local else 0,
                         "local": delivered - issued if counted and local else 0})
        frame = pd.DataFrame(rows, columns=["message", "source", "destination", "iteration",
                                            "issued", "injected", "delivered", "wait",
                                            "compute", "queueing", "network", "local"])
        frame.index.name = "step"
        return frame


def read_workload(f, flit_rate: float) -> Workload | None:
    """The /workload group of an open result file, or None when the run was not a workload."""
    if "workload" not in f:
        return None
    g = f["workload"]
    its = g["iterations"] if "iterations" in g else {}
    msgs = g["messages"] if "messages" in g else {}
    return Workload(
        attrs=attrs(g),
        process_node=g["process_node"][()] if "process_node" in g else np.zeros(0, np.uint64),
        critical_path=g["critical_path"][()] if "critical_path" in g else np.zeros(0, np.uint64),
        iterations={c: its[c][()] for c in ITERATION_COLUMNS if c in its},
        messages={c: msgs[c][()] for c in MESSAGE_COLUMNS if c in msgs},
        flit_rate=flit_rate,
    )
