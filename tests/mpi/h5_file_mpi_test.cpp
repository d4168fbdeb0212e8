// Files and groups at any rank count: create / reopen / close with objects still open,
// nested groups, and the status convention.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/shared_temp_file.hpp"
#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/h5_schema.hpp"
#include "wormnet/h5/run_status.hpp"

namespace wormnet::io {
namespace {

TEST(H5FileMpi, ReopenForWritingKeepsAndExtendsTheContent) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "reopen");
  {
    H5File file = H5File::create(w, tmp.path(), "-o");
    EXPECT_FALSE(file.read_only());
    EXPECT_EQ(file.path(), tmp.path());
    file.root().set_attribute("first", std::int64_t{1});
    file.close();
    EXPECT_FALSE(file.is_open());
    file.close();  // closing twice is harmless
  }
  {
    H5File file = H5File::open_read_write(w, tmp.path(), "--restart");
    EXPECT_EQ(file.root().attribute<std::int64_t>("first"), 1);
    file.root().set_attribute("second", std::int64_t{2});
  }  // closed by the destructor
  H5File file = H5File::open_read_only(w, tmp.path(), "-i");
  EXPECT_EQ(file.root().attribute<std::int64_t>("second"), 2);
  file.flush();  // a no-op on a read-only file
}

TEST(H5FileMpi, CloseAlsoClosesObjectsStillHeld) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "held");
  H5File file = H5File::create(w, tmp.path(), "-o");
  const H5Group root = file.root();
  const H5Group g = root.create_group("a/b");
  const H5DataSet ds = g.write_dataset<double>("x", std::vector<double>{1, 2});
  const H5DataSet copy = ds;  // a second reference to the same dataset
  file.close();
  EXPECT_FALSE(file.is_open());
  // The objects are gone with the file; using them is an error, not a crash.
  EXPECT_THROW(static_cast<void>(ds.read<double>()), H5Error);
  EXPECT_THROW(static_cast<void>(copy.read<double>()), H5Error);
  // And the file on disk is complete.
  H5File again = H5File::open_read_only(w, tmp.path(), "-i");
  EXPECT_EQ(again.root().open_dataset("a/b/x").read<double>(), (std::vector<double>{1, 2}));
}

TEST(H5FileMpi, NestedGroups) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "groups");
  H5File file = H5File::create(w, tmp.path(), "-o");
  const H5Group root = file.root();
  EXPECT_EQ(root.path(), "/");
  const H5Group c = root.create_group("sweep/point_000/channels");
  EXPECT_EQ(c.path(), "/sweep/point_000/channels");
  EXPECT_TRUE(root.exists("sweep"));
  EXPECT_TRUE(root.has_group("sweep/point_000"));
  EXPECT_FALSE(root.exists("sweep/point_001/channels"));  // a missing group on the way
  EXPECT_FALSE(root.exists("nothing/at/all"));
  EXPECT_FALSE(root.exists(""));
  EXPECT_THROW(static_cast<void>(root.create_group("sweep/point_000")), H5Error);
  EXPECT_THROW(static_cast<void>(root.open_group("sweep/point_001")), H5Error);
  const H5Group again = root.require_group("sweep/point_000");
  EXPECT_EQ(again.path(), "/sweep/point_000");
  static_cast<void>(root.require_group("sweep/point_001"));
  const H5Group sweep = root.open_group("sweep");
  sweep.write_dataset<std::int64_t>("loads", std::vector<std::int64_t>{5, 10});
  EXPECT_TRUE(sweep.has_dataset("loads"));
  EXPECT_FALSE(sweep.has_group("loads"));
  EXPECT_FALSE(sweep.has_dataset("point_000"));
  EXPECT_EQ(sweep.member_names(), (std::vector<std::string>{"loads", "point_000", "point_001"}));
  EXPECT_EQ(sweep.file_name(), tmp.path());
}

TEST(H5FileMpi, StatusConvention) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "status");
  H5File file = H5File::create(w, tmp.path(), "-o");
  EXPECT_THROW(static_cast<void>(run_status(file)), H5Error);  // not set yet
  set_run_status(file, RunStatus::kRunning);
  EXPECT_EQ(run_status(file), RunStatus::kRunning);
  EXPECT_EQ(file.root().attribute<std::string>(std::string(schema::kStatusAttr)), "running");
  set_run_status(file, RunStatus::kDeadlock);
  EXPECT_EQ(run_status(file), RunStatus::kDeadlock);
  file.root().set_attribute(schema::kStatusAttr, "half-done");
  EXPECT_THROW(static_cast<void>(run_status(file)), H5Error);
  set_run_status(file, RunStatus::kComplete);
  file.close();
  const H5File done = H5File::open_read_only(w, tmp.path(), "-i");
  EXPECT_EQ(run_status(done), RunStatus::kComplete);
}

TEST(RunStatusNames, RoundTripAndRejectOthers) {
  for (const RunStatus s : {RunStatus::kRunning, RunStatus::kComplete, RunStatus::kDeadlock,
                            RunStatus::kInterrupted, RunStatus::kFailed}) {
    EXPECT_EQ(enum_value<RunStatus>(enum_name(s)), s);
  }
  EXPECT_STREQ(enum_name(RunStatus::kInterrupted), "interrupted");
  EXPECT_FALSE(enum_value<RunStatus>("Complete").has_value());
  EXPECT_FALSE(enum_value<RunStatus>("").has_value());
}

}  // namespace
}  // namespace wormnet::io
