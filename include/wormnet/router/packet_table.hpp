// Per-rank table of packets whose flits are on this rank. A packet's slot lives from its
// injection (or the arrival of its head from another rank) until its tail is ejected (or
// leaves for another rank). Free slots are reused; slot numbers never affect results.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/core/prefetch.hpp"
#include "wormnet/router/flit.hpp"
#include "wormnet/routing/routing_function.hpp"

namespace wormnet {

/// A packet's record. The fields every head's route and VC grant read and write come first:
/// a 48-byte record starts at byte 0, 16, 32 or 48 of a cache line, so its first 16 bytes
/// always share the line that a hint for the record's address fetches (with `dest` at byte
/// 28, half the routes missed on the line after it: docs/scaling.md, "Measured figures
/// behind the engine's rules").
struct Packet {
  std::uint32_t dest = 0;
  RouteState state = 0;  ///< routing state, updated by the head at each VC grant
  std::uint32_t source = 0;
  std::uint16_t length = 0;   ///< flits
  std::uint16_t hops = 0;     ///< network channels crossed by the head so far
  Cycle created = 0;          ///< cycle the message was generated (entered the source queue)
  Cycle injected = 0;         ///< cycle its head entered the injection buffer
  std::uint64_t id = 0;       ///< (source << 32) | per-source sequence: unique and rank-independent
  std::uint8_t measured = 0;  ///< created inside the measurement window
};
static_assert(sizeof(Packet) == 48, "a packet's record is 48 bytes (see above)");

class PacketTable {
 public:
  std::uint32_t allocate(const Packet& p) {
    if (!free_.empty()) {
      const std::uint32_t s = free_.back();
      free_.pop_back();
      slots_[s] = p;
      return s;
    }
    require(slots_.size() < Flit::kMaxPackets, "more packets on a rank than a flit can name");
    slots_.push_back(p);
    return static_cast<std::uint32_t>(slots_.size() - 1);
  }
  void release(std::uint32_t slot) { free_.push_back(slot); }
  [[nodiscard]] Packet& operator[](std::uint32_t slot) { return slots_[slot]; }
  [[nodiscard]] const Packet& operator[](std::uint32_t slot) const { return slots_[slot]; }
  /// Asks the processor for slot's record. A hint only.
  void prefetch(std::uint32_t slot) const { wormnet::prefetch(&slots_[slot]); }
  [[nodiscard]] std::size_t live() const { return slots_.size() - free_.size(); }
  [[nodiscard]] std::size_t capacity_bytes() const {
    return slots_.capacity() * sizeof(Packet) + free_.capacity() * sizeof(std::uint32_t);
  }

 private:
  HugeVector<Packet> slots_;
  std::vector<std::uint32_t> free_;
};

}  // namespace wormnet
