// libFuzzer target: the fault file (read_fault_list, docs/faults.md) on torus:4x4 and H_3.
// Any input either records its faults or throws InputError naming --faults; recorded faults
// are consistent: a failed link fails both its channels, a failed node every channel of its
// links, the working counts add up, and the faults written back as a fault file (one line
// each) read back to the same set.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/fault_file.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void exercise(const wormnet::Topology& topo, std::string_view text) {
  using wormnet::ChannelId;
  using wormnet::NodeId;
  wormnet::FaultSet faults(topo);
  try {
    wormnet::read_fault_list(topo, text, "--faults", "f.txt", faults);
  } catch (const wormnet::InputError& e) {
    check(e.option() == "--faults" && e.value() == "f.txt" && !e.allowed().empty());
    return;
  }
  std::uint64_t down = 0;  // channels that do not work
  for (std::uint32_t c = 0; c < topo.num_channels(); ++c) {
    const ChannelId ch(c);
    const bool failed = faults.channel_failed(ch);
    const NodeId a = topo.channel_source(ch);
    const NodeId b = topo.channel_dest(ch);
    const ChannelId back = topo.channel(b, wormnet::Topology::reverse_port(topo.channel_port(ch)));
    check(failed == faults.channel_failed(back));
    if (faults.node_failed(a) || faults.node_failed(b)) check(failed);
    down += failed ? 1 : 0;
  }
  check(down == faults.failed_channels().size());
  check(2 * faults.working_links() + down == topo.num_channels());
  check(faults.working_nodes() + faults.failed_nodes().size() == topo.num_nodes());
  std::string again;
  for (const NodeId n : faults.failed_nodes()) again += "node " + topo.node_label(n) + "\n";
  for (const ChannelId c : faults.failed_links()) again += "link " + topo.channel_label(c) + "\n";
  wormnet::FaultSet reread(topo);
  wormnet::read_fault_list(topo, again, "--faults", "again", reread);
  check(reread.same_faults(faults));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::unique_ptr<wormnet::Topology> torus = wormnet::make_topology("torus:4x4");
  static const std::unique_ptr<wormnet::Topology> honeycomb = wormnet::make_topology("honeycomb:3");
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  exercise(*torus, text);
  exercise(*honeycomb, text);
  return 0;
}
