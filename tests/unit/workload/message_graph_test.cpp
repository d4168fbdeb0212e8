// MessageGraph's summaries, on graphs written out by hand.
#include "wormnet/workload/message_graph.hpp"

#include <gtest/gtest.h>

namespace wormnet {
namespace {

TEST(MessageGraph, FlitRangeIsTheShortestAndTheFirstLongestMessage) {
  MessageGraph g;
  EXPECT_EQ(g.flit_range().shortest, 0U);  // empty
  EXPECT_EQ(g.flit_range().longest, 0U);
  g.add(0, 1, 8, 0, 0, {});
  g.add(1, 2, 40, 0, 0, {});
  g.add(2, 3, 3, 0, 0, {});
  g.add(3, 0, 40, 1, 0, {});  // as long as message 1, later
  const MessageGraph::FlitRange r = g.flit_range();
  EXPECT_EQ(r.shortest, 3U);
  EXPECT_EQ(r.longest, 40U);
  EXPECT_EQ(r.longest_id, 1U);
  MessageGraph one;
  one.add(0, 1, MessageGraph::kMaxFlits, 0, 0, {});
  EXPECT_EQ(one.flit_range().shortest, MessageGraph::kMaxFlits);
  EXPECT_EQ(one.flit_range().longest, MessageGraph::kMaxFlits);
  EXPECT_EQ(one.flit_range().longest_id, 0U);
}

}  // namespace
}  // namespace wormnet
