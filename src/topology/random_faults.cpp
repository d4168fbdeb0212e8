#include "wormnet/topology/random_faults.hpp"

#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/core/rng.hpp"

namespace wormnet {

namespace {

/// Whether the working nodes stay connected once node `gone` (or the link of channel `cut`)
/// fails too: a breadth-first search over the working links that avoids them.
class SplitCheck {
 public:
  SplitCheck(const Topology& topo, const FaultSet& faults)
      : topo_(topo), faults_(faults), seen_(topo.num_nodes(), 0) {}

  bool splits(NodeId gone, ChannelId cut) {
    const std::uint32_t n = topo_.num_nodes();
    NodeId start = NodeId::invalid();
    for (std::uint32_t v = 0; v < n && !start.valid(); ++v) {
      if (!faults_.node_failed(NodeId(v)) && NodeId(v) != gone) start = NodeId(v);
    }
    if (!start.valid()) return false;
    const std::uint32_t expected = faults_.working_nodes() - (gone.valid() ? 1U : 0U);
    NodeId a = NodeId::invalid();
    NodeId b = NodeId::invalid();
    PortId pa = 0;
    PortId pb = 0;
    if (cut.valid()) {
      a = topo_.channel_source(cut);
      pa = topo_.channel_port(cut);
      b = topo_.channel_dest(cut);
      pb = Topology::reverse_port(pa);
    }
    if (++epoch_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0);
      epoch_ = 1;
    }
    queue_.assign(1, start.value());
    seen_[start.value()] = epoch_;
    for (std::size_t head = 0; head < queue_.size(); ++head) {
      const NodeId u(queue_[head]);
      const unsigned mask = faults_.working_ports(topo_, u);
      for (int p = 0; p < topo_.num_ports(); ++p) {
        if (((mask >> p) & 1U) == 0) continue;
        if ((u == a && p == pa) || (u == b && p == pb)) continue;
        const NodeId v = topo_.neighbor(u, static_cast<PortId>(p));
        if (v == gone || seen_[v.value()] == epoch_) continue;
        seen_[v.value()] = epoch_;
        queue_.push_back(v.value());
      }
    }
    return queue_.size() != expected;
  }

 private:
  const Topology& topo_;
  const FaultSet& faults_;
  std::vector<std::uint32_t> seen_;  // [node]: epoch of the search that reached it
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> queue_;
};

/// Candidate `i` out of the list: the last one moves into its place.
std::uint32_t take(std::vector<std::uint32_t>& candidates, std::uint64_t i) {
  const std::uint32_t picked = candidates[i];
  candidates[i] = candidates.back();
  candidates.pop_back();
  return picked;
}

}  // namespace

void draw_random_faults(const Topology& topo, FaultSet& faults, std::uint64_t nodes,
                        std::uint64_t links, std::uint64_t seed, bool allow_disconnected) {
  SplitCheck check(topo, faults);
  if (nodes > 0) {
    const std::uint32_t working = faults.working_nodes();
    if (working < 2 || nodes > working - 2) {
      throw InputError("--fail-nodes", std::to_string(nodes),
                       "at most " + std::to_string(working < 2 ? 0 : working - 2) + " of the " +
                           std::to_string(working) + " working nodes of " + topo.spec() +
                           " can fail: two must stay to exchange traffic");
    }
    RandomStream stream(seed, 0);
    std::vector<std::uint32_t> candidates;
    std::vector<std::uint32_t> aside;  // would split the working nodes, for now
    for (std::uint32_t v = 0; v < topo.num_nodes(); ++v) {
      if (!faults.node_failed(NodeId(v))) candidates.push_back(v);
    }
    for (std::uint64_t failed = 0; failed < nodes;) {
      if (candidates.empty()) {
        throw InputError("--fail-nodes", std::to_string(nodes),
                         "only " + std::to_string(failed) + " nodes of " + topo.spec() +
                             " can fail without splitting the working nodes (pass "
                             "--allow-disconnected to let them split)");
      }
      const std::uint32_t v = take(candidates, stream.uniform_int(0, candidates.size() - 1));
      if (!allow_disconnected && check.splits(NodeId(v), ChannelId::invalid())) {
        aside.push_back(v);
        continue;
      }
      faults.fail_node(NodeId(v));
      ++failed;
      candidates.insert(candidates.end(), aside.begin(), aside.end());
      aside.clear();
    }
  }
  if (links > 0) {
    if (links > faults.working_links()) {
      throw InputError("--fail-links", std::to_string(links),
                       "at most the " + std::to_string(faults.working_links()) +
                           " working links of " + topo.spec() + " can fail");
    }
    RandomStream stream(seed, 1);
    std::vector<std::uint32_t> candidates;
    for (std::uint32_t c = 0; c < topo.num_channels(); ++c) {
      const ChannelId ch(c);
      if (Topology::port_sign(topo.channel_port(ch)) > 0 && !faults.channel_failed(ch)) {
        candidates.push_back(c);
      }
    }
    for (std::uint64_t failed = 0; failed < links;) {
      if (candidates.empty()) {
        throw InputError("--fail-links", std::to_string(links),
                         "only " + std::to_string(failed) + " links of " + topo.spec() +
                             " can fail without splitting the working nodes (pass "
                             "--allow-disconnected to let them split)");
      }
      const ChannelId c(take(candidates, stream.uniform_int(0, candidates.size() - 1)));
      if (!allow_disconnected && check.splits(NodeId::invalid(), c)) continue;
      faults.fail_link(c);
      ++failed;
    }
  }
}

}  // namespace wormnet
