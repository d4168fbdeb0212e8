#include "wormnet/tables/fault_record.hpp"

#include <algorithm>

#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_schema.hpp"
#include "wormnet/topology/working_network.hpp"

namespace wormnet::tables {

namespace {

std::vector<std::uint32_t> sorted_links(const FaultSet& faults) {
  std::vector<std::uint32_t> links;
  for (const ChannelId c : faults.failed_links()) links.push_back(c.value());
  std::sort(links.begin(), links.end());
  return links;
}

}  // namespace

void write_faults(const io::H5Group& root, const Topology& topo, const FaultSet& faults,
                  const FaultConfig& config, std::uint64_t silenced) {
  if (!config.any()) return;
  const io::H5Group g = root.create_group(fault_schema::kGroup);
  const std::uint64_t working_nodes = faults.empty() ? topo.num_nodes() : faults.working_nodes();
  const std::uint64_t working_links = faults.empty() ? topo.num_links() : faults.working_links();
  g.set_attribute("failed_nodes", static_cast<std::uint64_t>(faults.failed_nodes().size()));
  g.set_attribute("failed_links", static_cast<std::uint64_t>(faults.failed_links().size()));
  g.set_attribute("working_nodes", working_nodes);
  g.set_attribute("working_links", working_links);
  const WorkingConnectivity c = working_connectivity(topo, faults);
  g.set_attribute("components", static_cast<std::uint64_t>(c.components));
  g.set_attribute("file", std::string_view(config.file));
  g.set_attribute("random_nodes", config.nodes);
  g.set_attribute("random_links", config.links);
  g.set_attribute("fault_seed", config.seed);
  g.set_attribute("allow_disconnected", static_cast<std::int64_t>(config.allow_disconnected));
  g.set_attribute("silenced_sources", silenced);
  g.set_attribute(io::schema::kDescriptionAttr,
                  std::string_view("failed links and nodes (docs/faults.md): nodes = failed "
                                   "node ids, links = failed links by their + channel id, "
                                   "channels = every failed channel id (failed links both ways "
                                   "and every channel of a failed node)"));
  std::vector<std::uint32_t> nodes;
  for (const NodeId n : faults.failed_nodes()) nodes.push_back(n.value());
  const std::vector<std::uint32_t> links = sorted_links(faults);
  std::vector<std::uint32_t> channels;
  for (const ChannelId ch : faults.failed_channels()) channels.push_back(ch.value());
  g.write_dataset<std::uint32_t>(fault_schema::kNodes, nodes);
  g.write_dataset<std::uint32_t>(fault_schema::kLinks, links);
  g.write_dataset<std::uint32_t>(fault_schema::kChannels, channels);
}

RecordedFaults read_faults(const io::H5Group& root) {
  RecordedFaults out;
  if (!root.has_group(fault_schema::kGroup)) return out;
  const io::H5Group g = root.open_group(fault_schema::kGroup);
  for (const auto name : {fault_schema::kNodes, fault_schema::kLinks}) {
    const io::H5DataSet ds = g.open_dataset(name);
    if (ds.shape().size() != 1 || ds.element_type() != io::ElementType::kUInt32) {
      throw io::H5Error("dataset faults/" + std::string(name) + " must be a uint32 list");
    }
    (name == fault_schema::kNodes ? out.nodes : out.links) = ds.read<std::uint32_t>();
  }
  std::sort(out.nodes.begin(), out.nodes.end());
  std::sort(out.links.begin(), out.links.end());
  return out;
}

bool same_faults(const RecordedFaults& recorded, const FaultSet& faults) {
  std::vector<std::uint32_t> nodes;
  for (const NodeId n : faults.failed_nodes()) nodes.push_back(n.value());
  return recorded.nodes == nodes && recorded.links == sorted_links(faults);
}

}  // namespace wormnet::tables
