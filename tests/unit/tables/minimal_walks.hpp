// Test helper shared by the routing-graph and route-search tests: every minimal walk between
// two nodes, enumerated by brute force over the topology alone (independent of the routing
// graph it is compared with).
#pragma once

#include <string>
#include <vector>

#include "wormnet/topology/torus.hpp"

namespace wormnet::tables::test_support {

/// A route as its port sequence (a string of port numbers: compares and hashes cheaply).
using Walk = std::string;

/// Appends to `out` every minimal walk from `at` to d, each prefixed by `walk`.
inline void minimal_walks(const Torus& t, NodeId at, NodeId d, Walk& walk, std::vector<Walk>& out) {
  if (at == d) {
    out.push_back(walk);
    return;
  }
  for (int p = 0; p < t.num_ports(); ++p) {
    const NodeId next = t.neighbor(at, static_cast<PortId>(p));
    if (!next.valid() || t.distance(next, d) != t.distance(at, d) - 1) continue;
    walk.push_back(static_cast<char>(p));
    minimal_walks(t, next, d, walk, out);
    walk.pop_back();
  }
}

}  // namespace wormnet::tables::test_support
