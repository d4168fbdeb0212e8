// Honeycomb tori of random and extreme shapes against constructions written here from the
// definitions, sharing no code with src/topology:
// - HReT(m, n) and HRoT(m, n): Cho & Hsu's adjacency rules on brick nodes (i, j) (Inf. Proc.
//   Lett. 86, 2003); HT_T: the points of H_T, each linked to the point one unit step away
//   reduced into H_T by the lattice L spanned by (2T, -T, -T) and (-T, 2T, -T) (membership in
//   L by solving for the two coefficients).
// - Node and link counts, degree 3, the same edges; breadth-first distances from a few sources
//   equal distance(); the nearest images equal a scan over every lattice translation in a
//   window that provably holds them all (|w| <= |b - a| bounds the translation), ties included.
// Thin and wide shapes (2x46, 24x4, 500x8, 1000x4, 3x128, ...) have dozens to hundreds of
// tied images, the case that once ended in an internal error.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../../support/bfs.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/topology/honeycomb_torus.hpp"

namespace wormnet {
namespace {

using Point = std::array<int, 3>;

int norm(const Point& v) {
  return std::abs(v[0]) + std::abs(v[1]) + std::abs(v[2]);
}

/// A torus as the test builds it: lattice coordinates of its nodes (the published order) and
/// adjacency lists.
struct Reference {
  std::vector<Point> nodes;
  std::vector<std::vector<std::uint32_t>> adj;
  bool simple = true;  // no loop, no double link
  /// HT_T: L spanned by (2T, -T, -T) and (-T, 2T, -T); else 0 and GHT(m, n, d): L spanned by
  /// the brick translations (m, d) and (0, n).
  int hexagonal = 0;
  int m = 0;
  int n = 0;
  int d = 0;
};

/// Brick (i, j) -> lattice (x, y, z): x = i, y - z = j, x + y + z = 1 for i + j odd, else 2.
Point brick_point(int i, int j) {
  const int s = ((i + j) % 2 + 2) % 2 != 0 ? 1 : 2;
  return {i, (s - i + j) / 2, (s - i - j) / 2};
}

void link(Reference& r, std::uint32_t a, std::uint32_t b) {
  if (a == b) r.simple = false;
  r.adj[a].push_back(b);
  r.adj[b].push_back(a);
}

/// HReT(m, n): (i, j) ~ (i, j + 1 mod n); (i, j) ~ (i - 1 mod m, j) if i + j is even.
/// HRoT(m, n): nodes i <= j < i + n; (i, j) ~ (i, j + 1) with j kept in [i, i + n) modulo n;
/// (i, j) ~ (i - 1, j) if i + j is even and i > 0; (0, j) ~ (m - 1, j + m) if j is even.
Reference brick_torus(bool rect, int m, int n) {
  Reference r;
  r.m = m;
  r.n = n;
  r.d = rect ? 0 : m;
  std::map<std::pair<int, int>, std::uint32_t> index;
  for (int i = 0; i < m; ++i) {
    const int j0 = rect ? 0 : i;
    for (int j = j0; j < j0 + n; ++j) {
      index[{i, j}] = static_cast<std::uint32_t>(r.nodes.size());
      r.nodes.push_back(brick_point(i, j));
    }
  }
  r.adj.resize(r.nodes.size());
  const auto at = [&](int i, int j) {
    const int j0 = rect ? 0 : i;
    return index.at({i, j0 + (((j - j0) % n) + n) % n});
  };
  for (int i = 0; i < m; ++i) {
    const int j0 = rect ? 0 : i;
    for (int j = j0; j < j0 + n; ++j) {
      link(r, at(i, j), at(i, j + 1));
      if ((i + j) % 2 == 0 && (rect || i > 0)) link(r, at(i, j), at((i - 1 + m) % m, j));
      if (!rect && i == 0 && j % 2 == 0) link(r, at(0, j), at(m - 1, j + m));
    }
  }
  return r;
}

/// HT_T: H_T's points, each black point (sum 1) linked along +x, +y, +z to the point of H_T
/// that differs from the step by a vector of L.
Reference hexagonal_torus(int t) {
  Reference r;
  r.hexagonal = t;
  for (int x = 1 - t; x <= t; ++x) {  // in the documented order: x, then x + y + z, then y
    for (int s = 1; s <= 2; ++s) {
      for (int y = 1 - t; y <= t; ++y) {
        const int z = s - x - y;
        if (z >= 1 - t && z <= t) r.nodes.push_back({x, y, z});
      }
    }
  }
  r.adj.resize(r.nodes.size());
  // v in L iff v = a (2T, -T, -T) + b (-T, 2T, -T) with integers a = (2 v_x + v_y) / 3T and
  // b = (v_x + 2 v_y) / 3T (and v_x + v_y + v_z = 0).
  const auto in_l = [t](const Point& v) {
    return v[0] + v[1] + v[2] == 0 && (2 * v[0] + v[1]) % (3 * t) == 0 &&
           (v[0] + 2 * v[1]) % (3 * t) == 0;
  };
  for (std::uint32_t u = 0; u < r.nodes.size(); ++u) {
    const Point& p = r.nodes[u];
    if (p[0] + p[1] + p[2] != 1) continue;
    for (int k = 0; k < 3; ++k) {
      Point q = p;
      ++q[static_cast<std::size_t>(k)];
      int found = 0;
      for (std::uint32_t w = 0; w < r.nodes.size(); ++w) {
        const Point& c = r.nodes[w];
        if (in_l({q[0] - c[0], q[1] - c[1], q[2] - c[2]})) {
          link(r, u, w);
          ++found;
        }
      }
      EXPECT_EQ(found, 1) << "HT_" << t;
    }
  }
  return r;
}

std::vector<int> reference_bfs(const Reference& r, std::uint32_t source) {
  std::vector<int> dist(r.nodes.size(), -1);
  std::vector<std::uint32_t> frontier{source};
  dist[source] = 0;
  while (!frontier.empty()) {
    std::vector<std::uint32_t> next;
    for (const std::uint32_t u : frontier) {
      for (const std::uint32_t v : r.adj[u]) {
        if (dist[v] < 0) {
          dist[v] = dist[u] + 1;
          next.push_back(v);
        }
      }
    }
    frontier = std::move(next);
  }
  return dist;
}

/// Every lattice point of least norm in b - a + L, by a scan over the translations v of L with
/// |v| <= 2 |b - a| (any nearest image w has |w| <= |b - a|, so |v| = |w - (b - a)| <= 2 |b - a|),
/// in a window of coefficients that holds them, widened by 2:
/// - v = p (m, d) + q (0, n) in brick terms: |v_x| = |p| m and |v_y - v_z| = |p d + q n|;
/// - HT_T, v = p (2T, -T, -T) + q (-T, 2T, -T): |v_z| = |p + q| T, |v_x - v_y| = 3 |p - q| T.
std::vector<Point> scanned_images(const Reference& r, const Point& a, const Point& b) {
  const Point delta{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const int bound = 2 * norm(delta);
  int best = norm(delta);
  std::vector<Point> out;
  const auto consider = [&](const Point& v) {
    const Point w{delta[0] + v[0], delta[1] + v[1], delta[2] + v[2]};
    const int length = norm(w);
    if (length < best) {
      best = length;
      out.clear();
    }
    if (length == best) out.push_back(w);
  };
  if (r.hexagonal > 0) {
    const int t = r.hexagonal;
    const int pmax = bound / t + 2;
    for (int p = -pmax; p <= pmax; ++p) {
      for (int q = -pmax; q <= pmax; ++q)
        consider({(2 * p - q) * t, (2 * q - p) * t, -(p + q) * t});
    }
  } else {
    const int pmax = bound / r.m + 2;
    for (int p = -pmax; p <= pmax; ++p) {
      const int qmax = (bound + std::abs(p) * r.d) / r.n + 2;
      for (int q = -qmax; q <= qmax; ++q) {
        const int di = p * r.m;
        const int dj = p * r.d + q * r.n;
        // Brick translation (di, dj) -> lattice (di, (dj - di) / 2, -(dj + di) / 2).
        consider({di, (dj - di) / 2, -(dj + di) / 2});
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

HoneycombTorus make(HoneycombTorusShape shape, int a, int b) {
  return shape == HoneycombTorusShape::kHexagonal ? HoneycombTorus(shape, a)
                                                  : HoneycombTorus(shape, a, b);
}

struct Shape {
  HoneycombTorusShape shape;
  int a;
  int b;
};

std::string name(const Shape& s) {
  switch (s.shape) {
    case HoneycombTorusShape::kHexagonal:
      return "HT_" + std::to_string(s.a);
    case HoneycombTorusShape::kRectangular:
      return "HReT(" + std::to_string(s.a) + ", " + std::to_string(s.b) + ")";
    case HoneycombTorusShape::kRhombic:
      return "HRoT(" + std::to_string(s.a) + ", " + std::to_string(s.b) + ")";
  }
  return "?";
}

/// The whole comparison for one shape; `most` grows to the most images seen tied for one pair.
void check_shape(const Shape& s, std::mt19937& rng, std::int64_t& most) {
  SCOPED_TRACE(name(s));
  const Reference ref = s.shape == HoneycombTorusShape::kHexagonal
                            ? hexagonal_torus(s.a)
                            : brick_torus(s.shape == HoneycombTorusShape::kRectangular, s.a, s.b);
  bool simple = ref.simple;
  for (const auto& list : ref.adj) {
    simple = simple && std::set<std::uint32_t>(list.begin(), list.end()).size() == list.size();
  }
  if (!simple) {
    EXPECT_THROW((void)make(s.shape, s.a, s.b), InputError);
    return;
  }
  const HoneycombTorus h = make(s.shape, s.a, s.b);
  const auto n = static_cast<std::uint32_t>(ref.nodes.size());
  EXPECT_EQ(h.num_nodes(), n);
  EXPECT_EQ(h.num_links(), 3 * n / 2);
  // Node k of the reference is node k, and the links are the same.
  std::set<std::pair<std::uint32_t, std::uint32_t>> expected;
  std::set<std::pair<std::uint32_t, std::uint32_t>> links;
  for (std::uint32_t u = 0; u < n; ++u) {
    const Coord c = h.coords(NodeId(u));
    EXPECT_EQ((Point{c[0], c[1], c[2]}), ref.nodes[u]) << "node " << u;
    EXPECT_EQ(ref.adj[u].size(), 3U);
    EXPECT_EQ(h.degree(NodeId(u)), 3);
    for (const std::uint32_t v : ref.adj[u]) expected.emplace(std::min(u, v), std::max(u, v));
    for (int p = 0; p < h.num_ports(); ++p) {
      const NodeId v = h.neighbor(NodeId(u), static_cast<PortId>(p));
      if (v.valid()) links.emplace(std::min(u, v.value()), std::max(u, v.value()));
    }
  }
  EXPECT_EQ(links, expected);

  // Distances from a few sources (node 0, a neighbour of the other colour, random ones); every
  // source on the small tori.
  std::vector<std::uint32_t> sources{0, ref.adj[0][0]};
  std::uniform_int_distribution<std::uint32_t> node(0, n - 1);
  for (int i = 0; i < 3; ++i) sources.push_back(node(rng));
  if (n <= 200) {
    sources.clear();
    for (std::uint32_t u = 0; u < n; ++u) sources.push_back(u);
  }
  int diameter = 0;
  for (const std::uint32_t src : sources) {
    const std::vector<int> dist = reference_bfs(ref, src);
    for (std::uint32_t d = 0; d < n; ++d) {
      ASSERT_EQ(h.distance(NodeId(src), NodeId(d)), dist[d]) << src << " -> " << d;
      diameter = std::max(diameter, dist[d]);
    }
  }
  EXPECT_EQ(h.diameter(), diameter);

  // Nearest images, all ties, against the scan: random pairs, and every destination from node
  // 0 on the smaller tori.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (int i = 0; i < 40; ++i) pairs.emplace_back(node(rng), node(rng));
  if (n <= 1000) {
    for (std::uint32_t d = 0; d < n; ++d) pairs.emplace_back(0, d);
  }
  HoneycombTorus::Images images;
  for (const auto& [a, b] : pairs) {
    h.nearest_images(NodeId(a), NodeId(b), images);
    std::vector<Point> got(images.begin(), images.end());
    std::sort(got.begin(), got.end());
    const std::vector<Point> want = scanned_images(ref, ref.nodes[a], ref.nodes[b]);
    ASSERT_EQ(got, want) << a << " -> " << b;
    EXPECT_EQ(images.distance(), norm(want.front()));
    EXPECT_EQ(images.count(), static_cast<std::int64_t>(want.size()));
    EXPECT_EQ(h.distance(NodeId(a), NodeId(b)), images.distance());
    most = std::max(most, images.count());
  }
}

TEST(HoneycombTorusShapes, ExtremeShapesMatchTheDefinitions) {
  std::mt19937 rng(36);
  const Shape shapes[] = {
      {HoneycombTorusShape::kRhombic, 2, 46},       {HoneycombTorusShape::kRectangular, 24, 4},
      {HoneycombTorusShape::kRhombic, 3, 128},      {HoneycombTorusShape::kRhombic, 6, 256},
      {HoneycombTorusShape::kRhombic, 500, 8},      {HoneycombTorusShape::kRectangular, 500, 8},
      {HoneycombTorusShape::kRectangular, 1000, 4}, {HoneycombTorusShape::kRectangular, 2, 1000},
      {HoneycombTorusShape::kRhombic, 2, 1000},     {HoneycombTorusShape::kRhombic, 999, 4}};
  std::int64_t most = 0;
  for (const Shape& s : shapes) check_shape(s, rng, most);
  // The shapes tie far more often than the dozen the search once held.
  EXPECT_GT(most, 100);
}

TEST(HoneycombTorusShapes, RandomShapesMatchTheDefinitions) {
  std::mt19937 rng(2024);
  std::uniform_int_distribution<int> kind(0, 2);
  std::uniform_int_distribution<int> small(1, 12);
  std::uniform_int_distribution<int> large(1, 60);
  std::uniform_int_distribution<int> coin(0, 1);
  for (int i = 0; i < 40; ++i) {
    const int k = kind(rng);
    Shape s{};
    if (k == 0) {
      s = {HoneycombTorusShape::kHexagonal, small(rng) % 7 + 1, 0};
    } else {
      // Aspect ratios from square to 1:60 either way.
      int m = coin(rng) != 0 ? small(rng) : large(rng);
      int n = 2 * (coin(rng) != 0 ? small(rng) : large(rng)) + 2;
      if (k == 1) m = 2 * ((m + 1) / 2);
      if (k == 2) m = std::max(m, 2);
      s = {k == 1 ? HoneycombTorusShape::kRectangular : HoneycombTorusShape::kRhombic, m, n};
    }
    std::int64_t most = 0;
    check_shape(s, rng, most);
  }
}

}  // namespace
}  // namespace wormnet
