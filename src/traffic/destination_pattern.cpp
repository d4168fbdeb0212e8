#include "wormnet/traffic/destination_pattern.hpp"

#include <bit>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"
#include "wormnet/topology/honeycomb_torus.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

namespace {

/// The honeycomb patterns on Stojmenovic's coordinates; `node_at` finds the node at a lattice
/// point (in H_t the point itself, in a honeycomb torus the point modulo its translations).
template <class NodeAt>
std::uint32_t honeycomb_map(const Topology& h, NodeId n, TrafficPattern p, NodeAt node_at) {
  Coord c = h.coords(n);
  switch (p) {
    case TrafficPattern::kTranspose:
      std::swap(c[0], c[1]);
      break;
    case TrafficPattern::kBitComplement:
      for (int i = 0; i < 3; ++i) c[i] = 1 - c[i];
      break;
    case TrafficPattern::kNeighbor:
      for (int port = 0; port < 6; ++port) {
        const NodeId m = h.neighbor(n, static_cast<PortId>(port));
        if (m.valid()) return m.value();
      }
      return n.value();
    case TrafficPattern::kTornado: {
      const std::uint32_t nn = h.num_nodes();
      return (n.value() + (nn + 1) / 2 - 1) % nn;
    }
    default:
      return n.value();
  }
  return node_at(c).value();
}

std::uint32_t torus_map(const Torus& t, NodeId n, TrafficPattern p) {
  Coord c = t.coords(n);
  const int dims = t.num_dims();
  switch (p) {
    case TrafficPattern::kTranspose: {
      bool equal = true;
      for (int d = 1; d < dims; ++d) equal = equal && t.size(d) == t.size(0);
      if (equal) {
        Coord r = c;
        for (int d = 0; d < dims; ++d) r[d] = c[dims - 1 - d];
        return t.node_at(r).value();
      }
      const std::uint32_t nn = t.num_nodes();
      const int bits = std::countr_zero(nn);
      const int rot = bits / 2;
      const std::uint32_t mask = nn - 1;
      const std::uint32_t v = n.value();
      return ((v << rot) | (v >> (bits - rot))) & mask;
    }
    case TrafficPattern::kNeighbor:
      c[0] = (c[0] + 1) % t.size(0);
      break;
    case TrafficPattern::kTornado:
      for (int d = 0; d < dims; ++d) c[d] = (c[d] + (t.size(d) + 1) / 2 - 1) % t.size(d);
      break;
    case TrafficPattern::kBitComplement:
      for (int d = 0; d < dims; ++d) c[d] = t.size(d) - 1 - c[d];
      break;
    default:
      break;
  }
  return t.node_at(c).value();
}

bool is_permutation_pattern(TrafficPattern p) {
  return p == TrafficPattern::kTranspose || p == TrafficPattern::kNeighbor ||
         p == TrafficPattern::kTornado || p == TrafficPattern::kBitComplement;
}

}  // namespace

DestinationPattern::DestinationPattern(const Topology& topo, const TrafficConfig& traffic,
                                       const FaultSet* faults)
    : topo_(topo),
      pattern_(traffic.pattern),
      hotspot_fraction_(traffic.hotspot_fraction),
      self_traffic_(traffic.self_traffic),
      faults_(faults != nullptr && !faults->empty() ? faults : nullptr) {
  for (int h : traffic.hotspot_nodes) hotspots_.push_back(static_cast<std::uint32_t>(h));
  if (hotspots_.empty()) hotspots_.push_back(0);
  if (faults_ != nullptr) {
    rank_.assign(topo.num_nodes(), ~std::uint32_t{0});
    for (std::uint32_t v = 0; v < topo.num_nodes(); ++v) {
      if (faults_->node_failed(NodeId(v))) continue;
      rank_[v] = static_cast<std::uint32_t>(working_.size());
      working_.push_back(v);
    }
    if (pattern_ == TrafficPattern::kHotspot) {
      for (const std::uint32_t h : hotspots_) {
        if (h >= topo.num_nodes() || !faults_->node_failed(NodeId(h))) continue;
        throw InputError("--hotspot-nodes", std::to_string(h),
                         "node " + topo.node_label(NodeId(h)) +
                             " has failed: a hotspot must be a working node" +
                             (traffic.hotspot_nodes.empty() ? " (node 0 is the default)" : ""));
      }
    }
  }
  if (!is_permutation_pattern(pattern_)) return;

  if (pattern_ == TrafficPattern::kTranspose &&
      (topo.kind() == TopologyKind::kTorus || topo.kind() == TopologyKind::kMesh)) {
    const auto& t = static_cast<const Torus&>(topo);
    bool equal = true;
    for (int d = 1; d < t.num_dims(); ++d) equal = equal && t.size(d) == t.size(0);
    if (!equal && !std::has_single_bit(t.num_nodes())) {
      throw InputError("--traffic", enum_name(pattern_),
                       "transpose on " + topo.spec() +
                           " needs equal dimension sizes or a power-of-two node count");
    }
  }
  permutation_.resize(topo.num_nodes());
  for (std::uint32_t n = 0; n < topo.num_nodes(); ++n) {
    switch (topo.kind()) {
      case TopologyKind::kHoneycomb:
        permutation_[n] = honeycomb_map(topo, NodeId(n), pattern_, [&](const Coord& c) {
          return static_cast<const HoneycombMesh&>(topo).node_at(c);
        });
        break;
      case TopologyKind::kHoneycombTorus:
        permutation_[n] = honeycomb_map(topo, NodeId(n), pattern_, [&](const Coord& c) {
          return static_cast<const HoneycombTorus&>(topo).lattice_node(c[0], c[1], c[2]);
        });
        break;
      case TopologyKind::kTorus:
      case TopologyKind::kMesh:
        permutation_[n] = torus_map(static_cast<const Torus&>(topo), NodeId(n), pattern_);
        break;
    }
    require(permutation_[n] < topo.num_nodes(), "traffic pattern maps outside the network");
  }
  if (topo.kind() == TopologyKind::kHoneycombTorus) {
    // (x, y, z) -> (y, x, z) is a map of the torus only when swapping x and y maps its
    // translations onto themselves (HT_T: always; the rectangular and rhombic tori: not in
    // general). Refuse a "permutation" that sends two nodes to one.
    std::vector<std::uint8_t> hit(topo.num_nodes(), 0);
    for (const std::uint32_t d : permutation_) {
      if (hit[d]++ != 0) {
        throw InputError("--traffic", enum_name(pattern_),
                         "is not a permutation of the nodes of " + topo.spec() +
                             " (swapping x and y does not map this torus onto itself)");
      }
    }
  }
  if (faults_ != nullptr) {
    // Nothing goes to a failed node: a working source mapped onto one falls silent.
    for (std::uint32_t n = 0; n < topo.num_nodes(); ++n) {
      const std::uint32_t d = permutation_[n];
      if (d == n || !faults_->node_failed(NodeId(d))) continue;
      if (!faults_->node_failed(NodeId(n))) ++silenced_;
      permutation_[n] = n;
    }
  }
}

bool DestinationPattern::silent(NodeId src) const {
  if (faults_ != nullptr && faults_->node_failed(src)) return true;
  return !permutation_.empty() && permutation_[src.value()] == src.value();
}

NodeId DestinationPattern::uniform(NodeId src, RandomStream& rng) const {
  if (faults_ != nullptr) {
    // The same draws over the W working nodes (src is one of them).
    const auto w = static_cast<std::uint64_t>(working_.size());
    if (self_traffic_) return NodeId(working_[rng.uniform_int(0, w - 1)]);
    const auto r = static_cast<std::uint32_t>(rng.uniform_int(0, w - 2));
    return NodeId(working_[r >= rank_[src.value()] ? r + 1 : r]);
  }
  // With self-traffic uniform over all N nodes, the source included (BookSim's uniform).
  if (self_traffic_) {
    return NodeId(static_cast<std::uint32_t>(rng.uniform_int(0, topo_.num_nodes() - 1)));
  }
  // Uniform over the N-1 other nodes: draw in [0, N-2] and skip the source.
  const auto r = static_cast<std::uint32_t>(rng.uniform_int(0, topo_.num_nodes() - 2));
  return NodeId(r >= src.value() ? r + 1 : r);
}

NodeId DestinationPattern::destination(NodeId src, RandomStream& rng, std::uint64_t index) const {
  const NodeId d = draw(src, rng, index);
  // Dropped after the draw, so that every other message keeps its destination.
  if (carried_ && d.valid() && !carried_(src, d)) return NodeId::invalid();
  return d;
}

NodeId DestinationPattern::draw(NodeId src, RandomStream& rng, std::uint64_t index) const {
  switch (pattern_) {
    case TrafficPattern::kUniform:
      return uniform(src, rng);
    case TrafficPattern::kHotspot: {
      if (rng.uniform() < hotspot_fraction_) {
        const auto k = static_cast<std::size_t>(rng.uniform_int(0, hotspots_.size() - 1));
        if (hotspots_[k] != src.value()) return NodeId(hotspots_[k]);
      }
      return uniform(src, rng);
    }
    case TrafficPattern::kAllToAll: {
      if (faults_ != nullptr) {
        const std::uint64_t w = working_.size();
        return NodeId(working_[(rank_[src.value()] + 1 + index % (w - 1)) % w]);
      }
      const std::uint64_t n = topo_.num_nodes();
      return NodeId(static_cast<std::uint32_t>((src.value() + 1 + index % (n - 1)) % n));
    }
    default: {
      const std::uint32_t d = permutation_[src.value()];
      return d == src.value() ? NodeId::invalid() : NodeId(d);
    }
  }
}

}  // namespace wormnet
