// A flit as it sits in a buffer: 8 bytes. The packet's fields live once per rank in the
// PacketTable; flits carry the slot, their kind and the cycle from which they may move.
#pragma once

#include <cstdint>

#include "wormnet/core/ids.hpp"

namespace wormnet {

class Flit {
 public:
  static constexpr std::uint32_t kHeadBit = 1U << 30;
  static constexpr std::uint32_t kTailBit = 1U << 31;
  static constexpr std::uint32_t kCycleMask = (1U << 30) - 1;

  Flit() = default;
  /// `ready` = first cycle at which the flit may be switched (its arrival cycle).
  Flit(std::uint32_t packet, bool head, bool tail, Cycle ready)
      : packet_(packet),
        stamp_((static_cast<std::uint32_t>(ready) & kCycleMask) | (head ? kHeadBit : 0U) |
               (tail ? kTailBit : 0U)) {}

  [[nodiscard]] std::uint32_t packet() const { return packet_; }
  void set_packet(std::uint32_t p) { packet_ = p; }
  [[nodiscard]] bool head() const { return (stamp_ & kHeadBit) != 0; }
  [[nodiscard]] bool tail() const { return (stamp_ & kTailBit) != 0; }
  /// True when the flit may move at cycle t. Only the low 30 bits of the cycle are kept: a
  /// flit never waits 2^29 cycles (the deadlock watchdog fires long before).
  [[nodiscard]] bool ready_at(Cycle t) const {
    return ((static_cast<std::uint32_t>(t) - stamp_) & kCycleMask) < (1U << 29);
  }
  void set_ready(Cycle t) {
    stamp_ = (stamp_ & ~kCycleMask) | (static_cast<std::uint32_t>(t) & kCycleMask);
  }
  [[nodiscard]] std::uint32_t raw_stamp() const { return stamp_; }
  static Flit from_raw(std::uint32_t packet, std::uint32_t stamp) {
    Flit f;
    f.packet_ = packet;
    f.stamp_ = stamp;
    return f;
  }

 private:
  std::uint32_t packet_ = 0;
  std::uint32_t stamp_ = 0;
};

static_assert(sizeof(Flit) == 8);

}  // namespace wormnet
