// The h5 layer in a process without MPI (Communicator::self() is then a serial stand-in):
// files go through HDF5's POSIX driver and behave as under MPI-IO with one rank.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/run_status.hpp"
#include "wormnet/h5/time_series_table.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::io {
namespace {

TEST(H5Serial, WritesAndReadsWithoutMpi) {
  ASSERT_FALSE(MpiSession::active());
  std::string path = (std::filesystem::temp_directory_path() / "wormnet-serial-XXXXXX.h5").string();
  const int fd = mkstemps(path.data(), 3);
  ASSERT_GE(fd, 0);
  close(fd);
  const Communicator self = Communicator::self();
  {
    H5File file = H5File::create(self, path, "-o");
    set_run_status(file, RunStatus::kRunning);
    // Rows 5..9 then 0..4 of a 10-row array: value 7i.
    const RowDistribution rows(10, {{5, 5}, {0, 5}});
    const std::vector<std::int64_t> local{35, 42, 49, 56, 63, 0, 7, 14, 21, 28};
    file.root().write_distributed<std::int64_t>("a", rows, local);
    TimeSeriesTable t =
        TimeSeriesTable::create(file.root(), "ts", {{"x", ElementType::kFloat64, "", ""}}, 2);
    for (int r = 0; r < 5; ++r) t.append({TimeSeriesTable::Cell{0.5 * r}});
    set_run_status(file, RunStatus::kComplete);
    file.close();
  }
  const H5File file = H5File::open_read_only(self, path, "-i");
  EXPECT_EQ(run_status(file), RunStatus::kComplete);
  EXPECT_EQ(file.root().open_dataset("a").read<std::int64_t>(),
            (std::vector<std::int64_t>{0, 7, 14, 21, 28, 35, 42, 49, 56, 63}));
  EXPECT_EQ(TimeSeriesTable::open(file.root(), "ts").column("x").read<double>(),
            (std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0}));
  std::filesystem::remove(path);
}

TEST(RunStatusWords, EachStatusIsOneWordThatReadsBack) {
  // The words job scripts compare against (README, docs/hdf5-schema.md), written out here.
  const std::pair<RunStatus, const char*> words[] = {
      {RunStatus::kRunning, "running"},   {RunStatus::kComplete, "complete"},
      {RunStatus::kDeadlock, "deadlock"}, {RunStatus::kInterrupted, "interrupted"},
      {RunStatus::kFailed, "failed"},     {RunStatus::kIncomplete, "incomplete"}};
  for (const auto& [status, word] : words) {
    EXPECT_STREQ(enum_name(status), word);
    EXPECT_EQ(enum_value<RunStatus>(word), status);
  }
  // One row per status, no word twice.
  EXPECT_EQ(enum_names(RunStatus{}).size(), std::size(words));
  std::set<std::string> seen;
  for (const EnumName<RunStatus>& row : enum_names(RunStatus{})) {
    EXPECT_TRUE(seen.insert(row.name).second) << row.name;
    EXPECT_FALSE(std::string(row.help).empty()) << row.name;
  }
  EXPECT_EQ(enum_value<RunStatus>("unfinished"), std::nullopt);
  EXPECT_EQ(enum_value<RunStatus>("Complete"), std::nullopt);
}

TEST(H5Serial, AnIncompleteStatusIsStoredInBothStorages) {
  std::string path = (std::filesystem::temp_directory_path() / "wormnet-status-XXXXXX.h5").string();
  const int fd = mkstemps(path.data(), 3);
  ASSERT_GE(fd, 0);
  close(fd);
  const Communicator self = Communicator::self();
  for (const StringStorage storage : {StringStorage::kVariable, StringStorage::kFixed}) {
    {
      H5File file = H5File::create(self, path, "-o");
      set_run_status(file, RunStatus::kRunning, storage);
      set_run_status(file, RunStatus::kIncomplete, storage);
      file.close();
    }
    const H5File file = H5File::open_read_only(self, path, "-i");
    EXPECT_EQ(run_status(file, storage), RunStatus::kIncomplete);
  }
  std::filesystem::remove(path);
}

TEST(H5Serial, BadPathIsAnInputError) {
  EXPECT_THROW(static_cast<void>(
                   H5File::open_read_only(Communicator::self(), "/no/such/wormnet.h5", "--table")),
               InputError);
}

}  // namespace
}  // namespace wormnet::io
