// Parses a topology specification and builds the topology: the one place where the
// string form becomes a typed object.
#pragma once

#include <memory>
#include <string_view>

#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Builds "honeycomb:T", "torus:AxBx...", "mesh:AxBx...", or a honeycomb torus
/// "honeycomb-torus:T", "honeycomb-rect:MxN", "honeycomb-rhombic:MxN". Throws InputError naming
/// `option` (default "--topology") with the value and the accepted forms.
/// The accepted forms, for --help texts.
const char* topology_forms();

std::unique_ptr<Topology> make_topology(std::string_view spec,
                                        std::string_view option = "--topology");

}  // namespace wormnet
