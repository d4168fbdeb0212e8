// Rank-parallel table generation (run at 1, 2 and 4 ranks): the same table for the same rank
// count, every rank holding all of it; the genetic algorithm independent of the rank count;
// BFS and SSSP tables as good as the one-rank ones (total pi over a batch of tori within 2%);
// the table check and the table file the same from any number of ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "../support/shared_temp_file.hpp"
#include "wormnet/tables/table_check.hpp"
#include "wormnet/tables/table_file.hpp"
#include "wormnet/tables/table_generator.hpp"

namespace wormnet::tables {
namespace {

const std::vector<std::vector<int>> kBatch{{4, 4, 2}, {6, 4, 3}, {8, 8}, {4, 2, 5, 3}, {6, 6, 2}};

GeneratedTable make(const Torus& t, TableAlgorithm a, const Communicator& comm) {
  GeneratorOptions o;
  o.algorithm = a;
  o.seed = 3;
  o.genetic.max_generations = 15;
  return generate_table(t, o, comm);
}

bool same(const RouteTable& a, const RouteTable& b) {
  return std::equal(a.words().begin(), a.words().end(), b.words().begin(), b.words().end());
}

TEST(TablesMpi, SameRankCountSameTableOnEveryRank) {
  const Communicator w = Communicator::world();
  for (TableAlgorithm a : {TableAlgorithm::kBfs, TableAlgorithm::kGenetic, TableAlgorithm::kSssp}) {
    const Torus t({4, 4, 2}, true);
    const GeneratedTable one = make(t, a, w);
    const GeneratedTable two = make(t, a, w);
    EXPECT_TRUE(same(*one.table, *two.table)) << enum_name(a);
    // Every rank holds the whole table: rank 0's copy reaches everyone and must match.
    std::vector<std::uint8_t> bytes(one.table->words().size() * sizeof(RouteWord));
    std::memcpy(bytes.data(), one.table->words().data(), bytes.size());
    w.broadcast(bytes, 0);
    EXPECT_EQ(std::memcmp(bytes.data(), one.table->words().data(), bytes.size()), 0)
        << enum_name(a);
    const TableReport r = check_table(*one.table, one.turns, w);
    EXPECT_TRUE(r.verdict.ok()) << enum_name(a) << ": " << r.verdict.defect;
  }
}

TEST(TablesMpi, GeneticDoesNotDependOnTheRankCount) {
  const Communicator w = Communicator::world();
  for (const auto& sizes : std::vector<std::vector<int>>{{4, 4, 2}, {3, 2, 2, 2}}) {
    const Torus t(sizes, true);
    const GeneratedTable parallel = make(t, TableAlgorithm::kGenetic, w);
    const GeneratedTable alone = make(t, TableAlgorithm::kGenetic, Communicator::self());
    EXPECT_TRUE(same(*parallel.table, *alone.table)) << t.spec();
    EXPECT_EQ(parallel.stats.generations, alone.stats.generations);
    EXPECT_DOUBLE_EQ(parallel.stats.final_sigma4, alone.stats.final_sigma4);
  }
}

TEST(TablesMpi, BfsAndSsspStayWithinTwoPercentOfOneRank) {
  const Communicator w = Communicator::world();
  for (TableAlgorithm a : {TableAlgorithm::kBfs, TableAlgorithm::kSssp}) {
    double parallel_pi = 0;
    double alone_pi = 0;
    for (const auto& sizes : kBatch) {
      const Torus t(sizes, true);
      const GeneratedTable p = make(t, a, w);
      const GeneratedTable s = make(t, a, Communicator::self());
      parallel_pi += check_table(*p.table, p.turns, w).metrics.pi;
      alone_pi += check_table(*s.table, s.turns, Communicator::self()).metrics.pi;
    }
    EXPECT_LE(parallel_pi, 1.02 * alone_pi) << enum_name(a) << " at " << w.size() << " ranks";
    if (w.size() == 1) {
      EXPECT_EQ(parallel_pi, alone_pi);
    }
  }
}

TEST(TablesMpi, CheckAndFileDoNotDependOnTheRankCount) {
  const Communicator w = Communicator::world();
  const Torus t({3, 4, 2, 2}, true);
  const GeneratedTable g = make(t, TableAlgorithm::kSssp, Communicator::self());
  const TableReport here = check_table(*g.table, g.turns, w);
  const TableReport alone = check_table(*g.table, g.turns, Communicator::self());
  EXPECT_EQ(here.loads, alone.loads);
  EXPECT_EQ(here.verdict.cdg_edges, alone.verdict.cdg_edges);
  EXPECT_EQ(here.metrics.max_route_length, alone.metrics.max_route_length);
  EXPECT_DOUBLE_EQ(here.metrics.sigma4, alone.metrics.sigma4);

  test::SharedTempFile file(w, "tables");
  TableFileContents c;
  c.table = g.table.get();
  c.turns = &g.turns;
  c.stats = &g.stats;
  c.report = &here;
  write_table_file(file.path(), "-o", c, w);
  const LoadedTable l = load_table_file(file.path(), "--tables", t, w);
  EXPECT_TRUE(same(*l.table, *g.table));
  EXPECT_EQ(l.turns, g.turns);
  EXPECT_EQ(l.report.loads, alone.loads);
}

// Around faults (a failed link and a failed node on torus:4x4x3): every rank holds the same
// table, the genetic one is the one-rank one, the check (stretch, unroutable pairs and their
// examples included) and the table file are the same from any number of ranks.
TEST(TablesMpi, AroundFaultsTheSameFromAnyNumberOfRanks) {
  const Communicator w = Communicator::world();
  const Torus t({4, 4, 3}, true);
  FaultSet faults(t);
  faults.fail_link(t.channel(NodeId(5), 0));  // (1,1,0) X+
  faults.fail_node(NodeId(26));               // (2,2,1)
  for (TableAlgorithm a : {TableAlgorithm::kBfs, TableAlgorithm::kGenetic, TableAlgorithm::kSssp}) {
    GeneratorOptions o;
    o.algorithm = a;
    o.seed = 3;
    o.genetic.max_generations = 15;
    const GeneratedTable g = generate_table(t, o, w, &faults);
    std::vector<std::uint8_t> bytes(g.table->words().size() * sizeof(RouteWord));
    std::memcpy(bytes.data(), g.table->words().data(), bytes.size());
    w.broadcast(bytes, 0);
    EXPECT_EQ(std::memcmp(bytes.data(), g.table->words().data(), bytes.size()), 0) << enum_name(a);
    if (a == TableAlgorithm::kGenetic) {
      const GeneratedTable alone = generate_table(t, o, Communicator::self(), &faults);
      EXPECT_TRUE(same(*g.table, *alone.table));
    }
    const TableReport here = check_table(*g.table, g.turns, w, &faults);
    const TableReport alone = check_table(*g.table, g.turns, Communicator::self(), &faults);
    EXPECT_TRUE(here.verdict.ok()) << enum_name(a) << ": " << here.verdict.defect;
    EXPECT_EQ(here.loads, alone.loads);
    EXPECT_EQ(here.verdict.unroutable, alone.verdict.unroutable);
    EXPECT_EQ(here.verdict.unroutable_examples, alone.verdict.unroutable_examples);
    EXPECT_EQ(here.metrics.pairs, alone.metrics.pairs);
    EXPECT_EQ(here.metrics.mean_stretch, alone.metrics.mean_stretch);  // the same bits
    EXPECT_EQ(here.metrics.max_stretch, alone.metrics.max_stretch);
    EXPECT_EQ(here.metrics.sigma4, alone.metrics.sigma4);
    EXPECT_GT(here.metrics.mean_stretch, 1.0);

    test::SharedTempFile file(w, "tables");
    TableFileContents c;
    c.table = g.table.get();
    c.turns = &g.turns;
    c.stats = &g.stats;
    c.report = &here;
    c.faults = &faults;
    c.fault_config.file = "f.txt";
    write_table_file(file.path(), "-o", c, w);
    const LoadedTable l = load_table_file(file.path(), "--tables", t, w, faults);
    EXPECT_TRUE(same(*l.table, *g.table));
    EXPECT_EQ(l.report.loads, alone.loads);
    EXPECT_EQ(l.report.metrics.mean_stretch, alone.metrics.mean_stretch);
  }
}

}  // namespace
}  // namespace wormnet::tables
