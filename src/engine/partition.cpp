#include "wormnet/engine/partition.hpp"

#include <algorithm>
#include <functional>
#include <limits>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/torus.hpp"

#ifdef WORMNET_HAVE_METIS
#include <metis.h>
#endif

namespace wormnet {

namespace {

void check_parts(const Topology& topo, int parts) {
  if (parts < 1 || static_cast<std::uint64_t>(parts) > topo.num_nodes() || parts > 65535) {
    throw InputError("ranks", std::to_string(parts),
                     "need between 1 and min(nodes, 65535) ranks for " + topo.spec());
  }
}

/// Every way to write `parts` as an ordered product of `dims` factors.
void factorizations(int parts, int dims, std::vector<int>& current,
                    std::vector<std::vector<int>>& out) {
  if (dims == 1) {
    current.push_back(parts);
    out.push_back(current);
    current.pop_back();
    return;
  }
  for (int f = 1; f <= parts; ++f) {
    if (parts % f != 0) continue;
    current.push_back(f);
    factorizations(parts / f, dims - 1, current, out);
    current.pop_back();
  }
}

}  // namespace

Partition::Partition(std::vector<std::uint16_t> owner, int parts, std::string method)
    : owner_(std::move(owner)), parts_(parts), method_(std::move(method)) {
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(parts), 0);
  for (auto o : owner_) {
    require(o < parts, "partition: owner out of range");
    seen[o] = 1;
  }
  for (auto s : seen) require(s != 0, "partition: a rank owns no node");
}

Partition Partition::blocks(const Topology& topo, int parts) {
  check_parts(topo, parts);
  const std::uint64_t n = topo.num_nodes();
  std::vector<std::uint16_t> owner(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    owner[i] = static_cast<std::uint16_t>(i * static_cast<std::uint64_t>(parts) / n);
  }
  return Partition(std::move(owner), parts, "blocks");
}

Partition Partition::geometric(const Topology& topo, int parts) {
  check_parts(topo, parts);
  const bool honeycomb =
      topo.kind() == TopologyKind::kHoneycomb || topo.kind() == TopologyKind::kHoneycombTorus;
  if (honeycomb || parts == 1) {
    // Honeycomb ids (H_t and the honeycomb tori) run along x: stripes across x.
    Partition p = blocks(topo, parts);
    p.method_ = honeycomb ? "stripes" : "boxes";
    return p;
  }
  const auto& t = static_cast<const Torus&>(topo);
  const int dims = t.num_dims();
  std::vector<std::vector<int>> options;
  std::vector<int> current;
  factorizations(parts, dims, current, options);
  // Links cut by splitting dimension d into f slabs: f cuts (f - 1 in a mesh) of N / k_d links.
  std::uint64_t best_cut = std::numeric_limits<std::uint64_t>::max();
  std::vector<int> best;
  for (const auto& f : options) {
    bool fits = true;
    std::uint64_t cut = 0;
    for (int d = 0; d < dims; ++d) {
      const int fd = f[static_cast<std::size_t>(d)];
      if (fd > t.size(d)) fits = false;
      if (fd == 1) continue;
      const std::uint64_t cuts =
          t.is_ring(d) ? static_cast<std::uint64_t>(fd) : static_cast<std::uint64_t>(fd - 1);
      cut += cuts * (t.num_nodes() / static_cast<std::uint64_t>(t.size(d)));
    }
    if (fits && cut < best_cut) {
      best_cut = cut;
      best = f;
    }
  }
  if (best.empty()) return blocks(topo, parts);  // no box grid fits (e.g. a prime count)
  std::vector<std::uint16_t> owner(t.num_nodes());
  for (std::uint32_t n = 0; n < t.num_nodes(); ++n) {
    std::uint64_t part = 0;
    for (int d = dims - 1; d >= 0; --d) {
      const auto f = static_cast<std::uint64_t>(best[static_cast<std::size_t>(d)]);
      const auto block = static_cast<std::uint64_t>(t.coord(NodeId(n), d)) * f /
                         static_cast<std::uint64_t>(t.size(d));
      part = part * f + block;
    }
    owner[n] = static_cast<std::uint16_t>(part);
  }
  return Partition(std::move(owner), parts, "boxes");
}

bool Partition::metis_available() {
#ifdef WORMNET_HAVE_METIS
  return true;
#else
  return false;
#endif
}

Partition Partition::metis(const Topology& topo, int parts) {
  check_parts(topo, parts);
#ifdef WORMNET_HAVE_METIS
  if (parts == 1) {
    Partition p = blocks(topo, 1);
    p.method_ = "metis";
    return p;
  }
  std::vector<idx_t> xadj{0};
  std::vector<idx_t> adjncy;
  for (std::uint32_t n = 0; n < topo.num_nodes(); ++n) {
    for (int p = 0; p < topo.num_ports(); ++p) {
      const NodeId m = topo.neighbor(NodeId(n), static_cast<PortId>(p));
      if (m.valid()) adjncy.push_back(static_cast<idx_t>(m.value()));
    }
    xadj.push_back(static_cast<idx_t>(adjncy.size()));
  }
  idx_t nvtxs = static_cast<idx_t>(topo.num_nodes());
  idx_t ncon = 1;
  idx_t nparts = parts;
  idx_t objval = 0;
  std::vector<idx_t> part(topo.num_nodes(), 0);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;
  options[METIS_OPTION_CONTIG] = 1;
  const int rc =
      METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), nullptr, nullptr, nullptr,
                          &nparts, nullptr, nullptr, options, &objval, part.data());
  if (rc != METIS_OK) throw InvariantError("METIS_PartGraphKway failed");
  std::vector<std::uint16_t> owner(part.begin(), part.end());
  std::vector<std::uint8_t> used(static_cast<std::size_t>(parts), 0);
  for (auto o : owner) used[o] = 1;
  if (std::find(used.begin(), used.end(), 0) != used.end()) {
    throw InputError("--partition", "metis",
                     "METIS left a rank without nodes; use fewer ranks or --partition geometric");
  }
  return Partition(std::move(owner), parts, "metis");
#else
  throw InputError("--partition", "metis", "this build has no METIS (install libmetis-dev)");
#endif
}

std::vector<std::uint32_t> Partition::nodes_of(int part) const {
  std::vector<std::uint32_t> nodes;
  for (std::uint32_t i = 0; i < owner_.size(); ++i) {
    if (owner_[i] == part) nodes.push_back(i);
  }
  return nodes;
}

std::uint64_t Partition::edge_cut(const Topology& topo) const {
  std::uint64_t cut = 0;
  for (std::uint32_t c = 0; c < topo.num_channels(); ++c) {
    const ChannelId ch(c);
    if (owner(topo.channel_source(ch)) != owner(topo.channel_dest(ch))) ++cut;
  }
  return cut / 2;
}

std::uint64_t Partition::largest_part() const {
  std::vector<std::uint64_t> size(static_cast<std::size_t>(parts_), 0);
  for (auto o : owner_) ++size[o];
  return *std::max_element(size.begin(), size.end());
}

std::uint64_t Partition::smallest_part() const {
  std::vector<std::uint64_t> size(static_cast<std::size_t>(parts_), 0);
  for (auto o : owner_) ++size[o];
  return *std::min_element(size.begin(), size.end());
}

}  // namespace wormnet
