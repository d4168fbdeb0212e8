// One destination per orbit of a routing's declared network symmetries (private to
// src/verify): the orbits, which symmetries fix a destination, and the images of loads and
// dependencies. A symmetry g maps the flows toward d onto those toward g(d)
// (RoutingFunction::symmetries()), so the loads toward a whole orbit are the images, under one
// g per orbit member, of the loads toward its representative.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/verify/exact_sum.hpp"

namespace wormnet::detail {

/// Destinations one per orbit: each node that is the smallest of its images.
std::vector<NodeId> orbit_representatives(const std::vector<NetworkSymmetry>& group,
                                          std::uint32_t nodes);

/// Bit i set when group[i] fixes d (at most 32 symmetries).
std::uint32_t stabilizer(const std::vector<NetworkSymmetry>& group, NodeId d);

/// One element of the group per member of d's orbit (the first that reaches it, in group
/// order); the same list serves every destination with the same stabilizer.
std::vector<std::size_t> orbit_movers(const std::vector<NetworkSymmetry>& group, NodeId d);

/// out[g(c)] += in[c] for every channel c.
void add_images(const Topology& topo, const NetworkSymmetry& g, std::span<const ExactSum> in,
                std::span<ExactSum> out);

/// ORs into the dependency words ([channel * vcs + vc] -> successor bits port * vcs + vc, as
/// ChannelDependencyGraph::words()) their images under every element of the group.
void add_dependency_images(const Topology& topo, const std::vector<NetworkSymmetry>& group, int vcs,
                           std::span<std::uint64_t> words);

}  // namespace wormnet::detail
