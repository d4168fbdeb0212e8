// The switch allocation and traversal stage of RouterBank: separable input-first allocation
// (one VC per input port, then one input port per output port, both round robin), or with
// per-VC bandwidth every eligible VC at once; the winners leave their input buffer and go to
// the caller's on_move. Templates on on_move, so that carrying a flit on inlines into the
// per-cycle loop; included at the end of router_bank.hpp.
#pragma once

#include <bit>

#include "wormnet/core/error.hpp"
#include "wormnet/router/router_bank.hpp"

namespace wormnet {

template <class OnMove>
void RouterBank::allocate_switch(std::uint32_t r, Cycle t, std::uint64_t movable, OnMove& on_move) {
  const int vcs = params_.vcs;
  // Eligible input VCs (bit port * vcs + vc): holding an output VC, past their pipeline
  // delay, with a flit, and with a credit downstream. The masks say all but the delay
  // (InputUnit::blocked() follows the credits; the ejection port's never run out), and
  // only VCs granted with a VC allocation delay and not yet seen past it (settling) need
  // their `ready` compared: no per-VC loop, whose exit branch the count of VCs made hard
  // to predict. Flits enter buffers at their arrival cycle, so a buffered flit is ready.
  std::uint64_t eligible = movable;
  if (const std::uint64_t unsure = movable & inputs_.settling(r); unsure != 0) [[unlikely]] {
    eligible &= ~still_settling(r, t, unsure);
    if (eligible == 0) return;
  }
  if (params_.per_vc_bandwidth) {
    // Every VC is a channel of its own: each eligible VC moves a flit. Nothing conflicts,
    // since wormhole ownership gives every output VC to one input VC at a time.
    for (; eligible != 0; eligible &= eligible - 1) {
      const auto lv = static_cast<std::uint32_t>(std::countr_zero(eligible));
      traverse(r, static_cast<int>(lv), port_of_[lv], vc_of_[lv], t, on_move);
    }
    return;
  }
  if ((eligible & (eligible - 1)) == 0) {
    // One eligible VC, the common case of a lightly loaded router: it wins its input port
    // and its output port, and both round-robin pointers move to it, as arbitration would.
    const int lv = std::countr_zero(eligible);
    const int p = port_of_[static_cast<std::size_t>(lv)];
    const int v = vc_of_[static_cast<std::size_t>(lv)];
    const int q = traverse(r, lv, p, v, t, on_move);
    switch_allocator_.commit(r, p, v, q);
    return;
  }
  // Input stage: one VC per input port, round robin. A lone requester would win without
  // the arbiter, but whether a port has one or several is data, and the arbiter's pick
  // costs less than the branch that skips it mispredicts (cachegrind's branch model); the
  // same in the output stage.
  const std::uint32_t first = inputs_.index(r, 0);
  const std::uint64_t port_vcs = all_vcs(vcs);
  std::uint32_t requested = 0;              // output ports with at least one request
  std::uint32_t requesters[kMaxPorts + 1];  // per requested output port: input ports (bits)
  int chosen_vc[kMaxPorts + 1];
  // The router's round-robin pointers, found once for both stages.
  SwitchAllocator::Row pointers = switch_allocator_.row(r);
  // The stages' steps as lambdas, always inlined (a call saved and restored every register
  // in use). Input stage: the next input port with eligible VCs picks one.
  auto request = [&]() __attribute__((always_inline)) {
    const int p = port_of_[static_cast<std::size_t>(std::countr_zero(eligible))];
    const int shift = p * vcs;
    const std::uint64_t port_eligible = (eligible >> shift) & port_vcs;
    eligible &= ~(port_vcs << shift);
    const int v = SwitchAllocator::pick_vc(pointers, p, port_eligible);
    chosen_vc[p] = v;
    const int q = inputs_.state(first + static_cast<std::uint32_t>(shift + v)).out_port;
    // Its first request sets an output port's requesters (no clearing of all of them first).
    requesters[q] = ((requested >> q) & 1U) != 0 ? requesters[q] | 1U << p : 1U << p;
    requested |= 1U << q;
  };
  // Output stage: the next requested output port picks one of its input ports, which moves.
  auto grant = [&]() __attribute__((always_inline)) {
    const int q = std::countr_zero(requested);
    requested &= requested - 1;
    const int p = SwitchAllocator::pick_input(pointers, q, requesters[q]);
    SwitchAllocator::commit(pointers, p, chosen_vc[p], q);
    traverse(r, p * vcs + chosen_vc[p], p, chosen_vc[p], t, on_move);
  };
  // Both stages' loops run their body at least once, and most often exactly twice (two
  // input ports with flits for two output ports): written as a first pass, a second under
  // a test and a loop for the rest, each branch goes mostly one way. As plain loops, the
  // exit of each mispredicted at nearly every router step (cachegrind's branch model: 0.5
  // and 1.0 per step), since a loop's back edge is predicted taken after most passes.
  request();
  if (eligible != 0) {
    request();
    while (eligible != 0) request();
  }
  grant();
  if (requested != 0) {
    grant();
    while (requested != 0) grant();
  }
}

template <class OnMove>
inline int RouterBank::traverse(std::uint32_t r, int local_vc, int in_port, int vc, Cycle t,
                                OnMove& on_move) {
  const int ports = params_.ports;
  const std::uint32_t i = inputs_.index(r, local_vc);
  const int out_port = inputs_.state(i).out_port;
  const int out_vc = inputs_.state(i).out_vc;
  const Flit f = inputs_.pop(r, local_vc);
  inputs_.mark(i, t);
  const std::uint32_t o = outputs_.index(r, out_port * params_.vcs + out_vc);
  if (f.tail()) release_output(r, o, t);
  if (out_port != ports) {
    outputs_.take_credit(o);  // a slot of the downstream buffer
    // Its last one: the VC waits for a credit (a tail's VC stops being active below, which
    // clears the bit again).
    inputs_.block(r, std::uint64_t{outputs_.credits(o) == 0} << local_vc);
  }
  on_move(in_port, vc, out_port, out_vc, f);
  if (f.tail()) {
    InputVcState& s = inputs_.state(i);
    if (s.count > 0) {
      require(inputs_.front(i).head(), "a packet's flits are not contiguous in a VC");
      inputs_.set_stage(r, local_vc, VcStage::kWaitVc);
      s.set_ready(t + params_.routing_delay);
    } else {
      inputs_.set_stage(r, local_vc, VcStage::kIdle);
    }
  }
  return out_port;
}

}  // namespace wormnet
