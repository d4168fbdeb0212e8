// libFuzzer target: the topology specification parser (make_topology). Any input either
// builds a topology or throws InputError; a built topology is consistent: its canonical spec
// builds the same network again, node ids and coordinates map both ways, and every channel
// leads to a neighbour that links back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

/// The product of the numbers in `spec`, saturated: an upper bound of the size of what it
/// asks for (honeycomb:T has 6T^2 nodes). Networks too large to build within the fuzzer's
/// memory limit are only parsed up to the size check, which is what the factory does first.
std::uint64_t size_bound(std::string_view spec) {
  std::uint64_t product = 1;
  std::uint64_t n = 0;
  bool in_number = false;
  for (std::size_t i = 0; i <= spec.size(); ++i) {
    const bool digit = i < spec.size() && spec[i] >= '0' && spec[i] <= '9';
    if (digit) {
      n = n > (1ULL << 40) ? n : n * 10 + static_cast<std::uint64_t>(spec[i] - '0');
      in_number = true;
    } else if (in_number) {
      product = (n == 0 || product > (1ULL << 40) / n) ? (n == 0 ? 0 : (1ULL << 41)) : product * n;
      n = 0;
      in_number = false;
    }
  }
  return product;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  // At most 2^17 nodes: honeycomb:T and honeycomb-torus:T have 6T^2 (honeycomb:4443, 118
  // million nodes, once passed a bound that took T for the node count and ran out of
  // memory), the other kinds at most the product of their sizes.
  const std::uint64_t bound = size_bound(spec);
  const bool honeycomb = spec.rfind("honeycomb", 0) == 0;
  const std::uint64_t nodes = !honeycomb ? bound : bound > (1ULL << 20) ? ~0ULL : 6 * bound * bound;
  if (nodes > (1ULL << 17)) return 0;
  try {
    const auto topo = wormnet::make_topology(spec);
    check(topo->num_nodes() > 0);
    const auto again = wormnet::make_topology(topo->spec());
    check(again->spec() == topo->spec() && again->num_nodes() == topo->num_nodes() &&
          again->num_channels() == topo->num_channels());
    const std::uint32_t n = topo->num_nodes();
    for (const std::uint32_t id : {0U, n / 2, n - 1}) {
      const wormnet::NodeId node(id);
      check(topo->node_at(topo->coords(node)) == node);
      for (int p = 0; p < topo->num_ports(); ++p) {
        const wormnet::NodeId m = topo->neighbor(node, static_cast<wormnet::PortId>(p));
        if (!m.valid()) continue;
        check(m.value() < n);
        check(topo->distance(node, m) == 1);
      }
    }
    check(topo->diameter() >= 0);
  } catch (const wormnet::InputError& e) {
    // The message names the option (main prints it on one line, control bytes flattened).
    check(std::string_view(e.what()).rfind("--topology", 0) == 0);
  }
  return 0;
}
