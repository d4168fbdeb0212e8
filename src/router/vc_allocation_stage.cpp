// The VC allocation stage of RouterBank. Input stage: each head whose routing delay is over
// picks one free output VC among its routing options (the selection policy's choice among
// those the VC rules allow). Output stage: the VcAllocator grants each requested output VC to
// one head, round robin.
#include <bit>
#include <limits>

#include "wormnet/core/rng.hpp"
#include "wormnet/router/router_bank.hpp"
#include "wormnet/router/vc_rules.hpp"

namespace wormnet {

namespace {

/// Heads that request in one call: one per bit of the 64-bit mask InputUnit::requesting()
/// returns (an input VC port * vcs + vc < 64, which RouterBank's constructor checks).
constexpr int kMostRequests = std::numeric_limits<std::uint64_t>::digits;
/// Output VCs one head may be offered: each routing option adds at most one per VC of its
/// channel (w < vcs <= kMaxVcs), and a routing offers at most RouteOptions::kCapacity
/// options (RouteOptions::add() refuses more). Two options on one port with different next
/// states may offer the same output VC twice, so the port * vcs + vc <= 64 bound does not
/// hold here; this one does by construction, with no check in the loop.
constexpr int kMostCandidates = RouteOptions::kCapacity * kMaxVcs;
static_assert(RouteOptions::kCapacity <= 256, "an option's number fits VcAllocator::Request");

}  // namespace

int RouterBank::least_occupied(std::uint32_t r, const int* candidates, int found) const {
  int best = 0;
  int best_free = -1;
  for (int c = 0; c < found; ++c) {
    const int port = port_of_[static_cast<std::size_t>(candidates[c])];
    int free = 0;
    for (int w = 0; w < params_.vcs; ++w) {
      free += outputs_.credits(outputs_.index(r, port * params_.vcs + w));
    }
    if (free > best_free) {
      best_free = free;
      best = c;
    }
  }
  return best;
}

std::uint64_t RouterBank::allocate_vcs(std::uint32_t r, Cycle t) {
  const int ports = params_.ports;
  const VcMask escape_vcs = params_.escape_vcs;
  // With priority selection and no escape VCs the first free VC ends the search.
  const bool first_only = params_.selection == SelectionPolicy::kPriority && escape_vcs == 0;
  VcAllocator::Request requests[kMostRequests];
  RouteState next_state[kMostRequests];
  int n = 0;
  RouteOptions options;
  std::uint64_t parks = 0;  // heads refused because every VC they may take is owned
  for (std::uint64_t mask = inputs_.requesting(r); mask != 0; mask &= mask - 1) {
    const auto lv = static_cast<std::uint32_t>(std::countr_zero(mask));
    const std::uint32_t i = inputs_.index(r, static_cast<int>(lv));
    InputVcState& s = inputs_.state(i);
    if (!s.ready_by(t)) continue;
    // Its stored cycle moves up to the present, so that it stays within 2^31 cycles of the
    // cycle however long the head waits (InputVcState::ready_low); ready either way.
    s.set_ready(t);
    const int in_port = port_of_[lv];
    const int in_vc = vc_of_[lv];
    const Packet& p = packets_[inputs_.front(i).packet()];
    routing_options(r, in_port, in_vc, p, options);
    int candidates[kMostCandidates];
    int candidate_option[kMostCandidates];
    int found = 0;
    int adaptive = 0;          // candidates on adaptive VCs (routings with escape VCs)
    bool for_credits = false;  // a free VC refused for its credits: they return without a tail
    choose_vcs(r, in_port, p, options, [&](const VcChoice& c) {
      if (c.verdict == VcVerdict::kOwned) return true;
      if (c.verdict != VcVerdict::kTake) {
        for_credits = true;
        return true;
      }
      adaptive += c.adaptive ? 1 : 0;
      candidates[found] = c.local;
      candidate_option[found] = c.option;
      ++found;
      return !first_only;
    });
    if (found == 0) {
      // Its route and packet stay as they are while it waits, and owners change only at
      // grants (which take VCs) and tails (release_output): it parks until a tail, where a
      // request each cycle would be refused the same way (a head retried 1.7 times per hop
      // on the mesh:16x16 bench case). Its release moves its ready cycle up to the present,
      // as the requests it skips would have (InputUnit::unpark).
      if (!for_credits) parks |= std::uint64_t{1} << lv;
      continue;
    }
    found =
        prefer_adaptive(candidates, candidate_option, found, adaptive, escape_vcs, vc_of_.data());
    int pick = 0;
    if (params_.selection == SelectionPolicy::kRandom && found > 1) {
      pick = static_cast<int>(mix64(p.id * 0x9E3779B97F4A7C15ULL + p.hops + t) %
                              static_cast<std::uint64_t>(found));
    } else if (params_.selection == SelectionPolicy::kLeastOccupied && found > 1) {
      pick = least_occupied(r, candidates, found);
    }
    requests[n] = VcAllocator::Request{static_cast<std::uint8_t>(lv),
                                       static_cast<std::uint8_t>(candidates[pick]),
                                       static_cast<std::uint8_t>(candidate_option[pick])};
    next_state[n] = options[candidate_option[pick]].next_state;
    ++n;
  }
  if (parks != 0) inputs_.park(r, parks);
  if (n == 0) return 0;
  bool granted[kMostRequests];
  std::uint64_t granted_vcs = 0;
  const std::uint32_t first_out = outputs_.index(r, 0);
  VcAllocator::arbitrate(requests, n, granted, [&](std::uint8_t o) -> std::uint8_t& {
    return outputs_.last_grant(first_out + o);
  });
  for (int k = 0; k < n; ++k) {
    if (!granted[k]) continue;
    const std::uint32_t i = inputs_.index(r, requests[k].input_vc);
    InputVcState& s = inputs_.state(i);
    const int ol = requests[k].output_vc;
    inputs_.set_stage(r, requests[k].input_vc, VcStage::kActive);
    s.out_port = port_of_[static_cast<std::size_t>(ol)];
    s.out_vc = vc_of_[static_cast<std::size_t>(ol)];
    s.set_ready(t + params_.vc_alloc_delay);
    // The switch stage's masks: no credit yet (the buffer behind the last packet is full),
    // and a `ready` more than a cycle ahead (a delay of 1 only keeps it from this cycle's
    // switch stage: the mask returned does).
    const std::uint64_t bit = std::uint64_t{1} << requests[k].input_vc;
    if (outputs_.credits(outputs_.index(r, ol)) == 0) inputs_.block(r, bit);
    if (params_.vc_alloc_delay > 1) inputs_.settle(r, bit);
    granted_vcs |= bit;
    outputs_.set_owner(outputs_.index(r, ol), requests[k].input_vc);
    outputs_.set_owner_packet(outputs_.index(r, ol), inputs_.front(i).packet());
    Packet& p = packets_[inputs_.front(i).packet()];
    p.state = next_state[k];
    if (s.out_port != ports) ++p.hops;
  }
  return params_.vc_alloc_delay != 0 ? granted_vcs : 0;
}

void RouterBank::wait_for(std::uint32_t r, int local_vc, Cycle t,
                          std::vector<VcWait>& waits) const {
  const std::uint32_t i = inputs_.index(r, local_vc);
  const InputVcState& s = inputs_.state(i);
  if (s.stage == VcStage::kActive) {
    // Holding an output VC, it moves unless it has no credit (ejection never runs out).
    const std::uint32_t o = outputs_.index(r, s.out_port * params_.vcs + s.out_vc);
    if (s.out_port != params_.ports && outputs_.credits(o) == 0) {
      waits.push_back(VcWait{VcWait::kDownstream, s.out_port, s.out_vc});
    }
    return;
  }
  if (s.stage != VcStage::kWaitVc || !s.ready_by(t)) return;  // still being routed
  const std::size_t first = waits.size();
  const int in_port = port_of_[static_cast<std::size_t>(local_vc)];
  const Packet& p = packets_[inputs_.front(i).packet()];
  RouteOptions options;
  routing_options(r, in_port, vc_of_[static_cast<std::size_t>(local_vc)], p, options);
  bool way_out = false;
  choose_vcs(r, in_port, p, options, [&](const VcChoice& c) {
    switch (c.verdict) {
      case VcVerdict::kOwned: {
        const std::uint8_t owner = outputs_.owner(c.output);
        waits.push_back(VcWait{VcWait::kOwner, port_of_[owner], vc_of_[owner]});
        return true;
      }
      case VcVerdict::kBubble:
        waits.push_back(VcWait{VcWait::kDownstream, static_cast<std::uint8_t>(c.port),
                               static_cast<std::uint8_t>(c.vc)});
        return true;
      case VcVerdict::kTake:
      case VcVerdict::kAdaptiveNeedsEmpty:
        break;
    }
    way_out = true;  // it wins the VC, or another packet does and then owns it
    return false;
  });
  if (way_out || options.empty()) waits.resize(first);
}

}  // namespace wormnet
