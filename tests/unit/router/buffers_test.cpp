// Input and output units: FIFO order through the ring buffer, the stage masks and credits.
#include <gtest/gtest.h>

#include "wormnet/core/error.hpp"
#include "wormnet/router/flit.hpp"
#include "wormnet/router/input_unit.hpp"
#include "wormnet/router/output_unit.hpp"

namespace wormnet {
namespace {

TEST(Flit, KeepsSlotAndKindInOneWord) {
  // The four kinds at slot 0, at the largest slot a flit can name (2^30 - 1) and at one
  // between: the slot never leaks into the head/tail bits nor they into the slot.
  for (const std::uint32_t slot : {0U, 12345U, (1U << 30) - 1U}) {
    for (const bool head : {false, true}) {
      for (const bool tail : {false, true}) {
        const Flit f(slot, head, tail);
        EXPECT_EQ(f.packet(), slot);
        EXPECT_EQ(f.head(), head);
        EXPECT_EQ(f.tail(), tail);
        EXPECT_EQ(f.kind(), (head ? 1U : 0U) | (tail ? 2U : 0U));
        Flit g = Flit::with_kind(0, f.kind());  // as a flit from another rank is rebuilt
        g.set_packet(slot);
        EXPECT_EQ(g.packet(), slot);
        EXPECT_EQ(g.head(), head);
        EXPECT_EQ(g.tail(), tail);
      }
    }
  }
  EXPECT_EQ(sizeof(Flit), 4U);
}

TEST(InputUnit, KeepsFifoOrderAcrossTheRingBufferWrap) {
  InputUnit in(2, 3, 2, 3);  // 2 routers, 3 ports x 2 VCs, 3-flit buffers
  const int lv = 5;          // port 2, VC 1
  std::uint32_t next_in = 0;
  std::uint32_t next_out = 0;
  for (int round = 0; round < 4; ++round) {  // 4 x (2 in, 2 out) walks the ring twice over
    for (int k = 0; k < 2; ++k) in.push(1, lv, Flit(next_in++, false, false));
    EXPECT_EQ(in.count(in.index(1, lv)), 2);
    EXPECT_EQ(in.at(in.index(1, lv), 1).packet(), next_out + 1);
    for (int k = 0; k < 2; ++k) EXPECT_EQ(in.pop(1, lv).packet(), next_out++);
  }
  EXPECT_EQ(in.nonempty(1), 0U);
  EXPECT_EQ(in.nonempty(0), 0U);
}

TEST(InputUnit, RefusesAFlitWithoutRoom) {
  InputUnit in(1, 1, 1, 2);
  in.push(0, 0, Flit(0, true, false));
  in.push(0, 0, Flit(0, false, false));
  EXPECT_TRUE(in.full(in.index(0, 0)));
  EXPECT_THROW(in.push(0, 0, Flit(0, false, true)), InvariantError);
}

// The narrow layout's 8-bit head and count hold buffers of up to 255 flits; 256 take the wide
// layout (MaskWidth). Either way a full buffer keeps FIFO order across the ring's wrap (the
// head at 254, then 0), and its count reaches the depth exactly; the output port and VC, the
// past bit and the stage keep their own bits (the narrow layout packs the first three in one
// byte).
TEST(InputUnit, BuffersUpTo255FlitsAreNarrowAndKeepTheirOrderAtTheTop) {
  for (const int depth : {255, 256}) {
    InputUnit in(1, 8, 2, depth);  // 16 input VCs: narrow but for the depth
    EXPECT_EQ(in.wide(), depth > 255) << depth;
    const std::uint32_t i = in.index(0, 15);
    for (int k = 0; k < depth - 1; ++k)
      in.push(0, 15, Flit(static_cast<std::uint32_t>(k), false, false));
    for (int k = 0; k < depth - 2; ++k)
      EXPECT_EQ(in.pop(0, 15).packet(), static_cast<std::uint32_t>(k));
    EXPECT_EQ(in.head(i), static_cast<std::uint32_t>(depth - 2));
    for (int k = 0; k < depth - 1; ++k) {
      in.push(0, 15, Flit(static_cast<std::uint32_t>(1000 + k), false, false));
    }
    EXPECT_EQ(in.count(i), static_cast<std::uint32_t>(depth));
    EXPECT_TRUE(in.full(i));
    in.set_stage(0, 15, VcStage::kActive);
    in.set_out(i, 7, 7);
    in.set_past(i);
    EXPECT_EQ(in.out_port(i), 7);
    EXPECT_EQ(in.out_vc(i), 7);
    EXPECT_TRUE(in.past(i));
    EXPECT_EQ(in.stage(i), VcStage::kActive);
    in.set_out(i, 3, 1);
    EXPECT_EQ(in.out_port(i), 3);
    EXPECT_EQ(in.out_vc(i), 1);
    EXPECT_TRUE(in.past(i));
    EXPECT_EQ(in.pop(0, 15).packet(), static_cast<std::uint32_t>(depth - 2));
    for (int k = 0; k < depth - 1; ++k) {
      EXPECT_EQ(in.pop(0, 15).packet(), static_cast<std::uint32_t>(1000 + k)) << depth << " " << k;
    }
    EXPECT_EQ(in.count(i), 0U);
    EXPECT_EQ(in.nonempty(0), 0U);
  }
}

TEST(InputUnit, StageMasksFollowTheStage) {
  InputUnit in(1, 2, 2, 1);
  in.push(0, 3, Flit(7, true, true));
  EXPECT_EQ(in.nonempty(0), 0b1000U);
  in.set_stage(0, 3, VcStage::kWaitVc);
  EXPECT_EQ(in.waiting(0), 0b1000U);
  EXPECT_EQ(in.active(0), 0U);
  in.set_stage(0, 3, VcStage::kActive);
  EXPECT_EQ(in.waiting(0), 0U);
  EXPECT_EQ(in.active(0), 0b1000U);
  in.set_stage(0, 3, VcStage::kIdle);
  EXPECT_EQ(in.waiting(0) | in.active(0), 0U);
}

// A VC that stops holding an output VC is neither blocked nor settling any more.
TEST(InputUnit, LeavingTheActiveStageClearsTheSwitchMasks) {
  InputUnit in(2, 3, 2, 2);
  for (const VcStage next : {VcStage::kWaitVc, VcStage::kIdle}) {
    in.set_stage(1, 3, VcStage::kActive);
    in.set_stage(1, 2, VcStage::kActive);
    in.block(1, 0b1100);
    in.settle(1, 0b1100);
    in.set_stage(1, 3, next);
    EXPECT_EQ(in.blocked(1), 0b0100U);
    EXPECT_EQ(in.settling(1), 0b0100U);
    EXPECT_EQ(in.blocked(0) | in.settling(0), 0U);  // another router's
    in.set_stage(1, 2, next);
    EXPECT_EQ(in.blocked(1) | in.settling(1), 0U);
  }
}

// The header's masks are 16 bits up to 16 input VCs per router ((ports + 1) x vcs) and 64 bits
// from 17 (or when forced), and either layout keeps every bit: the same operations on every
// local VC of a unit at the boundary (16 and 17 VCs) and on one forced wide give the same masks.
TEST(InputUnit, MasksAreNarrowUpToSixteenVcsAndKeepEveryBit) {
  EXPECT_FALSE(InputUnit(3, 4, 4, 1).wide());  // 16 VCs
  EXPECT_TRUE(InputUnit(3, 17, 1, 1).wide());  // 17 VCs
  EXPECT_TRUE(InputUnit(3, 8, 8, 1).wide());   // 64 VCs
  EXPECT_TRUE(InputUnit(3, 4, 4, 1, true).wide());
  EXPECT_EQ(InputUnit(3, 4, 4, 1).header_bytes(), 32U);
  EXPECT_EQ(InputUnit(3, 17, 1, 1).header_bytes(), 64U);
  // The narrow unit's records are the same bytes: the difference is 32 bytes per router (the
  // headers are stored in whole 64-byte lines: an odd count of narrow ones leaves half of one).
  EXPECT_EQ(InputUnit(4, 4, 4, 1, true).bytes() - InputUnit(4, 4, 4, 1).bytes(), 4U * 32U);
  EXPECT_EQ(InputUnit(3, 4, 4, 1, true).bytes() - InputUnit(3, 4, 4, 1).bytes(), 3U * 32U - 32U);
  for (const int ports : {4, 17}) {
    const int vcs = ports == 4 ? 4 : 1;
    InputUnit a(3, ports, vcs, 2);
    InputUnit b(3, ports, vcs, 2, true);
    const std::uint64_t all = (std::uint64_t{1} << (ports * vcs)) - 1;
    auto same = [&](const char* what) {
      for (std::uint32_t r = 0; r < 3; ++r) {
        ASSERT_EQ(a.nonempty(r), b.nonempty(r)) << what << " " << ports << " router " << r;
        ASSERT_EQ(a.waiting(r), b.waiting(r)) << what << " " << ports << " router " << r;
        ASSERT_EQ(a.active(r), b.active(r)) << what << " " << ports << " router " << r;
        ASSERT_EQ(a.blocked(r), b.blocked(r)) << what << " " << ports << " router " << r;
        ASSERT_EQ(a.settling(r), b.settling(r)) << what << " " << ports << " router " << r;
        ASSERT_EQ(a.parked(r), b.parked(r)) << what << " " << ports << " router " << r;
        ASSERT_EQ(a.node(r), b.node(r)) << what << " " << ports << " router " << r;
      }
    };
    for (std::uint32_t r = 0; r < 3; ++r) {
      a.set_node(r, 0xFFFFFFF0U + r);
      b.set_node(r, 0xFFFFFFF0U + r);
      a.injection(r).length = 0xFFFF;
      b.injection(r).length = 0xFFFF;
    }
    // Router 1, every VC: deposit, wait, park, then active, blocked and settling.
    for (int lv = 0; lv < ports * vcs; ++lv) {
      for (InputUnit* u : {&a, &b}) {
        u->push(1, lv, Flit(static_cast<std::uint32_t>(lv), true, true));
        u->set_stage(1, lv, VcStage::kWaitVc);
      }
    }
    same("waiting");
    EXPECT_EQ(a.nonempty(1), all);
    EXPECT_EQ(a.waiting(1), all);
    EXPECT_EQ(a.nonempty(0) | a.nonempty(2), 0U);  // the neighbouring headers untouched
    a.park(1, all);
    b.park(1, all);
    EXPECT_EQ(a.requesting(1), 0U);
    a.unpark(1);
    b.unpark(1);
    same("unparked");
    for (int lv = 0; lv < ports * vcs; ++lv) {
      for (InputUnit* u : {&a, &b}) u->set_stage(1, lv, VcStage::kActive);
    }
    a.block(1, all);
    b.block(1, all);
    a.settle(1, all & 0xAAAAAAAAAAAAAAAAULL);
    b.settle(1, all & 0xAAAAAAAAAAAAAAAAULL);
    same("active");
    EXPECT_EQ(a.blocked(1), all);
    a.unblock(1, 1ULL << (ports * vcs - 1));  // the top bit: 15 narrow, 16 wide
    b.unblock(1, 1ULL << (ports * vcs - 1));
    a.settled(1, all);
    b.settled(1, all);
    same("unblocked");
    EXPECT_EQ(a.blocked(1), all >> 1);
    for (int lv = 0; lv < ports * vcs; ++lv) {
      for (InputUnit* u : {&a, &b}) {
        EXPECT_EQ(u->pop(1, lv).packet(), static_cast<std::uint32_t>(lv));
        u->set_stage(1, lv, VcStage::kIdle);
      }
    }
    same("idle");
    EXPECT_EQ(a.nonempty(1) | a.active(1) | a.blocked(1), 0U);
    for (std::uint32_t r = 0; r < 3; ++r) {
      EXPECT_EQ(a.node(r), 0xFFFFFFF0U + r);
      EXPECT_EQ(a.injection(r).length, 0xFFFF);
    }
  }
}

TEST(OutputUnit, CreditsStartAtTheDownstreamDepthAndOwnersStartFree) {
  OutputUnit out(2, 3, 2, 4);
  const std::uint32_t o = out.index(1, 5);
  EXPECT_EQ(out.credits(o), 4);
  EXPECT_EQ(out.owner(o), OutputUnit::kFree);
  out.take_credit(o);
  out.take_credit(o);
  EXPECT_EQ(out.return_credit_unblocking(o), 0U);
  EXPECT_EQ(out.credits(o), 3);
  out.set_owner(o, 2);
  EXPECT_EQ(out.owner(o), 2);
  EXPECT_EQ(out.owner(out.index(0, 5)), OutputUnit::kFree);  // another router's
}

// A credit unblocks the owner of an output VC only when it had none left; a free output
// VC's credit unblocks nobody.
TEST(OutputUnit, ACreditUnblocksTheOwnerOnlyOfAnEmptiedOutputVc) {
  OutputUnit out(2, 3, 2, 2);
  const std::uint32_t o = out.index(1, 4);
  out.take_credit(o);
  out.take_credit(o);
  EXPECT_EQ(out.return_credit_unblocking(o), 0U);  // free: nobody waits for it
  out.take_credit(o);
  out.set_owner(o, 5);
  EXPECT_EQ(out.return_credit_unblocking(o), 1U << 5);
  EXPECT_EQ(out.return_credit_unblocking(o), 0U);  // it had one already
  EXPECT_EQ(out.credits(o), 2);
}

// router_of() is integer division by the VCs per router, without dividing: checked against
// `/` for every VCs per router that ports (network + ejection) and VCs give, 2..64, at both ends
// of the 32-bit range and around every multiple near its top.
TEST(OutputUnit, RouterOfAnOutputVcIsItsIndexDividedByTheVcsPerRouter) {
  for (int ports = 2; ports <= 17; ++ports) {
    for (int vcs = 1; ports * vcs <= 64; ++vcs) {
      const OutputUnit out(0, ports, vcs, 1);
      const auto d = static_cast<std::uint32_t>(ports * vcs);
      for (std::uint32_t o = 0; o < 5000; ++o) ASSERT_EQ(out.router_of(o), o / d) << o;
      for (std::uint32_t k = 0; k < 5000; ++k) {
        const std::uint32_t o = 0xFFFFFFFFU - k;
        ASSERT_EQ(out.router_of(o), o / d) << o;
      }
      const std::uint32_t top = 0xFFFFFFFFU / d * d;
      for (std::uint32_t q = top; q > top - 200 * d; q -= d) {
        ASSERT_EQ(out.router_of(q), q / d) << q;
        ASSERT_EQ(out.router_of(q - 1), (q - 1) / d) << q - 1;
      }
    }
  }
}

// The deadlock detector's per-VC wait stamps, across the 32-bit wrap of the stored cycle.
TEST(InputUnit, AVcIsStuckExactlyThresholdCyclesAfterItsLastMove) {
  InputUnit in(1, 3, 1, 2);
  in.mark(1, 100);
  EXPECT_FALSE(in.stuck(1, 119, 20));
  EXPECT_TRUE(in.stuck(1, 120, 20));
  EXPECT_TRUE(in.stuck(0, 20, 20));  // never marked: waiting since cycle 0
  EXPECT_FALSE(in.stuck(2, 19, 20));
}

TEST(InputUnit, WaitStampsCountCyclesAcrossTheWrapOfTheLow32Bits) {
  InputUnit in(1, 1, 1, 1);
  const Cycle before_wrap = (Cycle{1} << 32) - 5;
  in.mark(0, before_wrap);
  EXPECT_EQ(in.stamp(0), 0xFFFFFFFBU);
  EXPECT_TRUE(in.stuck(0, before_wrap + 15, 15));  // 15 cycles later, past 2^32
  EXPECT_FALSE(in.stuck(0, before_wrap + 15, 16));
  in.set_stamp(0, 7);
  EXPECT_TRUE(in.stuck(0, (Cycle{3} << 32) + 10, 3));
}

// Each input VC's state, stamp and flits share one record: filling every VC of every router
// to the brim with distinct flits and stamps, for buffer depths 1..6 (records of 20..40
// bytes), must read every value back where it was written.
TEST(InputUnit, RecordsOfNeighbouringVcsNeverOverlap) {
  for (int depth = 1; depth <= 6; ++depth) {
    const std::uint32_t routers = 3;
    const int ports = 3;
    const int vcs = 2;
    InputUnit in(routers, ports, vcs, depth);
    auto tag = [&](std::uint32_t r, int lv, int k) {
      return static_cast<std::uint32_t>((r * 100 + static_cast<std::uint32_t>(lv)) * 10 + k);
    };
    for (std::uint32_t r = 0; r < routers; ++r) {
      for (int lv = 0; lv < ports * vcs; ++lv) {
        for (int k = 0; k < depth; ++k) in.push(r, lv, Flit(tag(r, lv, k), k == 0, false));
        in.mark(in.index(r, lv), 0xABC00000ULL + tag(r, lv, 0));
        in.set_stage(r, lv, lv % 2 == 0 ? VcStage::kWaitVc : VcStage::kActive);
        if (lv % 3 == 0) in.set_past(in.index(r, lv));
      }
    }
    for (std::uint32_t r = 0; r < routers; ++r) {
      EXPECT_EQ(in.nonempty(r), 0b111111U);
      EXPECT_EQ(in.waiting(r), 0b010101U);
      EXPECT_EQ(in.active(r), 0b101010U);
      for (int lv = 0; lv < ports * vcs; ++lv) {
        const std::uint32_t i = in.index(r, lv);
        EXPECT_TRUE(in.full(i));
        EXPECT_EQ(in.stamp(i), 0xABC00000U + tag(r, lv, 0));
        EXPECT_EQ(in.past(i), lv % 3 == 0 ? 1 : 0);
        for (int k = 0; k < depth; ++k) {
          EXPECT_EQ(in.at(i, static_cast<std::uint32_t>(k)).packet(), tag(r, lv, k))
              << "depth " << depth << " router " << r << " vc " << lv << " flit " << k;
        }
      }
    }
  }
}

}  // namespace
}  // namespace wormnet
