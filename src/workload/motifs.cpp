#include "wormnet/workload/motifs.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

#include "graph_builder.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

using workload_detail::GraphBuilder;

using Lists = std::vector<std::vector<std::uint32_t>>;

/// Grid coordinates of process p (x fastest).
std::array<int, 3> grid_coords(std::uint32_t p, const std::vector<int>& grid) {
  std::array<int, 3> c{0, 0, 0};
  for (std::size_t d = 0; d < grid.size(); ++d) {
    c[d] = static_cast<int>(p % static_cast<std::uint32_t>(grid[d]));
    p /= static_cast<std::uint32_t>(grid[d]);
  }
  return c;
}

std::uint32_t grid_process(const std::array<int, 3>& c, const std::vector<int>& grid) {
  std::uint32_t p = 0;
  for (std::size_t d = grid.size(); d-- > 0;) {
    p = p * static_cast<std::uint32_t>(grid[d]) + static_cast<std::uint32_t>(c[d]);
  }
  return p;
}

/// Stencil: every iteration each process sends to its grid neighbours (-x, +x, -y, +y, -z,
/// +z, those inside the grid) once it has every message of the previous iteration.
void halo(const MotifSpec& s, GraphBuilder& b) {
  const std::uint32_t n = b.processes();
  Lists previous(n);
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    Lists received(n);
    for (std::uint32_t p = 0; p < n; ++p) {
      const std::array<int, 3> c = grid_coords(p, s.grid);
      std::vector<std::uint32_t> to;
      for (std::size_t d = 0; d < s.grid.size(); ++d) {
        for (const int step : {-1, +1}) {
          std::array<int, 3> q = c;
          q[d] += step;
          if (q[d] < 0 || q[d] >= s.grid[d]) continue;
          to.push_back(grid_process(q, s.grid));
        }
      }
      const std::vector<std::uint32_t> ids = b.step(p, to, s.flits, it, previous[p], s.compute);
      for (std::size_t k = 0; k < to.size(); ++k) received[to[k]].push_back(ids[k]);
    }
    previous = std::move(received);
  }
}

/// Wavefront: process (x, y) sends to (x+1, y) and (x, y+1) once it has the messages of
/// (x-1, y) and (x, y-1) of the same iteration; iterations follow each other in every
/// process's program order, so they pipeline behind the front.
void sweep(const MotifSpec& s, GraphBuilder& b) {
  const std::uint32_t n = b.processes();
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    Lists received(n);
    for (std::uint32_t p = 0; p < n; ++p) {  // row by row: upstream processes come first
      const std::array<int, 3> c = grid_coords(p, s.grid);
      std::vector<std::uint32_t> to;
      for (std::size_t d = 0; d < 2; ++d) {
        std::array<int, 3> q = c;
        ++q[d];
        if (q[d] < s.grid[d]) to.push_back(grid_process(q, s.grid));
      }
      const std::vector<std::uint32_t> ids = b.step(p, to, s.flits, it, received[p], s.compute);
      for (std::size_t k = 0; k < to.size(); ++k) received[to[k]].push_back(ids[k]);
    }
  }
}

/// Ring allreduce: 2(P - 1) steps; at each step every process sends one message to its
/// successor once it has its predecessor's message of the step before.
void ring(const MotifSpec& s, GraphBuilder& b) {
  const std::uint32_t n = b.processes();
  if (n < 2) return;
  Lists previous(n);
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    for (std::uint32_t step = 0; step < 2 * (n - 1); ++step) {
      Lists received(n);
      for (std::uint32_t p = 0; p < n; ++p) {
        const std::uint32_t next = (p + 1) % n;
        const std::uint32_t to[1] = {next};
        received[next].push_back(b.step(p, to, s.flits, it, previous[p], s.compute)[0]);
      }
      previous = std::move(received);
    }
  }
}

/// Recursive doubling: P2 = the largest power of two <= P; the R = P - P2 extra processes
/// first send to process e - P2, the P2 processes exchange with partner p xor 2^k for
/// k = 0..log2(P2)-1, and processes p < R send the result back to p + P2.
void recursive_doubling(const MotifSpec& s, GraphBuilder& b) {
  const std::uint32_t n = b.processes();
  if (n < 2) return;
  const std::uint32_t p2 = std::bit_floor(n);
  const std::uint32_t extra = n - p2;
  Lists last(n);  // what each process received last (the previous iteration's result)
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    Lists waits = last;
    for (std::uint32_t e = p2; e < n; ++e) {
      const std::uint32_t to[1] = {e - p2};
      waits[e - p2].push_back(b.step(e, to, s.flits, it, last[e], s.compute)[0]);
    }
    for (std::uint32_t k = 1; k < p2; k <<= 1) {
      Lists received(n);
      for (std::uint32_t p = 0; p < p2; ++p) {
        const std::uint32_t to[1] = {p ^ k};
        received[p ^ k].push_back(b.step(p, to, s.flits, it, waits[p], s.compute)[0]);
      }
      for (std::uint32_t p = 0; p < p2; ++p) waits[p] = std::move(received[p]);
    }
    Lists done(n);
    for (std::uint32_t p = 0; p < p2; ++p) done[p] = waits[p];
    for (std::uint32_t p = 0; p < extra; ++p) {
      const std::uint32_t to[1] = {p + p2};
      done[p + p2].push_back(b.step(p, to, s.flits, it, waits[p], s.compute)[0]);
    }
    last = std::move(done);
  }
}

/// All-to-all: process p sends to p+1, p+2, ..., p+P-1 (mod P) once it has every message of
/// the previous iteration.
void all_to_all(const MotifSpec& s, GraphBuilder& b) {
  const std::uint32_t n = b.processes();
  Lists previous(n);
  std::vector<std::uint32_t> to;
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    Lists received(n);
    for (std::uint32_t p = 0; p < n; ++p) {
      to.clear();
      for (std::uint32_t k = 1; k < n; ++k) to.push_back((p + k) % n);
      const std::vector<std::uint32_t> ids = b.step(p, to, s.flits, it, previous[p], s.compute);
      for (std::size_t k = 0; k < to.size(); ++k) received[to[k]].push_back(ids[k]);
    }
    previous = std::move(received);
  }
}

}  // namespace

Motif motif_of(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kHalo2d:
      return Motif::kHalo2d;
    case WorkloadKind::kHalo3d:
      return Motif::kHalo3d;
    case WorkloadKind::kAllreduceRing:
      return Motif::kAllreduceRing;
    case WorkloadKind::kAllreduceRd:
      return Motif::kAllreduceRd;
    case WorkloadKind::kAllToAll:
      return Motif::kAllToAll;
    case WorkloadKind::kSweep2d:
      return Motif::kSweep2d;
    default:
      throw std::logic_error(std::string("motif_of: ") + enum_name(kind) + " is not a motif");
  }
}

int grid_dimensions(Motif m) {
  switch (m) {
    case Motif::kHalo2d:
    case Motif::kSweep2d:
      return 2;
    case Motif::kHalo3d:
      return 3;
    default:
      return 0;
  }
}

std::uint64_t motif_messages_per_iteration(Motif m, std::uint64_t processes, bool compute) {
  const std::uint64_t p = processes;
  std::uint64_t n = 0;
  switch (m) {
    case Motif::kHalo2d:
    case Motif::kHalo3d:
      n = 2 * static_cast<std::uint64_t>(grid_dimensions(m)) * p;
      break;
    case Motif::kSweep2d:
      n = 2 * p;
      break;
    case Motif::kAllreduceRing:
      n = 2 * (p - 1) * p;
      break;
    case Motif::kAllreduceRd:
      n = p * 64;
      break;
    case Motif::kAllToAll:
      n = p * (p - 1);
      break;
  }
  return compute ? n + p : n;
}

std::vector<int> balanced_grid(std::uint32_t processes, int dims) {
  // Every factorization into `dims` factors, largest first; the one with the smallest
  // largest factor (then the largest smallest) is the most nearly cubic.
  std::vector<int> best;
  std::vector<int> f(static_cast<std::size_t>(dims), 1);
  auto search = [&](auto&& self, int d, std::uint32_t rest, std::uint32_t cap) -> void {
    if (d == dims - 1) {
      if (rest > cap) return;
      f[static_cast<std::size_t>(d)] = static_cast<int>(rest);
      if (best.empty() || f.front() < best.front() ||
          (f.front() == best.front() && f.back() > best.back())) {
        best = f;
      }
      return;
    }
    for (std::uint32_t a = std::min(cap, rest); a >= 1; --a) {
      if (rest % a != 0) continue;
      f[static_cast<std::size_t>(d)] = static_cast<int>(a);
      self(self, d + 1, rest / a, a);
    }
  };
  search(search, 0, processes, processes);
  return best;
}

MessageGraph make_motif(const MotifSpec& spec, std::span<const std::uint32_t> node_of) {
  std::uint64_t product = 1;
  for (const int g : spec.grid) product *= static_cast<std::uint64_t>(g);
  require(product == node_of.size(), "make_motif: the grid does not hold every process");
  GraphBuilder b(node_of);
  switch (spec.motif) {
    case Motif::kHalo2d:
    case Motif::kHalo3d:
      halo(spec, b);
      break;
    case Motif::kSweep2d:
      sweep(spec, b);
      break;
    case Motif::kAllreduceRing:
      ring(spec, b);
      break;
    case Motif::kAllreduceRd:
      recursive_doubling(spec, b);
      break;
    case Motif::kAllToAll:
      all_to_all(spec, b);
      break;
  }
  return b.take();
}

}  // namespace wormnet
