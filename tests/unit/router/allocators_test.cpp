// The router's arbiters and allocators against hand-worked round-robin orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>

#include "wormnet/router/output_unit.hpp"
#include "wormnet/router/round_robin.hpp"
#include "wormnet/router/switch_allocator.hpp"
#include "wormnet/router/vc_allocator.hpp"

namespace wormnet {
namespace {

TEST(RoundRobin, PicksTheFirstRequesterAfterTheLastWinnerAndWraps) {
  EXPECT_EQ(round_robin_pick(0, 5), -1);
  EXPECT_EQ(round_robin_pick(0b1011, 63), 0);  // nobody won yet: the lowest
  EXPECT_EQ(round_robin_pick(0b1011, 0), 1);
  EXPECT_EQ(round_robin_pick(0b1011, 1), 3);
  EXPECT_EQ(round_robin_pick(0b1011, 3), 0);  // wraps
  EXPECT_EQ(round_robin_pick(std::uint64_t{1} << 63, 62), 63);
  EXPECT_EQ(round_robin_pick(std::uint64_t{1} << 63, 63), 63);
}

// Against the definition, position by position: every `last` and a spread of masks.
TEST(RoundRobin, MatchesAScanAfterTheLastWinner) {
  std::uint64_t x = 0x9E3779B97F4A7C15ULL;
  for (int k = 0; k < 400; ++k) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const std::uint64_t mask = k % 4 == 0 ? x & (x >> 11) & (x >> 23) : x;  // sparse ones too
    for (int last = 0; last < 64; ++last) {
      int expected = -1;
      for (int step = 1; step <= 64 && expected < 0; ++step) {
        const int bit = (last + step) % 64;
        if ((mask >> bit) & 1U) expected = bit;
      }
      ASSERT_EQ(round_robin_pick(mask, last), expected) << std::hex << mask << " " << last;
    }
  }
}

// Fairness: with every requester always requesting, k requesters are each served once in
// any k consecutive grants.
TEST(RoundRobin, ServesEveryStandingRequesterOncePerRotation) {
  const std::uint64_t mask = 0b1001'0110'0001;  // bits 0, 5, 6, 8, 11
  int last = 63;
  std::uint64_t served = 0;
  for (int k = 0; k < 5; ++k) {
    last = round_robin_pick(mask, last);
    EXPECT_EQ((served >> last) & 1U, 0U) << "served twice in one rotation: " << last;
    served |= std::uint64_t{1} << last;
  }
  EXPECT_EQ(served, mask);
}

TEST(VcAllocator, GrantsOneHeadPerOutputVcInRoundRobinOrder) {
  OutputUnit out(2, 2, 4, 4);  // two routers, 2 ports x 4 VCs: 8 output VCs each
  auto last = [&](std::uint32_t router) {
    return [&out, router](std::uint8_t o) -> std::uint8_t& {
      return out.last_grant(out.index(router, o));
    };
  };
  // Input VCs 2 and 5 both want output VC 3; input VC 6 wants output VC 4 alone.
  const VcAllocator::Request reqs[] = {{2, 3, 0}, {5, 3, 1}, {6, 4, 0}};
  bool granted[3];
  VcAllocator::arbitrate(reqs, 3, granted, last(1));
  EXPECT_TRUE(granted[0]);  // no winner yet: the lowest input VC
  EXPECT_FALSE(granted[1]);
  EXPECT_TRUE(granted[2]);  // uncontested
  EXPECT_EQ(out.last_grant(out.index(1, 3)), 2);
  EXPECT_EQ(out.last_grant(out.index(1, 4)), 6);
  VcAllocator::arbitrate(reqs, 3, granted, last(1));
  EXPECT_FALSE(granted[0]);  // 5 is next after 2
  EXPECT_TRUE(granted[1]);
  VcAllocator::arbitrate(reqs, 3, granted, last(1));
  EXPECT_TRUE(granted[0]);  // and back to 2
  // Router 0 kept its own state, and the pointers left the credits and owners alone.
  EXPECT_EQ(out.last_grant(out.index(0, 3)), 63);
  EXPECT_EQ(out.credits(out.index(1, 3)), 4);
  EXPECT_EQ(out.owner(out.index(1, 3)), OutputUnit::kFree);
}

TEST(SwitchAllocator, RotatesVcsPerInputPortAndInputsPerOutputPort) {
  SwitchAllocator s(1, 5);
  EXPECT_EQ(s.pick_vc(0, 2, 0b110), 1);
  s.commit(0, 2, 1, 4);
  EXPECT_EQ(s.pick_vc(0, 2, 0b110), 2);  // after VC 1
  EXPECT_EQ(s.pick_vc(0, 3, 0b110), 1);  // port 3 has its own pointer
  // Output port 4 last served input 2: inputs 0 and 2 request, input 0 is next (wrap).
  EXPECT_EQ(s.pick_input(0, 4, 0b101), 0);
  EXPECT_EQ(s.pick_input(0, 4, 0b11100), 3);
  EXPECT_EQ(s.last_vc(0, 2), 1);
  EXPECT_EQ(s.last_port(0, 4), 2);
}

// Every router keeps its own pointers, and a port's VC pointer and its output pointer are
// apart (the same port number as input and output): random grants on 5 routers of 7 ports
// against a plain table of what each grant set, through every reader.
TEST(SwitchAllocator, KeepsEveryPointerApartAcrossPortsAndRouters) {
  constexpr std::uint32_t kRouters = 5;
  constexpr int kPorts = 7;
  SwitchAllocator s(kRouters, kPorts);
  int last_vc[kRouters][kPorts];
  int last_port[kRouters][kPorts];
  for (auto& row : last_vc) std::fill(std::begin(row), std::end(row), 63);
  for (auto& row : last_port) std::fill(std::begin(row), std::end(row), 63);
  std::uint64_t x = 0x2545F4914F6CDD1DULL;
  for (int k = 0; k < 2000; ++k) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const auto r = static_cast<std::uint32_t>(x % kRouters);
    const int in = static_cast<int>((x >> 8) % kPorts);
    const int vc = static_cast<int>((x >> 16) % 4);
    const int out = k % 3 == 0 ? in : static_cast<int>((x >> 24) % kPorts);  // often the same
    s.commit(r, in, vc, out);
    last_vc[r][in] = vc;
    last_port[r][out] = in;
    for (std::uint32_t q = 0; q < kRouters; ++q) {
      for (int p = 0; p < kPorts; ++p) {
        ASSERT_EQ(s.last_vc(q, p), last_vc[q][p]) << "grant " << k << " router " << q;
        ASSERT_EQ(s.last_port(q, p), last_port[q][p]) << "grant " << k << " router " << q;
        // The pickers read the same pointers: the first requester after the last winner.
        ASSERT_EQ(s.pick_vc(q, p, 0b1111), last_vc[q][p] == 63 ? 0 : (last_vc[q][p] + 1) % 4);
        ASSERT_EQ(s.pick_input(q, p, 0x7F), last_port[q][p] == 63 ? 0 : (last_port[q][p] + 1) % 7);
      }
    }
  }
}

}  // namespace
}  // namespace wormnet
