// The message sources of a rank's nodes: when each node generates its next message (Poisson
// or Bernoulli process), how long it is and where it goes, and the source queue where it
// waits for the injection channel. Every node draws from its own random stream keyed by
// (seed, node id), so what a node generates never depends on the partition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/core/rng.hpp"
#include "wormnet/traffic/destination_pattern.hpp"

namespace wormnet {

/// A generated message waiting at its source.
struct Message {
  Cycle created = 0;
  std::uint32_t dest = 0;
  std::uint16_t length = 0;  ///< flits
  std::uint8_t measured = 0;
  std::uint64_t sequence = 0;  ///< per-source message number
};

/// FIFO of messages at one source: a pointer, to one block holding its place counts and its
/// messages, taken when a message arrives at an empty queue and given back when its last
/// message leaves; an empty queue is the pointer alone (8 bytes a node where a vector and an
/// index took 32: issue 42's 600 bytes per router). Kept after use, the blocks of every node
/// that ever queued a message stayed allocated, so the model grew through a run at a light
/// load (most messages find their queue empty, and leave it empty). A block of room for one
/// message goes back to its queue's pool (the rank's sources share one), where the next queue
/// to fill takes it: a free list's push and pop a message instead of an allocation and a free
/// (measured in docs/scaling.md, "Model state per router"). The walk reads a queue only when its
/// router's header says it holds messages (Injection::queued), so the extra indirection is off the
/// router step's path.
class SourceQueue {
  struct Block;

 public:
  /// Blocks of room for one message given back by queues that emptied, for queues that fill
  /// (a free list). The queues whose blocks it lent may outlive it.
  class Pool {
   public:
    Pool() = default;
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;
    ~Pool() {
      while (free_ != nullptr) ::operator delete(take());
    }
    /// Blocks held (not lent).
    [[nodiscard]] std::size_t blocks() const { return blocks_; }
    [[nodiscard]] std::size_t bytes() const { return blocks_ * (sizeof(Block) + sizeof(Message)); }

   private:
    friend class SourceQueue;
    /// A free block's link to the next sits where its message would.
    void give(Block* b) {
      std::memcpy(static_cast<void*>(b + 1), &free_, sizeof free_);
      free_ = b;
      ++blocks_;
    }
    Block* take() {
      Block* b = free_;
      std::memcpy(&free_, static_cast<const void*>(b + 1), sizeof free_);
      --blocks_;
      return b;
    }
    Block* free_ = nullptr;
    std::size_t blocks_ = 0;
  };

  SourceQueue() = default;
  SourceQueue(const SourceQueue& other) {
    for (std::uint32_t k = 0; k < other.size(); ++k) push(other.items()[other.block_->head + k]);
  }
  SourceQueue(SourceQueue&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
  SourceQueue& operator=(const SourceQueue& other) {
    if (this != &other) {
      SourceQueue copy(other);
      std::swap(block_, copy.block_);
    }
    return *this;
  }
  SourceQueue& operator=(SourceQueue&& other) noexcept {
    SourceQueue taken(std::move(other));
    std::swap(block_, taken.block_);
    return *this;
  }
  ~SourceQueue() { ::operator delete(block_); }

  /// A queue holds a block exactly while it holds a message.
  [[nodiscard]] bool empty() const { return block_ == nullptr; }
  [[nodiscard]] std::uint32_t size() const {
    return block_ == nullptr ? 0 : block_->size - block_->head;
  }
  [[nodiscard]] const Message& front() const { return items()[block_->head]; }
  /// Appends m; a block of room for one message comes from `pool` if it has one, and goes
  /// back to it when the queue empties (none: the allocator's).
  void push(const Message& m, Pool* pool = nullptr) {
    if (block_ == nullptr && pool != nullptr && pool->free_ != nullptr) {
      block_ = pool->take();
      *block_ = Block{0, 0, 1, pool};
    } else if (block_ == nullptr || block_->size == block_->capacity) {
      grow(pool);
    }
    items()[block_->size++] = m;
  }
  void pop() {
    Block& b = *block_;
    if (++b.head == b.size) {
      if (b.pool != nullptr && b.capacity == 1) {
        b.pool->give(block_);
      } else {
        ::operator delete(block_);
      }
      block_ = nullptr;
    } else if (b.head >= 64 && b.head * 2 >= b.size) {
      std::memmove(items(), items() + b.head, (b.size - b.head) * sizeof(Message));
      b.size -= b.head;
      b.head = 0;
    }
  }
  [[nodiscard]] std::uint64_t queued_flits() const {
    std::uint64_t f = 0;
    for (std::uint32_t k = 0; k < size(); ++k) f += items()[block_->head + k].length;
    return f;
  }
  /// Bytes of its block (0 for an empty queue).
  [[nodiscard]] std::size_t bytes() const {
    return block_ == nullptr ? 0 : sizeof(Block) + block_->capacity * sizeof(Message);
  }

 private:
  /// The block's head; its messages follow (capacity of them).
  struct alignas(alignof(Message)) Block {
    std::uint32_t head = 0;  ///< index of the front message
    std::uint32_t size = 0;  ///< index past the last message
    std::uint32_t capacity = 0;
    Pool* pool = nullptr;  ///< where a block of room for one message goes back (none: freed)
  };
  [[nodiscard]] Message* items() const { return reinterpret_cast<Message*>(block_ + 1); }
  /// Doubles the room (at least 1 message), the live messages moved to the front.
  void grow(Pool* pool) {
    const std::uint32_t live = size();
    const std::uint32_t capacity = block_ == nullptr ? 1 : 2 * block_->capacity;
    auto* grown = static_cast<Block*>(::operator new(sizeof(Block) + capacity * sizeof(Message)));
    new (grown) Block{0, live, capacity, block_ == nullptr ? pool : block_->pool};
    if (live != 0) {
      std::memcpy(static_cast<void*>(grown + 1), items() + block_->head, live * sizeof(Message));
    }
    ::operator delete(block_);
    block_ = grown;
  }

  Block* block_ = nullptr;
};
static_assert(sizeof(SourceQueue) == 8, "an unused source queue is one pointer");

class TrafficSources {
 public:
  /// `nodes` = global ids of the rank's nodes (local index = position); `rate` = offered load
  /// in flits/node/cycle; messages created in [measure_begin, measure_end) are labelled.
  TrafficSources(const std::vector<std::uint32_t>& nodes, const TrafficConfig& traffic,
                 const DestinationPattern& pattern, double rate, std::uint64_t seed,
                 Cycle measure_begin, Cycle measure_end);

  /// Generates every message of block `group` due at or before cycle t (one block holding
  /// every node unless group_by_block() split them); calls wake(local index) for each node
  /// whose queue received one.
  template <class Wake>
  void generate_until(std::size_t group, Cycle t, Wake&& wake) {
    Calendar& due = due_[group];
    while (!due.empty() && due.top().cycle <= t) {
      const Due d = due.top();
      due.pop();
      generate(d.local, d.cycle);
      wake(d.local);
    }
  }
  /// Splits the generation instants by block of 2^shift local indices (block = local >>
  /// shift), so that a rank whose blocks are simulated at different cycles (RankModel's
  /// layers) generates each block's messages when that block reaches the cycle.
  void group_by_block(int shift);
  [[nodiscard]] SourceQueue& queue(std::uint32_t local) { return queues_[local]; }
  [[nodiscard]] const SourceQueue& queue(std::uint32_t local) const { return queues_[local]; }
  /// Flits generated so far (all of them, and the labelled ones).
  [[nodiscard]] std::uint64_t created_flits() const { return created_flits_; }
  [[nodiscard]] std::uint64_t created_packets() const { return created_packets_; }
  /// Messages drawn but dropped (no destination: --drop-unroutable), from the start: every
  /// message drawn takes a sequence number, every one kept is created (both are restored
  /// from a checkpoint, so the count is too).
  [[nodiscard]] std::uint64_t dropped_messages() const;
  [[nodiscard]] std::uint64_t measured_packets() const { return measured_packets_; }
  [[nodiscard]] std::uint64_t measured_flits() const { return measured_flits_; }
  [[nodiscard]] std::size_t bytes() const;

  /// Cumulative counts (additive over ranks).
  struct Counts {
    std::uint64_t created_flits = 0;
    std::uint64_t created_packets = 0;
    std::uint64_t measured_packets = 0;
    std::uint64_t measured_flits = 0;
  };
  /// The sources' state in checkpoint form: a row per node (the order of the nodes saved),
  /// the queued messages, and the counts. Nothing in it depends on the partition.
  struct Rows {
    struct QueuedMessage {
      std::uint32_t router;  ///< source node (global)
      Cycle created;
      std::uint32_t dest;
      std::uint32_t length;
      std::uint32_t measured;
      std::uint64_t sequence;
    };
    std::vector<std::uint64_t> counter;   ///< each node's random stream position
    std::vector<double> next_time;        ///< its next generation instant
    std::vector<std::uint64_t> sequence;  ///< its messages so far
    std::vector<QueuedMessage> messages;  ///< nodes in order, each queue oldest first
    Counts counts;
  };
  /// Appends every node's row and queued messages to `rows`, and sets its counts to this
  /// rank's.
  void save(Rows& rows) const;
  /// Replaces the state with `all`'s (rows of this rank's nodes, in order; messages of any
  /// rank, those of this rank's nodes taken: local_of(global id) is the node's local index,
  /// or none), its counts only if `keep_counts` (they are global totals, kept by one rank),
  /// and reschedules every generator at its stored next instant.
  void restore(const Rows& all, bool keep_counts,
               const std::function<std::optional<std::uint32_t>(std::uint32_t)>& local_of);

 private:
  /// A pending instant: node `local`'s next message at `cycle`. Packed, 12 bytes instead of
  /// 16 (one per generating node): the 64-bit cycle at byte 0 of a 12-byte entry is read
  /// unaligned, one load on x86, where two 32-bit halves put together cost more instructions
  /// (the heap compares cycles at every push and pop; docs/scaling.md, the second round).
  struct [[gnu::packed]] Due {
    Cycle cycle;
    std::uint32_t local;
    bool operator>(const Due& o) const {
      return cycle != o.cycle ? cycle > o.cycle : local > o.local;
    }
  };
  static_assert(sizeof(Due) == 12);
  /// A node's generator: its random stream's position (the stream's key follows from the
  /// seed and the node id, and is derived at each draw instead of stored: 8 bytes a node
  /// less, for a few instructions a message), its next instant and its message count.
  /// Packed, 20 bytes instead of 24 (issue 42's 600 bytes per router): the message count in
  /// 32 bits, which is all a packet's id keeps of it ((source << 32) | sequence), so a node's
  /// 2^32nd message is refused (the count would not fit; the message after it would have
  /// repeated the first one's id); the fields at bytes 0 and 8 of a 20-byte entry are read
  /// unaligned, one load each on x86.
  struct [[gnu::packed]] Source {
    std::uint64_t counter = 0;   ///< draws so far from the node's stream (RandomStream::counter)
    double next_time = 0.0;      ///< next generation instant (continuous cycles)
    std::uint32_t sequence = 0;  ///< messages drawn so far
  };
  static_assert(sizeof(Source) == 20);
  /// Node `local`'s random stream at its present position (store its counter back after use).
  [[nodiscard]] RandomStream stream(std::uint32_t local) const {
    return RandomStream::restore(RandomStream(seed_, nodes_[local]).key(), sources_[local].counter);
  }
  void generate(std::uint32_t local, Cycle t);
  [[nodiscard]] bool generates(std::uint32_t local) const;
  /// Draws node `local`'s next instant from `rng` (its stream) and stores the stream's position.
  void schedule(std::uint32_t local, RandomStream& rng);
  /// Puts node `local`'s next instant in its block's calendar.
  void enlist(std::uint32_t local);

  const std::vector<std::uint32_t>& nodes_;
  const DestinationPattern& pattern_;
  TrafficConfig traffic_;
  double mean_gap_;      ///< mean cycles between messages of one node
  double message_rate_;  ///< messages per node per cycle (Bernoulli probability)
  double rate_;          ///< offered load, flits/node/cycle
  Cycle measure_begin_;
  Cycle measure_end_;
  std::uint64_t seed_;  ///< the streams' seed (RandomStream(seed_, node id))
  HugeVector<Source> sources_;
  /// The queues' blocks of room for one message between their uses.
  SourceQueue::Pool pool_;
  HugeVector<SourceQueue> queues_;
  /// A heap of pending instants, earliest (cycle, then node) first: a total order, so the
  /// order of pops does not depend on the order of pushes, and its items may be taken out
  /// and heaped again elsewhere (group_by_block()).
  struct Calendar : std::priority_queue<Due, std::vector<Due>, std::greater<>> {
    Calendar() = default;
    explicit Calendar(std::vector<Due> items)
        : std::priority_queue<Due, std::vector<Due>, std::greater<>>(std::greater<>{},
                                                                     std::move(items)) {}
    /// Every pending instant, in no order; the calendar is left empty.
    std::vector<Due> take_all() { return std::exchange(c, {}); }
  };
  /// Pending generation instants, one calendar per block (see group_by_block()).
  std::vector<Calendar> due_ = std::vector<Calendar>(1);
  int group_shift_ = 32;  ///< block = local >> group_shift_ (one block by default)
  std::uint64_t created_flits_ = 0;
  std::uint64_t created_packets_ = 0;
  std::uint64_t measured_packets_ = 0;
  std::uint64_t measured_flits_ = 0;
};

}  // namespace wormnet
