// The driver layer: a network wired from a configuration is the one the configuration names,
// and bad combinations are refused naming the option.
#include "wormnet/driver/sim_network.hpp"

#include <gtest/gtest.h>

#include "wormnet/core/error.hpp"

namespace wormnet {
namespace {

TEST(SimNetwork, IsWiredFromTheConfiguration) {
  SimConfig c;
  c.network.topology = "torus:4x6";
  c.network.routing = "dor-dateline";
  c.network.partition = PartitionMethod::kBlocks;
  const SimNetwork net = build_network(c, Communicator::self());
  EXPECT_EQ(net.topology->spec(), "torus:4x6");
  EXPECT_EQ(net.topology->num_nodes(), 24U);
  EXPECT_EQ(net.routing->name(), "dor-dateline");
  EXPECT_EQ(net.plan.vcs, 2);  // dor-dateline's two classes, --vcs 0
  EXPECT_EQ(net.plan.partition, PartitionMethod::kBlocks);
  EXPECT_EQ(net.partition.method(), "blocks");
  EXPECT_EQ(net.partition.parts(), 1);
  EXPECT_EQ(net.partition.nodes_of(0).size(), 24U);
  ASSERT_NE(net.pattern, nullptr);
  EXPECT_EQ(net.table_saturation_rate, 0.0);
  EXPECT_TRUE(net.table_loads.empty());
}

TEST(SimNetwork, TakesThePacketLengthsOfAWorkloadOnceTheTopologyIsBuilt) {
  SimConfig c;  // --length-max 20 would ask angara for buffers of 40
  c.network.topology = "torus:4x4";
  c.network.routing = "angara";
  c.network.buffer_depth = 60;
  std::uint32_t nodes_seen = 0;
  const MessageLengthsOf workload = [&](const Topology& topo) {
    nodes_seen = topo.num_nodes();
    return MessageLengths{2, 30, "--message-size"};
  };
  const SimNetwork net = build_network(c, Communicator::self(), workload);
  EXPECT_EQ(nodes_seen, 16U);
  EXPECT_EQ(net.plan.lengths.shortest, 2);
  EXPECT_EQ(net.plan.lengths.longest, 30);
  c.network.buffer_depth = 59;  // below 2 x 30
  EXPECT_THROW(build_network(c, Communicator::self(), workload), InputError);
  c.network.buffer_depth = 40;  // without a workload: 2 x --length-max
  EXPECT_EQ(build_network(c, Communicator::self()).plan.lengths.longest, 20);
}

TEST(SimNetwork, RefusesWhatDoesNotFitTheNetwork) {
  SimConfig c;
  c.network.topology = "torus:4x4";
  c.network.routing = "dor";
  c.network.tables = "t.h5";  // a tables file with a routing that reads none
  EXPECT_THROW(build_network(c, Communicator::self()), InputError);
  c.network.tables.clear();
  c.network.topology = "torus:4x4x4x4";
  c.network.vcs = 8;  // (8 ports + 1) x 8 VCs > 64
  EXPECT_THROW(build_network(c, Communicator::self()), InputError);
  c.network.topology = "torus:4x4";
  c.network.vcs = 0;
  c.traffic.hotspot_nodes = {16};  // nodes are 0..15
  EXPECT_THROW(build_network(c, Communicator::self()), InputError);
}

}  // namespace
}  // namespace wormnet
