"""The network of a wormnet file: nodes, their coordinates, the directed channels and the
balanced straight cut behind the bisection bound.

A result file stores the network (`/topology`: kind, coords, channel_source/dest/port); a
routing-table file names its torus only, so the network is rebuilt from the spec with
wormnet's own numbering (from_spec):

>>> net = from_spec("torus:4x3")
>>> net.nodes, net.channels, net.port_labels
(12, 48, ['X+', 'X-', 'Y+', 'Y-'])
>>> net.channel_label(net.channel((3, 0), "X+"))      # the wrap-around channel
'(3,0) X+ -> (0,0)'
>>> net.bisection().description, net.bisection().channels_each_way
('X <= 1 | X > 1', 6)
>>> from_spec("honeycomb:2").coords[:3].tolist()      # H_t in Stojmenovic's x, y, z
[[-1, 0, 2], [-1, 1, 1], [-1, 2, 0]]
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from ._h5 import FileError, attrs, decode

#: Topology kinds the readers and the layouts know (the /topology attribute `kind`).
KINDS = ("honeycomb", "honeycomb-torus", "torus", "mesh")
#: Kinds whose nodes carry Stojmenovic's (x, y, z): H_t and the honeycomb tori (HT_T and the
#: rectangular and rhombic ones all store kind "honeycomb-torus").
HONEYCOMB_KINDS = ("honeycomb", "honeycomb-torus")

#: Dimension names as wormnet prints them (Topology::dim_name).
DIM_NAMES = ("X", "Y", "Z", "K", "L", "M")


def port_label(p: int) -> str:
    """Port p: dimension p // 2, direction + for even p ("X+", "X-", "Y+", ...)."""
    return DIM_NAMES[p // 2] + ("-" if p & 1 else "+")


@dataclasses.dataclass(frozen=True)
class BisectionCut:
    """A balanced straight cut: side A holds the nodes whose coordinate `coordinate` is at
    most `split`, side B the others."""

    coordinate: int  #: column of Network.coords
    split: int
    side_a: int  #: nodes on each side
    side_b: int
    channels_each_way: int  #: directed channels from A to B (= from B to A)
    bound: float  #: uniform-traffic bound, flits/node/cycle: channels (N-1) / (|A| |B|)

    @property
    def description(self) -> str:
        name = DIM_NAMES[self.coordinate]
        return f"{name} <= {self.split} | {name} > {self.split}"


@dataclasses.dataclass(eq=False)
class Network:
    """Nodes and directed channels. Channel ids are wormnet's: ordered by (source node,
    port), ports without a link skipped, so per-channel arrays of a file index by them."""

    spec: str  #: e.g. "honeycomb:6", "torus:8x8"
    kind: str  #: "honeycomb", "torus", "mesh" (or a kind these readers do not know)
    coords: np.ndarray  #: (N, d) int: x, y, z for H_t, one per dimension for tori and meshes
    channel_source: np.ndarray  #: (C,) node each channel leaves
    channel_dest: np.ndarray  #: (C,) node it enters
    channel_port: np.ndarray  #: (C,) output port of the source (index into port_labels)
    port_labels: list  #: port -> "X+", "X-", ...
    owner: np.ndarray | None = None  #: (N,) rank that simulated each node (result files)
    partition: dict | None = None  #: attributes of /partition (method, edge_cut, ...)
    attrs: dict = dataclasses.field(default_factory=dict)  #: attributes of /topology
    #: Failed nodes and every failed channel (both directions of a failed link, every channel
    #: of a failed node) by id, from the file's /faults (docs/faults.md); empty without faults.
    failed_nodes: np.ndarray = dataclasses.field(
        default_factory=lambda: np.zeros(0, dtype=np.int64))
    failed_channels: np.ndarray = dataclasses.field(
        default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: Failed links as links, each by its + channel id (the others failed with a node).
    failed_links: np.ndarray = dataclasses.field(
        default_factory=lambda: np.zeros(0, dtype=np.int64))
    faults: dict = dataclasses.field(default_factory=dict)  #: attributes of /faults

    @property
    def faulty(self) -> bool:
        """Whether any node or channel has failed."""
        return len(self.failed_nodes) > 0 or len(self.failed_channels) > 0

    @property
    def nodes(self) -> int:
        return int(self.coords.shape[0])

    @property
    def channels(self) -> int:
        return int(self.channel_source.shape[0])

    @property
    def sizes(self) -> tuple:
        """Dimension sizes of a torus or mesh, from the spec ("torus:8x4" -> (8, 4))."""
        if self.kind not in ("torus", "mesh"):
            raise ValueError(f"{self.spec}: only tori and meshes have dimension sizes")
        return tuple(int(k) for k in self.spec.split(":", 1)[1].split("x"))

    def is_ring(self, dim: int) -> bool:
        """A torus dimension of size > 2 is a ring (size 2 is a single link, as in wormnet)."""
        return self.kind == "torus" and self.sizes[dim] > 2

    @functools.cached_property
    def _node_index(self) -> dict:
        return {tuple(int(v) for v in c): i for i, c in enumerate(self.coords)}

    def node(self, coords) -> int:
        """Node id at these coordinates (KeyError if there is none)."""
        return self._node_index[tuple(int(v) for v in coords)]

    def channel(self, coords, port) -> int:
        """Id of the channel leaving the node at `coords` on `port` (a label such as "X+" or
        a port number); KeyError if the node has no link there."""
        p = self.port_labels.index(port) if isinstance(port, str) else int(port)
        hit = np.nonzero((self.channel_source == self.node(coords)) & (self.channel_port == p))[0]
        if len(hit) != 1:
            raise KeyError(f"{self.spec}: no channel leaves {tuple(coords)} on {port}")
        return int(hit[0])

    def node_label(self, n: int) -> str:
        return "(" + ",".join(str(int(v)) for v in self.coords[n]) + ")"

    def channel_label(self, c: int) -> str:
        """"(1,2,-1) Y- -> (1,1,-1)": source, port and destination of channel c."""
        return (
            f"{self.node_label(self.channel_source[c])} "
            f"{self.port_labels[int(self.channel_port[c])]} -> "
            f"{self.node_label(self.channel_dest[c])}"
        )

    def bisection(self) -> BisectionCut:
        """The balanced straight cut with the smallest uniform-traffic bound, chosen as
        `wormnet info` chooses it (topology_metrics.cpp): per coordinate the threshold that
        splits the nodes most evenly (first on ties), then the coordinate with the smallest
        bound (first on ties). Its bound is the file's `bisection_bound`. With faults, over
        the working nodes and channels, as wormnet takes it."""
        working = np.ones(self.nodes, dtype=bool)
        working[self.failed_nodes] = False
        usable = np.ones(self.channels, dtype=bool)
        usable[self.failed_channels] = False
        n = int(working.sum())
        best = None
        for i in range(self.coords.shape[1]):
            v = self.coords[:, i]
            values, counts = np.unique(v[working], return_counts=True)
            below = np.cumsum(counts)
            if len(values) < 2:
                continue
            gaps = np.abs(2 * below[:-1] - n)
            split = int(values[int(np.argmin(gaps))])  # argmin: the first of equal gaps
            in_a = v <= split
            a = int((in_a & working).sum())
            src_a = in_a[self.channel_source]
            dst_a = in_a[self.channel_dest]
            ab = int(np.sum(src_a & ~dst_a & usable))
            ba = int(np.sum(~src_a & dst_a & usable))
            ch = min(ab, ba)
            cut = BisectionCut(i, split, a, n - a, ch, ch * (n - 1) / (a * (n - a)))
            if best is None or cut.bound < best.bound:
                best = cut
        if best is None:
            raise ValueError(f"{self.spec}: a single node has no bisection")
        return best

    def channels_frame(self):
        """One row per channel (index: channel id): source, dest, port label, the source's
        and destination's coordinates (columns src_x, dst_x, ... for H_t; src_0, ... for
        tori and meshes) and, with a partition, the owner of each end."""
        import pandas as pd

        d = self.coords.shape[1]
        names = ["x", "y", "z"] if self.kind in HONEYCOMB_KINDS else [str(i) for i in range(d)]
        cols = {
            "source": self.channel_source,
            "dest": self.channel_dest,
            "port": [self.port_labels[int(p)] for p in self.channel_port],
        }
        for i, name in enumerate(names):
            cols[f"src_{name}"] = self.coords[self.channel_source, i]
        for i, name in enumerate(names):
            cols[f"dst_{name}"] = self.coords[self.channel_dest, i]
        if self.owner is not None:
            cols["src_owner"] = self.owner[self.channel_source]
            cols["dst_owner"] = self.owner[self.channel_dest]
        frame = pd.DataFrame(cols)
        frame.index.name = "channel"
        return frame


def read_faults(f, net: Network) -> Network:
    """`net` with the faults of an open result or table file (its /faults group, written when
    the run had faults: docs/faults.md); unchanged without one."""
    if "faults" not in f:
        return net
    g = f["faults"]
    net.faults = attrs(g)
    net.failed_nodes = g["nodes"][()].astype(np.int64)
    net.failed_links = g["links"][()].astype(np.int64)
    net.failed_channels = g["channels"][()].astype(np.int64)
    for name, ids, bound in (("nodes", net.failed_nodes, net.nodes),
                             ("channels", net.failed_channels, net.channels)):
        if len(ids) and (ids.min() < 0 or ids.max() >= bound):
            raise FileError(f"/faults/{name}: ids outside the network's {bound} {name}")
    return net


def read_network(f) -> Network:
    """The network of an open result file (/topology, /partition, /faults)."""
    t = f["topology"]
    a = attrs(t)
    owner = part = None
    if "partition" in f:
        part = attrs(f["partition"])
        if "owner" in f["partition"]:
            owner = f["partition/owner"][()].astype(np.int64)
    return read_faults(f, Network(
        spec=str(a.get("spec", "")),
        kind=str(a.get("kind", "")),
        coords=t["coords"][()].astype(np.int64),
        channel_source=t["channel_source"][()].astype(np.int64),
        channel_dest=t["channel_dest"][()].astype(np.int64),
        channel_port=t["channel_port"][()].astype(np.int64),
        port_labels=[str(x) for x in decode(t.attrs["port_labels"])],
        owner=owner,
        partition=part,
        attrs=a,
    ))


def _channels(coords: np.ndarray, nports: int, neighbor) -> tuple:
    """Channel arrays in wormnet's order (source node, then port) from a neighbour function
    neighbor(node_coords, port) -> node id or -1."""
    src, dst, port = [], [], []
    for u, c in enumerate(coords):
        for p in range(nports):
            w = neighbor(c, p)
            if w >= 0:
                src.append(u)
                dst.append(w)
                port.append(p)
    return (np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64),
            np.array(port, dtype=np.int64))


def _honeycomb(t: int, spec: str) -> Network:
    # Nodes numbered by (x, s = x + y + z, y), as HoneycombMesh numbers them.
    lo = 1 - t
    coords = [(x, y, s - x - y)
              for x in range(lo, t + 1) for s in (1, 2)
              for y in range(max(lo, s - x - t), min(t, s - x - lo) + 1)]
    coords = np.array(coords, dtype=np.int64)
    index = {tuple(c): i for i, c in enumerate(coords.tolist())}

    def neighbor(c, p):
        sign = -1 if p & 1 else 1
        if (sum(c) == 1) != (sign > 0):  # black nodes (sum 1) have + links, white - links
            return -1
        n = list(c)
        n[p // 2] += sign
        return index.get(tuple(int(v) for v in n), -1)

    src, dst, port = _channels(coords, 6, neighbor)
    return Network(spec, "honeycomb", coords, src, dst, port, [port_label(p) for p in range(6)])


def _torus(kind: str, sizes: list, spec: str) -> Network:
    # Node id = sum of coordinate * stride, dimension 0 fastest, as Torus numbers them.
    n = int(np.prod(sizes))
    ids = np.arange(n)
    coords = np.stack([(ids // int(np.prod(sizes[:d]))) % sizes[d] for d in range(len(sizes))],
                      axis=1).astype(np.int64)
    strides = [int(np.prod(sizes[:d])) for d in range(len(sizes))]

    def neighbor(c, p):
        d, sign = p // 2, (-1 if p & 1 else 1)
        k, nxt = sizes[d], int(c[d]) + sign
        if nxt < 0 or nxt >= k:
            if kind != "torus" or k <= 2:
                return -1
            nxt %= k
        return int(sum(int(v) * s for v, s in zip(c, strides)) + (nxt - int(c[d])) * strides[d])

    nports = 2 * len(sizes)
    src, dst, port = _channels(coords, nports, neighbor)
    return Network(spec, kind, coords, src, dst, port, [port_label(p) for p in range(nports)])


def from_spec(spec: str) -> Network:
    """The network of a topology spec ("honeycomb:T", "torus:AxB...", "mesh:AxB..."), numbered
    as wormnet numbers it. ValueError for a spec it cannot read."""
    kind, _, rest = spec.partition(":")
    try:
        if kind == "honeycomb":
            t = int(rest)
            if t < 1:
                raise ValueError
            return _honeycomb(t, spec)
        if kind in ("torus", "mesh"):
            sizes = [int(k) for k in rest.split("x")]
            if not 1 <= len(sizes) <= 6 or min(sizes) < 2:
                raise ValueError
            return _torus(kind, sizes, spec)
    except ValueError:
        pass
    raise FileError(f"topology {spec!r}: not one of honeycomb:T, torus:AxB..., mesh:AxB...")
