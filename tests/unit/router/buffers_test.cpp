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
    EXPECT_EQ(in.state(in.index(1, lv)).count, 2);
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

TEST(OutputUnit, CreditsStartAtTheDownstreamDepthAndOwnersStartFree) {
  OutputUnit out(2, 3, 2, 4);
  const std::uint32_t o = out.index(1, 5);
  EXPECT_EQ(out.credits(o), 4);
  EXPECT_EQ(out.owner(o), OutputUnit::kFree);
  out.take_credit(o);
  out.take_credit(o);
  out.return_credit(o);
  EXPECT_EQ(out.credits(o), 3);
  out.set_owner(o, 2);
  EXPECT_EQ(out.owner(o), 2);
  EXPECT_EQ(out.owner(out.index(0, 5)), OutputUnit::kFree);  // another router's
}

}  // namespace
}  // namespace wormnet
