// What routers do, as events two models of them can compare: every flit that crosses a
// router's switch and every credit that comes back to an output VC. The engine reports them
// to a RouterObserver when one is set (RankModel::set_router_observer; at no cost when none
// is), and the reference router (router/reference/) reports the same events, so that a test
// can run both side by side and stop at the first cycle where they differ
// (tests/unit/router/reference_router_test.cpp, docs/simulator.md).
#pragma once

#include <compare>
#include <cstdint>

#include "wormnet/core/ids.hpp"

namespace wormnet {

/// A flit that crossed the switch of router `node` in cycle `cycle`, from input VC
/// (in_port, in_vc) to output VC (out_port, out_vc). Port P (the topology's port count) is
/// the terminal's: input P is the injection channel, output P the ejection channel.
struct FlitMove {
  Cycle cycle = 0;
  std::uint32_t node = 0;
  std::uint8_t in_port = 0;
  std::uint8_t in_vc = 0;
  std::uint8_t out_port = 0;
  std::uint8_t out_vc = 0;
  std::uint64_t packet = 0;  ///< the packet's id: (source << 32) | per-source sequence
  bool head = false;
  bool tail = false;
  auto operator<=>(const FlitMove&) const = default;
};

/// A credit that reached output VC (port, vc) of router `node` in cycle `cycle`: the input
/// buffer at the other end of the link has one more free slot.
struct CreditArrival {
  Cycle cycle = 0;
  std::uint32_t node = 0;
  std::uint8_t port = 0;
  std::uint8_t vc = 0;
  auto operator<=>(const CreditArrival&) const = default;
};

/// Receives a model's events as they happen. Within a cycle they come in no particular
/// order (the routers of a cycle do not interact: links take a cycle or more).
class RouterObserver {
 public:
  virtual ~RouterObserver() = default;
  virtual void moved(const FlitMove& move) = 0;
  virtual void credited(const CreditArrival& credit) = 0;
};

}  // namespace wormnet
