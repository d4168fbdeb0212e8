// The fault file and the fault set it fills: every form of a line, on every topology kind,
// names the failures it should (checked against coordinates worked out by hand), and every
// bad line is one InputError naming the file, the line and what is wrong.
#include "wormnet/topology/fault_file.hpp"

#include <gtest/gtest.h>

#include <string>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

FaultSet read(const Topology& topo, const std::string& text) {
  FaultSet faults(topo);
  read_fault_list(topo, text, "--faults", "f.txt", faults);
  return faults;
}

/// The message of the InputError reading `text` throws ("" when none).
std::string refusal(const std::string& spec, const std::string& text) {
  const auto topo = make_topology(spec);
  try {
    read(*topo, text);
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), "--faults");
    EXPECT_EQ(e.value(), "f.txt");
    return e.allowed();
  }
  return "";
}

TEST(FaultFile, ALinkFailsBothDirectionsAndANodeAllItsChannels) {
  const auto topo = make_topology("torus:4x4");
  const NodeId a = topo->node_at(Coord{{0, 0}, 2});
  const NodeId b = topo->node_at(Coord{{1, 0}, 2});
  const NodeId c = topo->node_at(Coord{{2, 2}, 2});
  const FaultSet f = read(*topo, "link (0,0) (1,0)\nnode (2,2)\n");
  EXPECT_TRUE(f.channel_failed(topo->channel(a, Topology::port_of(0, +1))));
  EXPECT_TRUE(f.channel_failed(topo->channel(b, Topology::port_of(0, -1))));
  EXPECT_FALSE(f.channel_failed(topo->channel(a, Topology::port_of(0, -1))));
  EXPECT_TRUE(f.node_failed(c));
  EXPECT_FALSE(f.node_failed(a));
  // (2,2) has 4 links: 8 channels, and the failed link 2 more.
  EXPECT_EQ(f.failed_channels().size(), 10U);
  EXPECT_EQ(f.working_nodes(), 15U);
  EXPECT_EQ(f.working_links(), 32U - 1U - 4U);
  for (int p = 0; p < 4; ++p) {
    const NodeId m = topo->neighbor(c, static_cast<PortId>(p));
    EXPECT_TRUE(f.port_failed(m, Topology::reverse_port(static_cast<PortId>(p))));
    EXPECT_FALSE(
        f.working_neighbor(*topo, m, Topology::reverse_port(static_cast<PortId>(p))).valid());
  }
  ASSERT_EQ(f.failed_links().size(), 1U);
  EXPECT_EQ(topo->channel_label(f.failed_links()[0]), "(0,0) X+");
}

TEST(FaultFile, TheDirectionFormNamesTheSameLink) {
  // On torus:4x4 the link leaving (3,1) by X+ is the wrap-around one to (0,1).
  const auto topo = make_topology("torus:4x4");
  const FaultSet by_dir = read(*topo, "link (3,1) X+");
  const FaultSet by_pair = read(*topo, "link (0,1) (3,1)");
  EXPECT_TRUE(by_dir.same_faults(by_pair));
  EXPECT_EQ(topo->channel_label(by_dir.failed_links()[0]), "(3,1) X+");
  const FaultSet reverse =
      read(*topo, "  link   ( 0 , 1 )   X-  # the same, from its other end\r\n");
  EXPECT_TRUE(reverse.same_faults(by_dir));
}

TEST(FaultFile, CommentsAndBlankLinesAreIgnored) {
  const auto topo = make_topology("mesh:3x3");
  const FaultSet f = read(*topo, "# a comment\n\n   \nnode (1,1) # the middle\n");
  EXPECT_EQ(f.failed_nodes().size(), 1U);
  EXPECT_TRUE(read(*topo, "").empty());
}

TEST(FaultFile, EveryTopologyKindTakesItsCoordinates) {
  // H_2: (0,0,1) has + links (sum 1), its X+ neighbour is (1,0,1).
  const auto h = make_topology("honeycomb:2");
  FaultSet f = read(*h, "link (0,0,1) (1,0,1)\nnode (-1,1,2)");
  EXPECT_EQ(h->channel_label(f.failed_links()[0]), "(0,0,1) X+");
  EXPECT_EQ(f.failed_nodes().size(), 1U);
  const auto ht = make_topology("honeycomb-torus:2");
  const Coord c0 = ht->coords(NodeId(0));
  const std::string label = ht->node_label(NodeId(0));
  f = read(*ht, "node " + label);
  EXPECT_TRUE(f.node_failed(NodeId(0)));
  EXPECT_EQ(ht->coords(f.failed_nodes()[0]), c0);
  const auto m3 = make_topology("mesh:2x2x2");
  f = read(*m3, "link (1,1,0) Z+");
  EXPECT_EQ(m3->channel_label(f.failed_links()[0]), "(1,1,0) Z+");
}

TEST(FaultFile, BadLinesAreOneLineEach) {
  EXPECT_EQ(refusal("torus:4x4", "link (0,0) (2,0)"),
            "line 1: (0,0) and (2,0) are not neighbours on torus:4x4 (no link joins them) "
            "(docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "node (1,1)\n\nnode (4,0)"),
            "line 3: (4,0) is not a node of torus:4x4 (X in 0..3, Y in 0..3) (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "link (0,0) (1,0)\nlink (1,0) X-"),
            "line 2: the link (0,0) X+ is listed twice (first on line 1) (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "node (1,1)\nnode (1,1)"),
            "line 2: node (1,1) is listed twice (first on line 1) (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "node (1,1)\nlink (1,1) (1,2)"),
            "line 2: the link (1,1) Y+ has failed already with node (1,1) (line 1; list the "
            "link or the node, not both) (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "link (1,1) (1,2)\nnode (1,2)"),
            "line 2: node (1,2) fails its link (1,1) Y+, listed already on line 1 (list the "
            "link or the node, not both) (docs/faults.md)");
  EXPECT_EQ(refusal("mesh:4x4", "link (0,0) X-"),
            "line 1: (0,0) has no link in direction X- on mesh:4x4 (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "link (0,0) Z+"),
            "line 1: 'Z+' is neither coordinates nor a direction of torus:4x4 (X+, X-, Y+, Y-) "
            "(docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "node (1,1,0)"),
            "line 1: (1,1,0) has 3 coordinates; the nodes of torus:4x4 have 2 (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "edge (1,1) (1,2)"),
            "line 1: 'edge': expected 'link A B', 'link A DIR' or 'node A' (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "node 1,1"),
            "line 1: expected coordinates such as (1,2), found '1,1' (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "node (1,x)"),
            "line 1: '(1,x)' is not a list of integer coordinates (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "node (1,99999999999)"),
            "line 1: '(1,99999999999)' is not a list of integer coordinates (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "node (1,1) (2,2)"),
            "line 1: unexpected '(2,2)' after the node (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", "link (1,1)"),
            "line 1: 'link (1,1)' needs a second node or a direction (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", std::string("node (1,1)\0", 11)),
            "line 1: not text (a NUL byte) (docs/faults.md)");
  EXPECT_EQ(refusal("torus:4x4", std::string(5000, ' ')),
            "line 1: a line longer than 4096 characters (docs/faults.md)");
  EXPECT_EQ(refusal("honeycomb:2", "node (0,0,0)"),
            "line 1: (0,0,0) is not a node of honeycomb:2 (x in -1..2, y in -1..2, z in -1..2, "
            "not every point a node) (docs/faults.md)");
}

}  // namespace
}  // namespace wormnet
