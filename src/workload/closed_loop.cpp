#include "wormnet/workload/closed_loop.hpp"

#include <algorithm>
#include <limits>

#include "wormnet/core/error.hpp"

namespace wormnet {

std::vector<std::uint64_t> WorkloadTimes::flat() const {
  std::vector<std::uint64_t> v(issued);
  v.insert(v.end(), injected.begin(), injected.end());
  v.insert(v.end(), delivered.begin(), delivered.end());
  return v;
}

WorkloadTimes WorkloadTimes::from_flat(const std::vector<std::uint64_t>& v) {
  const std::size_t n = v.size() / 3;
  const auto at = [&](std::size_t k) { return v.begin() + static_cast<std::ptrdiff_t>(k * n); };
  return WorkloadTimes{{at(0), at(1)}, {at(1), at(2)}, {at(2), at(3)}};
}

ClosedLoop::ClosedLoop(const MessageGraph& graph, const std::vector<std::uint32_t>& local_nodes,
                       std::uint32_t nodes, Cycle local_latency)
    : graph_(graph), local_(nodes, 0), first_of_(nodes + 1, 0), local_latency_(local_latency) {
  require(local_latency >= 1, "workload: a local latency below 1 cycle");
  const std::uint32_t n = graph.size();
  for (const std::uint32_t v : local_nodes) local_[v] = 1;
  const std::vector<WorkloadMessage>& ms = graph.messages();
  // Messages grouped by source (counting sort keeps id order within a source): a packet's
  // id carries its source and its place there, which finds the message on any rank.
  for (const WorkloadMessage& m : ms) ++first_of_[m.source + 1];
  for (std::uint32_t v = 0; v < nodes; ++v) first_of_[v + 1] += first_of_[v];
  by_source_.resize(n);
  sequence_.resize(n);
  std::vector<std::uint32_t> fill(first_of_.begin(), first_of_.end() - 1);
  for (std::uint32_t id = 0; id < n; ++id) {
    const std::uint32_t k = fill[ms[id].source]++;
    by_source_[k] = id;
    sequence_[id] = k - first_of_[ms[id].source];
  }
  // Who depends on whom, as one array of lists.
  first_dependent_.assign(n + 1, 0);
  for (std::uint32_t id = 0; id < n; ++id) {
    for (const std::uint32_t d : graph.deps_of(id)) ++first_dependent_[d + 1];
  }
  for (std::uint32_t id = 0; id < n; ++id) first_dependent_[id + 1] += first_dependent_[id];
  dependents_.resize(first_dependent_[n]);
  std::vector<std::uint32_t> put(first_dependent_.begin(), first_dependent_.end() - 1);
  for (std::uint32_t id = 0; id < n; ++id) {
    for (const std::uint32_t d : graph.deps_of(id)) dependents_[put[d]++] = id;
  }
  waiting_.assign(n, 0);
  ready_.assign(n, 0);
  times_.issued.assign(n, 0);
  times_.injected.assign(n, 0);
  times_.delivered.assign(n, 0);
  for (std::uint32_t id = 0; id < n; ++id) {
    if (!local(ms[id].source)) continue;
    waiting_[id] = ms[id].dep_count;
    if (waiting_[id] == 0) due_.push(Due{std::max<Cycle>(ms[id].after, ms[id].compute), id});
  }
}

Cycle ClosedLoop::next_release() const {
  return due_.empty() ? std::numeric_limits<Cycle>::max() : due_.top().cycle;
}

void ClosedLoop::satisfy(std::uint32_t id, Cycle at) {
  ready_[id] = std::max(ready_[id], at);
  require(waiting_[id] > 0, "workload: a dependency was satisfied twice");
  if (--waiting_[id] == 0) {
    const WorkloadMessage& m = graph_.messages()[id];
    due_.push(Due{std::max(ready_[id] + m.compute, m.after), id});
  }
}

Cycle ClosedLoop::local_delivery(std::uint32_t id, Cycle issued) const {
  const WorkloadMessage& m = graph_.messages()[id];
  return m.marker() ? issued : issued + local_latency_ + m.flits - 1;
}

void ClosedLoop::deliver_local(std::uint32_t id, Cycle at) {
  times_.delivered[id] = at + 1;
  ++delivered_count_;
  last_delivery_ = std::max(last_delivery_, at);
  // Every dependent of a message within a node is sent from that node (check_message).
  for (std::uint32_t k = first_dependent_[id]; k < first_dependent_[id + 1]; ++k) {
    satisfy(dependents_[k], at);
  }
}

void ClosedLoop::release(Cycle t, std::vector<std::pair<NodeId, Message>>& out) {
  const std::vector<WorkloadMessage>& ms = graph_.messages();
  // Ordered by (cycle, local deliveries first, id): a source's messages enter its queue in
  // program order, and the messages that wait only for this one being issued (its
  // successors) follow in this call.
  while (!due_.empty() && due_.top().cycle <= t) {
    const Due e = due_.top();
    due_.pop();
    if (e.delivery) {
      deliver_local(e.id, e.cycle);
      continue;
    }
    const std::uint32_t id = e.id;
    const WorkloadMessage& m = ms[id];
    times_.issued[id] = t + 1;
    if (m.local()) {
      // Never a packet: it waits in no queue, and it is delivered here (a marker at once).
      times_.injected[id] = t + 1;
      if (m.marker()) {
        deliver_local(id, t);
      } else {
        due_.push(Due{local_delivery(id, t), id, true});
      }
      continue;
    }
    Message msg;
    msg.created = t;
    msg.dest = m.dest;
    msg.length = static_cast<std::uint16_t>(m.flits);
    msg.measured = 1;
    msg.sequence = sequence_[id];
    out.emplace_back(NodeId(m.source), msg);
    for (std::uint32_t k = first_dependent_[id]; k < first_dependent_[id + 1]; ++k) {
      const std::uint32_t j = dependents_[k];
      if (ms[j].source == m.source) satisfy(j, t);
    }
  }
}

MessageScript::Released ClosedLoop::released() const {
  // From the issue times, so a restart needs no counter of its own.
  Released r;
  const std::vector<WorkloadMessage>& ms = graph_.messages();
  for (std::size_t id = 0; id < ms.size(); ++id) {
    if (times_.issued[id] == 0 || ms[id].local()) continue;  // a local one is no packet
    ++r.packets;
    r.flits += ms[id].flits;
  }
  return r;
}

void ClosedLoop::delivered(const Packet& p, Cycle done) {
  const std::uint32_t k = first_of_[p.source] + static_cast<std::uint32_t>(p.id & 0xFFFFFFFFU);
  require(k < first_of_[p.source + 1], "workload: a delivered packet is no workload message");
  const std::uint32_t id = by_source_[k];
  const std::vector<WorkloadMessage>& ms = graph_.messages();
  times_.injected[id] = p.injected + 1;
  times_.delivered[id] = done + 1;
  ++delivered_count_;
  last_delivery_ = std::max(last_delivery_, done);
  for (std::uint32_t d = first_dependent_[id]; d < first_dependent_[id + 1]; ++d) {
    const std::uint32_t j = dependents_[d];
    if (ms[j].source == p.dest) satisfy(j, done);
  }
}

void ClosedLoop::restore(const WorkloadTimes& all) {
  const std::vector<WorkloadMessage>& ms = graph_.messages();
  const std::uint32_t n = graph_.size();
  require(all.issued.size() == n && all.injected.size() == n && all.delivered.size() == n,
          "workload: the checkpoint's times have another size");
  due_ = {};
  delivered_count_ = 0;
  last_delivery_ = 0;
  for (std::uint32_t id = 0; id < n; ++id) {
    const WorkloadMessage& m = ms[id];
    times_.issued[id] = local(m.source) ? all.issued[id] : 0;
    const bool here = local(m.dest);
    times_.injected[id] = here ? all.injected[id] : 0;
    times_.delivered[id] = here ? all.delivered[id] : 0;
    if (here && all.delivered[id] != 0) {
      ++delivered_count_;
      last_delivery_ = std::max(last_delivery_, all.delivered[id] - 1);
    }
  }
  for (std::uint32_t id = 0; id < n; ++id) {
    const WorkloadMessage& m = ms[id];
    waiting_[id] = 0;
    ready_[id] = 0;
    if (!local(m.source)) continue;
    if (all.issued[id] != 0) {
      // A local message issued before the checkpoint and not yet delivered is delivered
      // when it would have been (at or after the checkpoint's cycle).
      if (m.local() && all.delivered[id] == 0) {
        due_.push(Due{local_delivery(id, all.issued[id] - 1), id, true});
      }
      continue;
    }
    for (const std::uint32_t d : graph_.deps_of(id)) {
      const std::uint64_t at = graph_.received_by(d, m.source) ? all.delivered[d] : all.issued[d];
      if (at == 0) {
        ++waiting_[id];
      } else {
        ready_[id] = std::max(ready_[id], at - 1);
      }
    }
    if (waiting_[id] == 0) due_.push(Due{std::max(ready_[id] + m.compute, m.after), id});
  }
}

}  // namespace wormnet
