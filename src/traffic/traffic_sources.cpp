#include "wormnet/traffic/traffic_sources.hpp"

#include <cmath>

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

/// Generation instants from here on are never reached: every run ends by kMaxCycles. A
/// message due later is not scheduled; converting such an instant to a cycle number was
/// undefined (a load of 1e-300 made every message due at cycle 0 and filled the memory).
constexpr double kNever = static_cast<double>(kMaxCycles);
/// Messages a node may draw: a packet's id keeps 32 bits of its sequence number.
constexpr std::uint32_t kMaxSequence = 0xFFFFFFFFU;

}  // namespace

TrafficSources::TrafficSources(const std::vector<std::uint32_t>& nodes,
                               const TrafficConfig& traffic, const DestinationPattern& pattern,
                               double rate, std::uint64_t seed, Cycle measure_begin,
                               Cycle measure_end)
    : nodes_(nodes),
      pattern_(pattern),
      traffic_(traffic),
      mean_gap_(0.5 * (traffic.length_min + traffic.length_max) / rate),
      message_rate_(rate / (0.5 * (traffic.length_min + traffic.length_max))),
      rate_(rate),
      measure_begin_(measure_begin),
      measure_end_(measure_end),
      seed_(seed),
      sources_(nodes.size()),
      queues_(nodes.size()) {
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    if (!generates(i)) continue;  // rate 0 (scripted traffic only) or a silent node
    sources_[i].next_time = 0.0;
    RandomStream rng = stream(i);
    schedule(i, rng);
  }
}

void TrafficSources::schedule(std::uint32_t local, RandomStream& rng) {
  Source& s = sources_[local];
  if (traffic_.process == InjectionProcess::kPoisson) {
    s.next_time += rng.exponential(mean_gap_);
  } else {
    // Bernoulli per cycle with probability p: the gap is geometric, drawn by inversion.
    const double p = message_rate_ >= 1.0 ? 1.0 : message_rate_;
    const double u = rng.uniform();
    const double gap = p >= 1.0 ? 1.0 : std::floor(std::log1p(-u) / std::log1p(-p)) + 1.0;
    s.next_time += gap;
  }
  s.counter = rng.counter();
  if (s.next_time < kNever) enlist(local);
}

void TrafficSources::enlist(std::uint32_t local) {
  const auto block = static_cast<std::size_t>(static_cast<std::uint64_t>(local) >> group_shift_);
  due_[block].push(Due{static_cast<Cycle>(sources_[local].next_time), local});
}

void TrafficSources::group_by_block(int shift) {
  require(shift >= 0 && shift <= 32, "group_by_block: the shift is 0 to 32 bits");
  // Every pending instant moves to its node's block, heaped once per block (linear time,
  // where popping and pushing every instant again was n log n): the calendars' order is
  // total, so the pops that follow are the same.
  group_shift_ = shift;
  const std::uint64_t nodes = sources_.size();
  std::vector<std::vector<Due>> blocks(
      nodes == 0 ? 1 : static_cast<std::size_t>(((nodes - 1) >> shift) + 1));
  for (Calendar& c : due_) {
    for (const Due& d : c.take_all()) {
      blocks[static_cast<std::size_t>(static_cast<std::uint64_t>(d.local) >> shift)].push_back(d);
    }
  }
  due_.clear();
  due_.reserve(blocks.size());
  for (std::vector<Due>& b : blocks) due_.emplace_back(std::move(b));
}

void TrafficSources::generate(std::uint32_t local, Cycle t) {
  Source& s = sources_[local];
  RandomStream rng = stream(local);
  Message m;
  m.created = t;
  require(s.sequence != kMaxSequence,
          "a node's 2^32nd message: a packet id ((source << 32) | sequence) keeps 32 bits "
          "of its count");
  m.sequence = s.sequence++;
  m.length = static_cast<std::uint16_t>(
      traffic_.length_min == traffic_.length_max
          ? traffic_.length_min
          : rng.uniform_int(static_cast<std::uint64_t>(traffic_.length_min),
                            static_cast<std::uint64_t>(traffic_.length_max)));
  const NodeId dest = pattern_.destination(NodeId(nodes_[local]), rng, m.sequence);
  m.dest = dest.value();
  m.measured = t >= measure_begin_ && t < measure_end_ ? 1 : 0;
  if (dest.valid()) {
    queues_[local].push(m, &pool_);
    created_flits_ += m.length;
    ++created_packets_;
    if (m.measured) {
      ++measured_packets_;
      measured_flits_ += m.length;
    }
  }
  schedule(local, rng);
}

std::uint64_t TrafficSources::dropped_messages() const {
  std::uint64_t drawn = 0;
  for (const Source& s : sources_) drawn += s.sequence;
  return drawn - created_packets_;
}

bool TrafficSources::generates(std::uint32_t local) const {
  return rate_ > 0.0 && !pattern_.silent(NodeId(nodes_[local]));
}

void TrafficSources::save(Rows& rows) const {
  for (std::uint32_t i = 0; i < sources_.size(); ++i) {
    const Source& s = sources_[i];
    rows.counter.push_back(s.counter);
    rows.next_time.push_back(s.next_time);
    rows.sequence.push_back(s.sequence);
    SourceQueue copy = queues_[i];  // oldest first
    for (; !copy.empty(); copy.pop()) {
      const Message& m = copy.front();
      rows.messages.push_back(
          Rows::QueuedMessage{nodes_[i], m.created, m.dest, m.length, m.measured, m.sequence});
    }
  }
  rows.counts = Counts{created_flits_, created_packets_, measured_packets_, measured_flits_};
}

void TrafficSources::restore(
    const Rows& all, bool keep_counts,
    const std::function<std::optional<std::uint32_t>(std::uint32_t)>& local_of) {
  for (Calendar& c : due_) c = Calendar{};
  for (std::uint32_t i = 0; i < sources_.size(); ++i) {
    Source& s = sources_[i];
    s.counter = all.counter[i];
    s.next_time = all.next_time[i];
    require(all.sequence[i] <= kMaxSequence,
            "checkpoint: a node's message count past 2^32 - 1 (packet ids would repeat)");
    s.sequence = static_cast<std::uint32_t>(all.sequence[i]);
    queues_[i] = SourceQueue{};
    if (generates(i) && s.next_time < kNever) enlist(i);
  }
  for (const Rows::QueuedMessage& q : all.messages) {
    const std::optional<std::uint32_t> local = local_of(q.router);
    if (!local) continue;
    Message m;
    m.created = q.created;
    m.dest = q.dest;
    m.length = static_cast<std::uint16_t>(q.length);
    m.measured = static_cast<std::uint8_t>(q.measured);
    m.sequence = q.sequence;
    queues_[*local].push(m, &pool_);
  }
  const Counts counts = keep_counts ? all.counts : Counts{};
  created_flits_ = counts.created_flits;
  created_packets_ = counts.created_packets;
  measured_packets_ = counts.measured_packets;
  measured_flits_ = counts.measured_flits;
}

std::size_t TrafficSources::bytes() const {
  std::size_t b = sources_.capacity() * sizeof(Source) + queues_.capacity() * sizeof(SourceQueue) +
                  due_.capacity() * sizeof(Calendar) + pool_.bytes();
  for (const Calendar& c : due_) b += c.size() * sizeof(Due);
  for (const auto& q : queues_) b += q.bytes();
  return b;
}

}  // namespace wormnet
