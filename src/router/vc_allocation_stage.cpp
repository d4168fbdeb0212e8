#include "wormnet/router/vc_allocation_stage.hpp"

#include <bit>
#include <limits>

#include "wormnet/core/rng.hpp"
#include "wormnet/router/vc_allocator.hpp"

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

int VcAllocationStage::least_occupied(const RouterCore& c, std::uint32_t r, const int* candidates,
                                      int found) {
  int best = 0;
  int best_free = -1;
  for (int k = 0; k < found; ++k) {
    const int port = c.port_of(static_cast<std::uint32_t>(candidates[k]));
    int free = 0;
    for (int w = 0; w < c.params.vcs; ++w) {
      free += c.outputs.credits(c.outputs.index(r, port * c.params.vcs + w));
    }
    if (free > best_free) {
      best_free = free;
      best = k;
    }
  }
  return best;
}

template <bool kCounted, MaskWidth W>
std::uint64_t VcAllocationStage::step(RouterCore& c, std::uint32_t r, Cycle t) {
  const int ports = c.params.ports;
  const VcMask escape_vcs = c.params.escape_vcs;
  // With priority selection and no escape VCs the first free VC ends the search.
  const bool first_only = c.params.selection == SelectionPolicy::kPriority && escape_vcs == 0;
  VcAllocator::Request requests[kMostRequests];
  RouteState next_state[kMostRequests];
  int n = 0;
  RouteOptions options;
  std::uint64_t parks = 0;  // heads refused because every VC they may take is owned
  for (std::uint64_t mask = c.inputs.requesting<W>(r); mask != 0; mask &= mask - 1) {
    const auto lv = static_cast<std::uint32_t>(std::countr_zero(mask));
    const std::uint32_t i = c.inputs.index(r, static_cast<int>(lv));
    if (!c.inputs.template ready_by<W>(i, t)) continue;
    // Past its delay from now on, however long it waits (its stamp no longer tells).
    c.inputs.template set_past<W>(i);
    const int in_port = c.port_of(lv);
    const int in_vc = c.vc_of(lv);
    const Packet& p = c.packets[c.inputs.template front<W>(i).packet()];
    c.routing_options(r, in_port, in_vc, p, options);
    int candidates[kMostCandidates];
    int candidate_option[kMostCandidates];
    int found = 0;
    int adaptive = 0;          // candidates on adaptive VCs (routings with escape VCs)
    bool for_credits = false;  // a free VC refused for its credits: they return without a tail
    choose_vcs(c, r, in_port, p, options, [&](const VcChoice& v) {
      if (v.verdict == VcVerdict::kOwned) return true;
      if (v.verdict != VcVerdict::kTake) {
        for_credits = true;
        return true;
      }
      adaptive += v.adaptive ? 1 : 0;
      candidates[found] = v.local;
      candidate_option[found] = v.option;
      ++found;
      return !first_only;
    });
    if (found == 0) {
      // Its route and packet stay as they are while it waits, and owners change only at
      // grants (which take VCs) and tails (release_output): it parks until a tail, where a
      // request each cycle would be refused the same way (a head retried more than once per
      // hop: docs/scaling.md, "Measured figures behind the engine's rules"). It stays past its
      // delay (set above), so its release lets it request at once (InputUnit::unpark).
      if (!for_credits) parks |= std::uint64_t{1} << lv;
      continue;
    }
    found =
        prefer_adaptive(candidates, candidate_option, found, adaptive, escape_vcs, c.vc_table());
    int pick = 0;
    if (c.params.selection == SelectionPolicy::kRandom && found > 1) {
      pick = static_cast<int>(mix64(p.id * 0x9E3779B97F4A7C15ULL + p.hops + t) %
                              static_cast<std::uint64_t>(found));
    } else if (c.params.selection == SelectionPolicy::kLeastOccupied && found > 1) {
      pick = least_occupied(c, r, candidates, found);
    }
    requests[n] = VcAllocator::Request{static_cast<std::uint8_t>(lv),
                                       static_cast<std::uint8_t>(candidates[pick]),
                                       static_cast<std::uint8_t>(candidate_option[pick])};
    next_state[n] = options[candidate_option[pick]].next_state;
    ++n;
  }
  if (parks != 0) c.inputs.park<W>(r, parks);
  if (n == 0) return 0;
  bool granted[kMostRequests];
  std::uint64_t granted_vcs = 0;
  const std::uint32_t first_out = c.outputs.index(r, 0);
  VcAllocator::arbitrate(requests, n, granted, [&](std::uint8_t o) -> std::uint8_t& {
    return c.outputs.last_grant(first_out + o);
  });
  for (int k = 0; k < n; ++k) {
    if (!granted[k]) continue;
    const std::uint32_t i = c.inputs.index(r, requests[k].input_vc);
    const int ol = requests[k].output_vc;
    c.inputs.set_stage<W>(r, requests[k].input_vc, VcStage::kActive);
    const int out_port = c.port_of(static_cast<std::uint32_t>(ol));
    c.inputs.template set_out<W>(i, out_port, c.vc_of(static_cast<std::uint32_t>(ol)));
    // A grant is progress (the deadlock detector's stamp), and the VC allocation delay runs
    // from it: switch-ready at t + vc_alloc_delay (InputUnit::ready_by).
    c.inputs.mark(i, t);
    // The switch stage's masks: no credit yet (the buffer behind the last packet is full),
    // and a `ready` more than a cycle ahead (a delay of 1 only keeps it from this cycle's
    // switch stage: the mask returned does).
    const std::uint64_t bit = std::uint64_t{1} << requests[k].input_vc;
    const bool no_credit = c.outputs.credits(c.outputs.index(r, ol)) == 0;
    if (no_credit) c.inputs.block<W>(r, bit);
    if constexpr (kCounted) c.congestion.granted_now(i, no_credit);
    if (c.params.vc_alloc_delay > 1) c.inputs.settle<W>(r, bit);
    granted_vcs |= bit;
    c.outputs.set_owner(c.outputs.index(r, ol), requests[k].input_vc);
    Packet& p = c.packets[c.inputs.template front<W>(i).packet()];
    p.state = next_state[k];
    if (out_port != ports) ++p.hops;
  }
  return c.params.vc_alloc_delay != 0 ? granted_vcs : 0;
}

template std::uint64_t VcAllocationStage::step<false, MaskWidth::kNarrow>(RouterCore&,
                                                                          std::uint32_t, Cycle);
template std::uint64_t VcAllocationStage::step<true, MaskWidth::kNarrow>(RouterCore&, std::uint32_t,
                                                                         Cycle);
template std::uint64_t VcAllocationStage::step<false, MaskWidth::kWide>(RouterCore&, std::uint32_t,
                                                                        Cycle);
template std::uint64_t VcAllocationStage::step<true, MaskWidth::kWide>(RouterCore&, std::uint32_t,
                                                                       Cycle);

void VcAllocationStage::wait_for(const RouterCore& c, std::uint32_t r, int local_vc, Cycle t,
                                 std::vector<VcWait>& waits) {
  const std::uint32_t i = c.inputs.index(r, local_vc);
  const VcStage stage = c.inputs.stage(i);
  if (stage == VcStage::kActive) {
    // Holding an output VC, it moves unless it has no credit (ejection never runs out).
    const int out_port = c.inputs.out_port(i);
    const int out_vc = c.inputs.out_vc(i);
    const std::uint32_t o = c.outputs.index(r, out_port * c.params.vcs + out_vc);
    if (out_port != c.params.ports && c.outputs.credits(o) == 0) {
      waits.push_back(VcWait{VcWait::kDownstream, static_cast<std::uint8_t>(out_port),
                             static_cast<std::uint8_t>(out_vc)});
    }
    return;
  }
  if (stage != VcStage::kWaitVc || !c.inputs.ready_by(i, t)) return;  // still being routed
  const std::size_t first = waits.size();
  const int in_port = c.port_of(static_cast<std::uint32_t>(local_vc));
  const Packet& p = c.packets[c.inputs.front(i).packet()];
  RouteOptions options;
  c.routing_options(r, in_port, c.vc_of(static_cast<std::uint32_t>(local_vc)), p, options);
  bool way_out = false;
  choose_vcs(c, r, in_port, p, options, [&](const VcChoice& v) {
    switch (v.verdict) {
      case VcVerdict::kOwned: {
        const std::uint8_t owner = c.outputs.owner(v.output);
        waits.push_back(VcWait{VcWait::kOwner, static_cast<std::uint8_t>(c.port_of(owner)),
                               static_cast<std::uint8_t>(c.vc_of(owner))});
        return true;
      }
      case VcVerdict::kBubble:
        waits.push_back(VcWait{VcWait::kDownstream, static_cast<std::uint8_t>(v.port),
                               static_cast<std::uint8_t>(v.vc)});
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

void VcAllocationStage::save(const RouterCore& c, RouterRows& rows) {
  for (std::uint32_t o = 0; o < c.outputs.size(); ++o)
    rows.va_last.push_back(c.outputs.last_grant(o));
}

void VcAllocationStage::restore(RouterCore& c, const RouterRows& rows) {
  for (std::uint32_t o = 0; o < c.outputs.size(); ++o) c.outputs.last_grant(o) = rows.va_last[o];
}

}  // namespace wormnet
