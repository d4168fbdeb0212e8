#include "wormnet/workload/message_graph.hpp"

#include <algorithm>

namespace wormnet {

std::uint32_t MessageGraph::add(std::uint32_t source, std::uint32_t dest, std::uint32_t flits,
                                std::uint32_t iteration, Cycle after,
                                std::span<const std::uint32_t> deps, std::uint32_t compute) {
  WorkloadMessage m;
  m.source = source;
  m.dest = dest;
  m.flits = flits;
  m.iteration = iteration;
  m.after = after;
  m.first_dep = static_cast<std::uint32_t>(deps_.size());
  m.dep_count = static_cast<std::uint32_t>(deps.size());
  m.compute = compute;
  deps_.insert(deps_.end(), deps.begin(), deps.end());
  messages_.push_back(m);
  return static_cast<std::uint32_t>(messages_.size() - 1);
}

std::string MessageGraph::check_message(std::uint32_t id, std::uint32_t nodes,
                                        bool local_allowed) const {
  const WorkloadMessage& m = messages_[id];
  const std::string name = "message " + std::to_string(id);
  if (m.source >= nodes || m.dest >= nodes) {
    return name + ": node " + std::to_string(std::max(m.source, m.dest)) +
           " is outside the network (nodes 0.." + std::to_string(nodes - 1) + ")";
  }
  if (m.local() && !local_allowed) {
    return name + ": source and destination are the same node";
  }
  if (m.flits > kMaxFlits || (m.flits == 0 && !m.local())) {
    return name + ": size " + std::to_string(m.flits) + " flits is outside 1.." +
           std::to_string(kMaxFlits) + (local_allowed ? " (0 only within a node)" : "");
  }
  if (m.compute > kMaxCompute) {
    return name + ": compute " + std::to_string(m.compute) + " cycles is outside 0.." +
           std::to_string(kMaxCompute);
  }
  for (const std::uint32_t d : deps_of(id)) {
    if (d >= id) {
      return name + ": depends on message " + std::to_string(d) + ", which is not earlier";
    }
    const WorkloadMessage& p = messages_[d];
    if (p.dest != m.source && p.source != m.source) {
      return name + ": depends on message " + std::to_string(d) +
             ", which its source node neither sent nor received";
    }
  }
  return "";
}

std::uint32_t MessageGraph::iterations() const {
  std::uint32_t n = 0;
  for (const WorkloadMessage& m : messages_) n = std::max(n, m.iteration + 1);
  return n;
}

MessageGraph::Kinds MessageGraph::kinds() const {
  Kinds k;
  for (const WorkloadMessage& m : messages_) {
    if (!m.local()) {
      ++k.network;
    } else if (m.marker()) {
      ++k.markers;
    } else {
      ++k.local;
    }
    k.compute += m.compute;
  }
  return k;
}

MessageGraph::FlitRange MessageGraph::flit_range() const {
  FlitRange r;
  bool any = false;
  for (std::uint32_t id = 0; id < size(); ++id) {
    if (messages_[id].local()) continue;  // never a packet
    const std::uint32_t f = messages_[id].flits;
    if (!any || f < r.shortest) r.shortest = f;
    if (!any || f > r.longest) {
      r.longest = f;
      r.longest_id = id;
    }
    any = true;
  }
  return r;
}

}  // namespace wormnet
