// Separable input-first switch allocator: each input port picks one of its eligible VCs
// (round-robin), then each output port picks one of the input ports that chose it
// (round-robin). One flit per input port and per output port per cycle.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/router/round_robin.hpp"

namespace wormnet {

class SwitchAllocator {
 public:
  SwitchAllocator() = default;
  SwitchAllocator(std::uint32_t routers, int ports)
      : ports_(static_cast<std::uint32_t>(ports)),
        last_(static_cast<std::size_t>(routers) * 2 * ports_, Last{63}) {}

  /// A stored winner: a byte, but not a character type. A store through std::uint8_t may
  /// alias any object, so after each grant GCC reloaded every field and pointer of the
  /// router bank that the rest of the switch stage uses; an enumeration only aliases itself.
  enum class Last : std::uint8_t {};
  /// One router's pointers, found once per switch stage: its input ports' (ports of them),
  /// then its output ports'. The address arithmetic of a (router, port) pair, repeated at
  /// every pick and grant, cost more than finding the row once (docs/scaling.md, "Measured
  /// figures behind the engine's rules").
  struct Row {
    Last* at;
    std::uint32_t ports;
  };
  [[nodiscard]] Row row(std::uint32_t router) { return Row{&last_[vc_slot(router, 0)], ports_}; }

  /// Input stage: the VC of input port `port` that goes forward among `eligible` (bit per VC).
  static int pick_vc(Row row, int port, std::uint64_t eligible) {
    return round_robin_pick(eligible, get(row.at[port]));
  }
  /// Output stage: the winning input port among `requesters` (bit per input port).
  static int pick_input(Row row, int out_port, std::uint64_t requesters) {
    return round_robin_pick(requesters, get(row.at[row.ports + static_cast<unsigned>(out_port)]));
  }
  /// Records a grant so that the next choice starts after these winners.
  static void commit(Row row, int in_port, int vc, int out_port) {
    row.at[in_port] = static_cast<Last>(vc);
    row.at[row.ports + static_cast<unsigned>(out_port)] = static_cast<Last>(in_port);
  }
  /// The same, for router `router` (one grant, or tests).
  int pick_vc(std::uint32_t router, int port, std::uint64_t eligible) {
    return pick_vc(row(router), port, eligible);
  }
  int pick_input(std::uint32_t router, int out_port, std::uint64_t requesters) {
    return pick_input(row(router), out_port, requesters);
  }
  void commit(std::uint32_t router, int in_port, int vc, int out_port) {
    commit(row(router), in_port, vc, out_port);
  }
  [[nodiscard]] std::size_t bytes() const { return last_.capacity(); }
  /// Round-robin state (checkpoints): last VC of an input port, last input of an output port.
  [[nodiscard]] std::uint8_t last_vc(std::uint32_t router, int port) const {
    return get(last_[vc_slot(router, port)]);
  }
  [[nodiscard]] std::uint8_t last_port(std::uint32_t router, int port) const {
    return get(last_[port_slot(router, port)]);
  }
  void set_last(std::uint32_t router, int port, std::uint8_t vc, std::uint8_t input) {
    last_[vc_slot(router, port)] = Last{vc};
    last_[port_slot(router, port)] = Last{input};
  }

 private:
  static std::uint8_t get(Last x) { return static_cast<std::uint8_t>(x); }
  /// A router's pointers side by side (2 P bytes): a grant writes both of its pointers, and
  /// on a rank of a million routers two arrays cost two misses where one costs one.
  [[nodiscard]] std::size_t vc_slot(std::uint32_t router, int port) const {
    return static_cast<std::size_t>(router) * 2 * ports_ + static_cast<std::size_t>(port);
  }
  [[nodiscard]] std::size_t port_slot(std::uint32_t router, int port) const {
    return vc_slot(router, port) + ports_;
  }

  std::uint32_t ports_ = 0;
  /// [router][0, P): per input port the last VC that won; [router][P, 2P): per output port
  /// the last input port that won.
  HugeVector<Last> last_;
};

}  // namespace wormnet
