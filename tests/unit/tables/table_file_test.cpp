// Table files in a process without MPI (HDF5's POSIX driver): a round trip, and every kind of
// bad file a user can hand to --tables, each an InputError naming the option and the file.
#include "wormnet/tables/table_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../../support/shared_temp_file.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/file_seal.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/run_status.hpp"

namespace wormnet::tables {
namespace {

struct Written {
  GeneratedTable g;
  TableReport report;
};

Written write(const Torus& t, const std::string& path, TableAlgorithm a = TableAlgorithm::kSssp) {
  GeneratorOptions o;
  o.algorithm = a;
  o.genetic.max_generations = 20;
  Written w{generate_table(t, o, Communicator::self()), {}};
  w.report = check_table(*w.g.table, w.g.turns, Communicator::self());
  TableFileContents c;
  c.table = w.g.table.get();
  c.turns = &w.g.turns;
  c.stats = &w.g.stats;
  c.report = &w.report;
  c.options = o;
  c.version = "test";
  c.git_sha = "test";
  write_table_file(path, "-o", c, Communicator::self());
  return w;
}

/// Writes `table` (possibly broken) as a table file, with the given turns.
void write_raw(const RouteTable& table, const TurnSet& turns, const std::string& path) {
  GenerationStats st;
  TableReport r;
  r.loads.assign(table.topology().num_channels(), 0);
  TableFileContents c;
  c.table = &table;
  c.turns = &turns;
  c.stats = &st;
  c.report = &r;
  write_table_file(path, "-o", c, Communicator::self());
}

/// The InputError message of loading `path` for `t`, or "" when it loads.
std::string load_error(const std::string& path, const Torus& t) {
  try {
    load_table_file(path, "--tables", t, Communicator::self());
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), "--tables");
    EXPECT_EQ(e.value(), path);
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    return what;
  }
  return "";
}

NodeId at(const Torus& t, std::initializer_list<int> c) {
  Coord x;
  x.n = t.num_dims();
  int i = 0;
  for (int v : c) x[i++] = v;
  return t.node_at(x);
}

TEST(TableFile, RoundTrip) {
  const test::SharedTempFile file(Communicator::self(), "table");
  const Torus t({4, 4, 2}, true);
  const Written w = write(t, file.path(), TableAlgorithm::kGenetic);
  const LoadedTable l = load_table_file(file.path(), "--tables", t, Communicator::self());
  EXPECT_TRUE(
      std::equal(l.table->words().begin(), l.table->words().end(), w.g.table->words().begin()));
  EXPECT_EQ(l.turns, w.g.turns);
  EXPECT_EQ(l.algorithm, "genetic");
  EXPECT_EQ(l.report.metrics.pi, w.report.metrics.pi);
  EXPECT_EQ(l.report.loads, w.report.loads);
  EXPECT_TRUE(l.report.verdict.ok());
}

TEST(TableFile, AnotherTopologyIsRefused) {
  const test::SharedTempFile file(Communicator::self(), "table");
  write(Torus({4, 4, 4}, true), file.path());
  const std::string e = load_error(file.path(), Torus({4, 4, 2}, true));
  EXPECT_NE(e.find("made for torus:4x4x4, not for torus:4x4x2"), std::string::npos) << e;
}

TEST(TableFile, MissingPairIsRefused) {
  const test::SharedTempFile file(Communicator::self(), "table");
  const Torus t({4, 4, 2}, true);
  const Written w = write(t, file.path());
  RouteTable broken = *w.g.table;
  broken.set(at(t, {1, 2, 0}), at(t, {3, 0, 1}), kNoRoute);
  write_raw(broken, w.g.turns, file.path());
  const std::string e = load_error(file.path(), t);
  EXPECT_NE(e.find("route (1,2,0) -> (3,0,1): missing"), std::string::npos) << e;
}

// From (0,0,0) to (0,0,1) the size-2 Z dimension has only its + link there: a route word
// that sends the direction-order part - in Z steps off the network.
TEST(TableFile, RouteLeavingTheNetworkIsRefused) {
  const test::SharedTempFile file(Communicator::self(), "table");
  const Torus t({4, 4, 2}, true);
  const Written w = write(t, file.path());
  RouteTable broken = *w.g.table;
  AngaraRoute r;
  r.minus_dims = 4;  // - in Z
  broken.set(at(t, {0, 0, 0}), at(t, {0, 0, 1}), r.encode());
  write_raw(broken, w.g.turns, file.path());
  const std::string e = load_error(file.path(), t);
  EXPECT_NE(e.find("route (0,0,0) -> (0,0,1): direction-order part leaves the network"),
            std::string::npos)
      << e;
}

// (0,0,0) -> (1,0,0) going - round the X ring of 4 takes 3 hops instead of 1.
TEST(TableFile, NonMinimalRouteIsRefused) {
  const test::SharedTempFile file(Communicator::self(), "table");
  const Torus t({4, 4, 2}, true);
  const Written w = write(t, file.path());
  RouteTable broken = *w.g.table;
  AngaraRoute r;
  r.minus_dims = 1;  // - in X
  broken.set(at(t, {0, 0, 0}), at(t, {1, 0, 0}), r.encode());
  write_raw(broken, w.g.turns, file.path());
  const std::string e = load_error(file.path(), t);
  EXPECT_NE(e.find("route (0,0,0) -> (1,0,0): not minimal"), std::string::npos) << e;
}

// An FS step +Y then +X where the augmentation added no such turn breaks the Angara rules
// (torus:4x4 has only rings: no turn is ever added).
TEST(TableFile, TurnNotAllowedIsRefused) {
  const test::SharedTempFile file(Communicator::self(), "table");
  const Torus t({4, 4}, true);
  const Written w = write(t, file.path());
  RouteTable broken = *w.g.table;
  AngaraRoute r;
  r.first_step_dim = 1;
  broken.set(at(t, {0, 0}), at(t, {1, 1}), r.encode());
  write_raw(broken, w.g.turns, file.path());
  const std::string e = load_error(file.path(), t);
  EXPECT_NE(e.find("route (0,0) -> (1,1): its first step turns against the direction order"),
            std::string::npos)
      << e;
}

/// Rewrites the routes dataset of the table file at `path` as `words` of `shape` (sealed
/// again, so that the loader's own checks see it): a table made by another tool.
void replace_routes(const std::string& path, const std::vector<std::uint32_t>& words,
                    const io::Shape& shape) {
  io::H5File f = io::H5File::open_read_write(Communicator::self(), path, "--tables");
  f.root().remove(table_schema::kRoutes);
  f.root().write_dataset<std::uint32_t>(table_schema::kRoutes, words, shape);
  f.close();
  ASSERT_EQ(io::seal_file(path), "");
}

// A table holds one route word per ordered pair, at (source, destination): the only way a
// file can list a pair twice is an extra row (a source repeated) or column. Such a file is
// refused in one line naming the shape found and the one required, before any route is read
// (a duplicated entry would otherwise shift every later pair onto the wrong route).
TEST(TableFile, DuplicateEntriesAreRefused) {
  const test::SharedTempFile file(Communicator::self(), "table");
  const Torus t({4, 4, 2}, true);
  const Written w = write(t, file.path());
  const std::uint32_t n = t.num_nodes();
  const auto words = w.g.table->words();
  // Source 5's row twice (after itself): 33 rows of 32.
  std::vector<std::uint32_t> rows(words.begin(), words.begin() + 6 * n);
  rows.insert(rows.end(), words.begin() + 5 * n, words.begin() + 6 * n);
  rows.insert(rows.end(), words.begin() + 6 * n, words.end());
  replace_routes(file.path(), rows, {n + 1, n});
  std::string e = load_error(file.path(), t);
  EXPECT_NE(e.find("(33, 32)"), std::string::npos) << e;
  EXPECT_NE(e.find("it must be (32, 32)"), std::string::npos) << e;
  EXPECT_NE(e.find("one route word per (source, destination) pair"), std::string::npos) << e;
  // Destination 0's column twice in every row: 32 rows of 33.
  std::vector<std::uint32_t> columns;
  for (std::uint32_t s = 0; s < n; ++s) {
    columns.push_back(words[s * n]);
    columns.insert(columns.end(), words.begin() + s * n, words.begin() + (s + 1) * n);
  }
  replace_routes(file.path(), columns, {n, n + 1});
  e = load_error(file.path(), t);
  EXPECT_NE(e.find("(32, 33)"), std::string::npos) << e;
  // The same words as one list of N^2 + N entries.
  replace_routes(file.path(), rows, {std::uint64_t{n} * (n + 1)});
  e = load_error(file.path(), t);
  EXPECT_NE(e.find("(1056)"), std::string::npos) << e;
}

TEST(TableFile, TruncatedFileIsRefused) {
  const test::SharedTempFile file(Communicator::self(), "table");
  const Torus t({4, 4, 2}, true);
  write(t, file.path());
  const auto size = std::filesystem::file_size(file.path());
  std::filesystem::resize_file(file.path(), size / 2);
  EXPECT_NE(load_error(file.path(), t), "");
}

TEST(TableFile, OtherHdf5FileIsRefused) {
  const test::SharedTempFile file(Communicator::self(), "table");
  {
    io::H5File f = io::H5File::create(Communicator::self(), file.path(), "-o");
    io::set_run_status(f, io::RunStatus::kComplete);
    f.close();
  }
  const std::string e = load_error(file.path(), Torus({4, 4, 2}, true));
  EXPECT_NE(e.find("not a routing-table file"), std::string::npos) << e;
}

TEST(TableFile, MissingFileIsRefused) {
  EXPECT_NE(load_error("/nonexistent/dir/t.h5", Torus({4, 4, 2}, true)), "");
}

}  // namespace
}  // namespace wormnet::tables
