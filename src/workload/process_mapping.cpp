#include "wormnet/workload/process_mapping.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <utility>

#include "wormnet/core/error.hpp"
#include "wormnet/core/rng.hpp"

namespace wormnet {

namespace {

/// Positions of the nodes in the plane or space of the topology's drawing: torus and mesh
/// coordinates as they are; honeycomb XYZ coordinates on the hexagonal drawing (unit vectors
/// 120 degrees apart: (x - y/2 - z/2, (y - z) sqrt(3)/2), scaled by 2).
std::vector<std::vector<double>> node_positions(const Topology& topo) {
  std::vector<std::vector<double>> pos(topo.num_nodes());
  const bool hex =
      topo.kind() == TopologyKind::kHoneycomb || topo.kind() == TopologyKind::kHoneycombTorus;
  for (std::uint32_t n = 0; n < topo.num_nodes(); ++n) {
    const Coord c = topo.coords(NodeId(n));
    if (hex) {
      pos[n] = {2.0 * c[0] - c[1] - c[2], std::sqrt(3.0) * (c[1] - c[2])};
    } else {
      for (int d = 0; d < c.n; ++d) pos[n].push_back(c[d]);
    }
  }
  return pos;
}

struct Bisection {
  const std::vector<int>& grid;
  const std::vector<std::vector<double>>& pos;
  std::vector<std::uint32_t>& node_of;

  /// Maps the box of processes [lo, hi) per grid dimension onto `nodes` (as many).
  void split(std::array<int, 3> lo, std::array<int, 3> hi, std::vector<std::uint32_t> nodes) {
    std::size_t count = 1;
    int widest = 0;
    for (std::size_t d = 0; d < grid.size(); ++d) {
      count *= static_cast<std::size_t>(hi[d] - lo[d]);
      if (hi[d] - lo[d] >
          hi[static_cast<std::size_t>(widest)] - lo[static_cast<std::size_t>(widest)])
        widest = static_cast<int>(d);
    }
    require(count == nodes.size(), "process bisection: box and node set differ in size");
    const auto w = static_cast<std::size_t>(widest);
    if (count == 1) {
      std::uint32_t p = 0;
      for (std::size_t d = grid.size(); d-- > 0;) {
        p = p * static_cast<std::uint32_t>(grid[d]) + static_cast<std::uint32_t>(lo[d]);
      }
      node_of[p] = nodes[0];
      return;
    }
    // The nodes' widest axis; sorted along it (then the other axes, then id).
    const std::size_t axes = pos[nodes[0]].size();
    std::size_t axis = 0;
    double extent = -1;
    for (std::size_t a = 0; a < axes; ++a) {
      double mn = pos[nodes[0]][a];
      double mx = mn;
      for (const std::uint32_t n : nodes) {
        mn = std::min(mn, pos[n][a]);
        mx = std::max(mx, pos[n][a]);
      }
      if (mx - mn > extent + 1e-9) {
        extent = mx - mn;
        axis = a;
      }
    }
    std::sort(nodes.begin(), nodes.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (pos[a][axis] != pos[b][axis]) return pos[a][axis] < pos[b][axis];
      for (std::size_t k = 0; k < axes; ++k) {
        if (pos[a][k] != pos[b][k]) return pos[a][k] < pos[b][k];
      }
      return a < b;
    });
    const int mid = lo[w] + (hi[w] - lo[w]) / 2;
    const std::size_t lower =
        count / static_cast<std::size_t>(hi[w] - lo[w]) * static_cast<std::size_t>(mid - lo[w]);
    std::array<int, 3> lo2 = lo;
    std::array<int, 3> hi1 = hi;
    hi1[w] = mid;
    lo2[w] = mid;
    split(lo, hi1, {nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(lower)});
    split(lo2, hi, {nodes.begin() + static_cast<std::ptrdiff_t>(lower), nodes.end()});
  }
};

}  // namespace

std::vector<int> node_block(std::span<const int> grid, std::uint32_t per_node) {
  // Every box whose sides divide the grid's and multiply to per_node; the best by
  // (longest side, longest side of the grid of boxes), the first found on ties (earlier
  // dimensions tried with longer sides first).
  std::vector<int> best;
  std::pair<int, int> best_score{0, 0};
  std::vector<int> b(grid.size(), 1);
  auto search = [&](auto&& self, std::size_t d, std::uint32_t rest) -> void {
    if (d == grid.size()) {
      if (rest != 1) return;
      int side = 0;
      int cells = 0;
      for (std::size_t k = 0; k < grid.size(); ++k) {
        side = std::max(side, b[k]);
        cells = std::max(cells, grid[k] / b[k]);
      }
      const std::pair<int, int> score{side, cells};
      if (best.empty() || score < best_score) {
        best = b;
        best_score = score;
      }
      return;
    }
    for (int a = grid[d]; a >= 1; --a) {
      if (grid[d] % a != 0 || rest % static_cast<std::uint32_t>(a) != 0) continue;
      b[d] = a;
      self(self, d + 1, rest / static_cast<std::uint32_t>(a));
    }
    b[d] = 1;
  };
  search(search, 0, per_node);
  return best;
}

std::vector<std::uint32_t> map_processes(ProcessMapping mapping, const Topology& topo,
                                         std::span<const int> grid, std::uint64_t seed,
                                         std::uint32_t per_node) {
  const std::uint32_t n = topo.num_nodes();
  require(per_node >= 1, "map_processes: no process per node");
  std::vector<std::uint32_t> node_at(n);  // the node of each block of per_node processes
  std::iota(node_at.begin(), node_at.end(), 0U);
  std::vector<std::uint32_t> node_of(static_cast<std::size_t>(n) * per_node);
  if (mapping == ProcessMapping::kRandom) {
    // Fisher-Yates from a stream of its own (the traffic sources use stream ids < 2^32).
    RandomStream rng(seed, 0x6D617070696E67ULL);
    for (std::uint32_t i = n; i > 1; --i) {
      std::swap(node_at[i - 1], node_at[rng.uniform_int(0, i - 1)]);
    }
  }
  if (mapping != ProcessMapping::kTopology) {
    for (std::size_t p = 0; p < node_of.size(); ++p) node_of[p] = node_at[p / per_node];
    return node_of;
  }
  // The grid of boxes (one per node) onto the nodes, then every process to its box's node.
  const std::vector<int> block = node_block(grid, per_node);
  require(!block.empty(), "map_processes: the grid is no multiple of the processes per node");
  std::vector<int> cells(grid.size());
  for (std::size_t d = 0; d < grid.size(); ++d) cells[d] = grid[d] / block[d];
  const std::vector<std::vector<double>> pos = node_positions(topo);
  std::array<int, 3> lo{0, 0, 0};
  std::array<int, 3> hi{1, 1, 1};
  for (std::size_t d = 0; d < cells.size(); ++d) hi[d] = cells[d];
  Bisection b{cells, pos, node_at};
  b.split(lo, hi, std::vector<std::uint32_t>(node_at));
  for (std::size_t p = 0; p < node_of.size(); ++p) {
    std::size_t rest = p;
    std::size_t cell = 0;
    std::size_t stride = 1;
    for (std::size_t d = 0; d < grid.size(); ++d) {
      const auto g = static_cast<std::size_t>(grid[d]);
      cell += (rest % g) / static_cast<std::size_t>(block[d]) * stride;
      stride *= static_cast<std::size_t>(cells[d]);
      rest /= g;
    }
    node_of[p] = node_at[cell];
  }
  return node_of;
}

}  // namespace wormnet
