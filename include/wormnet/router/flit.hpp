// A flit as it sits in a buffer: 8 bytes. The packet's fields live once per rank in the
// PacketTable; a flit carries the packet's slot and whether it is the head and/or the tail.
// Flits enter a buffer at their arrival cycle, so a buffered flit is always ready to move.
#pragma once

#include <cstdint>

namespace wormnet {

class Flit {
 public:
  static constexpr std::uint32_t kHeadBit = 1U << 0;
  static constexpr std::uint32_t kTailBit = 1U << 1;

  Flit() = default;
  Flit(std::uint32_t packet, bool head, bool tail)
      : packet_(packet), kind_((head ? kHeadBit : 0U) | (tail ? kTailBit : 0U)) {}

  [[nodiscard]] std::uint32_t packet() const { return packet_; }
  void set_packet(std::uint32_t p) { packet_ = p; }
  [[nodiscard]] bool head() const { return (kind_ & kHeadBit) != 0; }
  [[nodiscard]] bool tail() const { return (kind_ & kTailBit) != 0; }
  /// The kind bits, for carrying a flit to another rank.
  [[nodiscard]] std::uint32_t kind() const { return kind_; }
  static Flit with_kind(std::uint32_t packet, std::uint32_t kind) {
    Flit f;
    f.packet_ = packet;
    f.kind_ = kind;
    return f;
  }

 private:
  std::uint32_t packet_ = 0;
  std::uint32_t kind_ = 0;
};

static_assert(sizeof(Flit) == 8);

}  // namespace wormnet
