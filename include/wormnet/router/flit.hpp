// A flit as it sits in a buffer: 4 bytes, one word. The packet's fields live once per rank in
// the PacketTable; a flit carries the packet's slot (the high 30 bits) and whether it is the
// head and/or the tail (the low 2 bits). Four bytes, not eight: buffers are most of a router's
// state (a 3-D torus router with 2 VCs x 4 flits holds 56 flits), and a million routers must
// fit in 1 KB each. Flits enter a buffer at their arrival cycle, so a buffered flit is always
// ready to move.
#pragma once

#include <cstdint>

namespace wormnet {

class Flit {
 public:
  static constexpr std::uint32_t kHeadBit = 1U << 0;
  static constexpr std::uint32_t kTailBit = 1U << 1;
  static constexpr int kKindBits = 2;
  /// Packet slots a flit can name (the PacketTable never grows past it).
  static constexpr std::uint32_t kMaxPackets = 1U << (32 - kKindBits);

  Flit() = default;
  Flit(std::uint32_t packet, bool head, bool tail)
      : word_(Word{(packet << kKindBits) | (head ? kHeadBit : 0U) | (tail ? kTailBit : 0U)}) {}

  [[nodiscard]] std::uint32_t packet() const { return bits() >> kKindBits; }
  void set_packet(std::uint32_t p) { word_ = Word{(p << kKindBits) | kind()}; }
  [[nodiscard]] bool head() const { return (bits() & kHeadBit) != 0; }
  [[nodiscard]] bool tail() const { return (bits() & kTailBit) != 0; }
  /// The kind bits, for carrying a flit to another rank.
  [[nodiscard]] std::uint32_t kind() const { return bits() & (kHeadBit | kTailBit); }
  static Flit with_kind(std::uint32_t packet, std::uint32_t kind) {
    Flit f;
    f.word_ = Word{(packet << kKindBits) | (kind & (kHeadBit | kTailBit))};
    return f;
  }

 private:
  /// The word's type: 32 bits, but not std::uint32_t, whose stores may alias every 32-bit
  /// field of the router bank and the rank (GCC reloaded the index arithmetic's factors after
  /// each flit written into a buffer or onto the wheel); an enumeration aliases itself.
  enum class Word : std::uint32_t {};
  [[nodiscard]] std::uint32_t bits() const { return static_cast<std::uint32_t>(word_); }

  Word word_{};
};

static_assert(sizeof(Flit) == 4);

}  // namespace wormnet
