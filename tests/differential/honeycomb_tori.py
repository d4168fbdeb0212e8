"""The honeycomb tori of the option space, two ways (docs/honeycomb-tori.md):

- from their published definitions (published_graph): HT_T as Stojmenovic's H_T plus Cho &
  Hsu's list of wraparound edges, HReT(M, N) and HRoT(M, N) by Cho & Hsu's rules in (i, j)
  coordinates. The harness checks every honeycomb-torus results file against this
  construction (check_file), which shares nothing with wormnet's (the honeycomb lattice
  modulo a lattice of translations);
- as the lattice quotient (lattice_facts), for what the option space must know before a run:
  the VC counts of the dateline routings (their levels restated from
  src/routing/honeycomb_torus_ways.cpp), the sizes wormnet refuses (two links between two
  nodes), and the most nearest images of one node seen from another.

Nothing here runs wormnet.
"""
import collections
import functools
import math

KINDS = ("honeycomb-torus", "honeycomb-rect", "honeycomb-rhombic")


def parse(spec):
    """'honeycomb-rect:4x8' -> ('honeycomb-rect', 4, 8); 'honeycomb-torus:3' -> (.., 3, 0)."""
    kind, size = spec.split(":")
    if kind == "honeycomb-torus":
        return kind, int(size), 0
    a, b = size.split("x")
    return kind, int(a), int(b)


def spec_of(kind, a, b):
    return f"{kind}:{a}" if kind == "honeycomb-torus" else f"{kind}:{a}x{b}"


def nodes(spec):
    kind, a, b = parse(spec)
    return 6 * a * a if kind == "honeycomb-torus" else a * b


def sizes_allowed(kind, a, b):
    """wormnet's size rules (topology/honeycomb_torus.cpp): T >= 1; M >= 2 (even for HReT),
    N even >= 4. Some allowed sizes still join two nodes by two links (lattice_facts)."""
    if kind == "honeycomb-torus":
        return a >= 1
    if a < 2 or (kind == "honeycomb-rect" and a % 2):
        return False
    return b >= 4 and b % 2 == 0


# --- the published definitions -------------------------------------------------------------

def published_graph(spec):
    """(nodes, edges) by the published rules: nodes as coordinate keys ((x, y, z) for HT_T,
    (i, j) for HReT and HRoT), edges as pairs of keys (each link once)."""
    kind, a, b = parse(spec)
    edges = []
    if kind == "honeycomb-torus":
        t = a
        # Stojmenovic's H_T: -T+1 <= x, y, z <= T, x + y + z in {1, 2}; neighbours differ by 1
        # in exactly one coordinate.
        rng = range(1 - t, t + 1)
        vs = [(x, y, z) for x in rng for y in rng for z in rng if x + y + z in (1, 2)]
        present = set(vs)
        for v in vs:
            if sum(v) == 1:
                for k in range(3):
                    w = list(v)
                    w[k] += 1
                    if tuple(w) in present:
                        edges.append((v, tuple(w)))
        # Cho & Hsu's wraparound edges, 1 <= i <= T.
        for i in range(1, t + 1):
            edges.append(((i, t - i + 1, 1 - t), (i - t, 1 - i, t)))
            edges.append(((1 - t, i, t - i + 1), (t, i - t, 1 - i)))
            edges.append(((i, 1 - t, t - i + 1), (i - t, t, 1 - i)))
        return vs, edges
    m, n = a, b
    if kind == "honeycomb-rect":
        # HReT(M, N): (i, j) ~ (i, j +- 1 mod N); (i, j) ~ (i - 1 mod M, j) when i + j is even.
        vs = [(i, j) for i in range(m) for j in range(n)]
        for i, j in vs:
            edges.append(((i, j), (i, (j + 1) % n)))
            if (i + j) % 2 == 0:
                edges.append(((i, j), ((i - 1) % m, j)))
        return vs, edges
    # HRoT(M, N): column i holds j = i .. i + N - 1 (j modulo N inside the column);
    # (i, j) ~ (i - 1, j) when i + j is even and i > 0; (0, j) ~ (M - 1, j + M) when j is even.
    def col(i, j):
        return (i, i + (j - i) % n)

    vs = [(i, j) for i in range(m) for j in range(i, i + n)]
    for i, j in vs:
        edges.append(((i, j), col(i, j + 1)))
        if (i + j) % 2 == 0:
            edges.append(((i, j), (i - 1, j) if i > 0 else col(m - 1, j + m)))
    return vs, edges


def key_of(kind, xyz):
    """The published key of a node whose canonical lattice coordinates (the results file's
    /topology/coords) are xyz: brick coordinates i = x, j = y - z for HReT and HRoT."""
    x, y, z = (int(c) for c in xyz)
    return (x, y, z) if kind == "honeycomb-torus" else (x, y - z)


def eccentricities(vs, edges):
    adj = collections.defaultdict(list)
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    ecc = {}
    for s in vs:
        dist = {s: 0}
        queue = collections.deque([s])
        while queue:
            u = queue.popleft()
            for w in adj[u]:
                if w not in dist:
                    dist[w] = dist[u] + 1
                    queue.append(w)
        ecc[s] = max(dist.values()) if len(dist) == len(vs) else math.inf
    return ecc


def check_file(spec, topology):
    """Differences between a results file's /topology group (an h5py group) and the
    published construction: node set, links (as a multiset: a doubled link shows), degree 3,
    the counts and the diameter (BFS). An empty list when they agree."""
    kind = parse(spec)[0]
    vs, edges = published_graph(spec)
    problems = []
    keys = [key_of(kind, c) for c in topology["coords"][()]]
    if sorted(keys) != sorted(vs):
        problems.append(f"node set: {len(set(keys) - set(vs))} nodes not in the published "
                        f"definition, {len(set(vs) - set(keys))} missing")
        return problems
    src, dst = topology["channel_source"][()], topology["channel_dest"][()]
    have = collections.Counter(tuple(sorted((keys[s], keys[d]))) for s, d in zip(src, dst))
    want = collections.Counter()
    for u, v in edges:
        want[tuple(sorted((u, v)))] += 2  # a channel each way
    if have != want:
        extra = sum((have - want).values())
        missing = sum((want - have).values())
        problems.append(f"links: {extra} channels not in the published definition, "
                        f"{missing} missing")
    degree = collections.Counter(keys[s] for s in src)
    if any(degree[v] != 3 for v in vs):
        problems.append("a node without degree 3")
    attrs = topology.attrs
    for name, value in (("nodes", len(vs)), ("links", len(edges)), ("channels", 2 * len(edges))):
        if int(attrs[name]) != value:
            problems.append(f"attribute {name} = {int(attrs[name])}, published {value}")
    diameter = max(eccentricities(vs, edges).values())
    if int(attrs["diameter"]) != diameter:
        problems.append(f"diameter {int(attrs['diameter'])}, BFS {diameter}")
    return problems


# --- the lattice quotient: what the option space needs --------------------------------------

def brick(kind, a, b):
    """(m, n, d): the brick form GHT(m, n, d) of the torus (docs/honeycomb-tori.md)."""
    if kind == "honeycomb-torus":
        return a, 6 * a, 3 * a
    return a, b, (0 if kind == "honeycomb-rect" else a)


@functools.lru_cache(maxsize=None)
def lattice_facts(spec):
    """{'levels', 'max_images', 'diameter', 'double_links'} of a honeycomb torus, by
    breadth-first search over the infinite honeycomb lattice from a black and a white point,
    each lattice point taken modulo the torus's translations: a class's first layer is its
    distance, every point of the class in that layer a nearest image."""
    kind, a, b = parse(spec)
    m, n, d = brick(kind, a, b)
    basis = [(m, (d - m) // 2, -(m + d) // 2), (0, n // 2, -n // 2)]
    period = [math.gcd(abs(basis[0][k]), abs(basis[1][k])) for k in range(3)]

    def reduce(p):
        i, j = p[0], p[1] - p[2]
        k = i // m
        return i - k * m, (j - k * d) % n

    def steps(p):
        s = 1 if sum(p) == 1 else -1  # black points own the + links
        return [tuple(p[c] + (s if c == k else 0) for c in range(3)) for k in range(3)]

    total = m * n
    double = False
    worst = [0, 0, 0]  # dateline crossings per pair of coordinates (x,y), (x,z), (y,z)
    pairs = ((0, 1), (0, 2), (1, 2))
    most_images = diameter = 0
    for start in ((1, 0, 0), (1, 1, 0)):  # a black and a white point
        if len({reduce(q) for q in steps(start)}) < 3:
            double = True
        found = {}
        seen = {start}
        layer = [start]
        dist = 0
        while True:
            for p in layer:
                c = reduce(p)
                if c not in found:
                    found[c] = (dist, [])
                if found[c][0] == dist:
                    found[c][1].append(tuple(p[k] - start[k] for k in range(3)))
            if len(found) == total:
                break
            nxt = []
            for p in layer:
                for q in steps(p):
                    if q not in seen:
                        seen.add(q)
                        nxt.append(q)
            layer = nxt
            dist += 1
        diameter = max(diameter, dist)
        for _, images in found.values():
            most_images = max(most_images, len(images))
            for w in images:
                for i, (k1, k2) in enumerate(pairs):
                    crossings = sum((period[k] - 1 + abs(w[k])) // period[k] for k in (k1, k2))
                    worst[i] = max(worst[i], crossings)
    return {"levels": 1 + min(worst), "max_images": most_images, "diameter": diameter,
            "double_links": double}


def routing_vcs(spec):
    """VCs each routing of the honeycomb tori needs on `spec` (docs/honeycomb-tori.md):
    stojmenovic-dateline one per level, double-xy-dateline two per level, duato one more."""
    levels = lattice_facts(spec)["levels"]
    return {"stojmenovic": 1, "minimal-adaptive": 1, "stojmenovic-dateline": levels,
            "double-xy-dateline": 2 * levels, "duato": 2 * levels + 1}
