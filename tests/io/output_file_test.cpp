// The life of an output file (output_file.hpp): the lock a second writer runs into, a lock
// left by a dead process taken over, the partial sibling renamed over the target only by
// commit(), the refusals of targets that cannot be written that way, and guarded writes that
// turn a failure of the file system into one OutputError. Run as a one-rank MPI singleton.
#include "wormnet/io/output_file.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "wormnet/core/error.hpp"
#include "wormnet/io/h5_error.hpp"

namespace wormnet::io {
namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string host() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

/// A process id that is certainly not running: a child that has exited and been reaped.
pid_t dead_pid() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  return child;
}

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "wormnet-output-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  [[nodiscard]] std::string in_dir(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(in_dir(name)) << text;
  }
  /// The InputError of claiming `target` (the test fails when there is none).
  InputError refusal(const std::string& target) {
    try {
      static_cast<void>(OutputFile::claim(comm_, target, "--output"));
    } catch (const InputError& e) {
      EXPECT_EQ(e.option(), "--output");
      return e;
    }
    ADD_FAILURE() << target << ": claimed";
    return InputError("", "", "");
  }

  Communicator comm_ = Communicator::world();
  fs::path dir_;
};

TEST_F(OutputFileTest, LockHoldsTheWritersPidAndHostUntilReleased) {
  const std::string target = in_dir("r.h5");
  OutputFile out = OutputFile::claim(comm_, target, "--output");
  EXPECT_EQ(out.target(), target);
  EXPECT_EQ(out.partial(), target + ".partial");
  const std::string lock = read_text(target + ".lock");
  EXPECT_EQ(lock.rfind("wormnet " + std::to_string(getpid()) + " " + host() + " ", 0), 0U) << lock;
  out.release();
  EXPECT_FALSE(fs::exists(target + ".lock"));
  out.release();  // idempotent
}

TEST_F(OutputFileTest, SecondWriterIsRefusedNamingTheHolder) {
  const std::string target = in_dir("r.h5");
  const OutputFile first = OutputFile::claim(comm_, target, "--output");
  const InputError e = refusal(target);
  EXPECT_NE(e.allowed().find("another run is writing it"), std::string::npos) << e.what();
  EXPECT_NE(e.allowed().find("process " + std::to_string(getpid())), std::string::npos);
  EXPECT_NE(e.allowed().find(host()), std::string::npos);
  EXPECT_TRUE(fs::exists(target + ".lock"));  // the refused claim leaves the holder's lock
}

TEST_F(OutputFileTest, LockOfADeadProcessOnThisHostIsTakenOver) {
  const std::string target = in_dir("r.h5");
  const pid_t dead = dead_pid();
  write("r.h5.lock", "wormnet " + std::to_string(dead) + " " + host() + " - 1\n");
  const OutputFile out = OutputFile::claim(comm_, target, "--output");
  EXPECT_EQ(read_text(target + ".lock").rfind("wormnet " + std::to_string(getpid()) + " ", 0), 0U);
}

TEST_F(OutputFileTest, LockOfAnotherHostOrOfUnknownFormIsNotTakenOver) {
  const std::string target = in_dir("r.h5");
  // A process on another host may be alive: wormnet cannot tell, and refuses.
  write("r.h5.lock", "wormnet " + std::to_string(dead_pid()) + " elsewhere.example 4242 1\n");
  InputError e = refusal(target);
  EXPECT_NE(e.allowed().find("on elsewhere.example (job 4242)"), std::string::npos) << e.what();
  EXPECT_NE(e.allowed().find("remove the lock file"), std::string::npos);
  write("r.h5.lock", "garbage");
  e = refusal(target);
  EXPECT_NE(e.allowed().find("cannot read"), std::string::npos) << e.what();
  EXPECT_EQ(read_text(target + ".lock"), "garbage");
}

TEST_F(OutputFileTest, TargetIsReplacedOnlyByCommit) {
  const std::string target = in_dir("r.h5");
  write("r.h5", "earlier");
  OutputFile out = OutputFile::claim(comm_, target, "--output");
  write("r.h5.partial", "new");
  EXPECT_TRUE(out.partial_exists(comm_));
  EXPECT_EQ(read_text(target), "earlier");
  out.commit(comm_);
  EXPECT_EQ(read_text(target), "new");
  EXPECT_FALSE(fs::exists(target + ".partial"));
  // A restart takes the target back to the partial name, and discard_partial() removes it.
  out.reclaim_target(comm_);
  EXPECT_FALSE(fs::exists(target));
  EXPECT_EQ(read_text(target + ".partial"), "new");
  out.discard_partial(comm_);
  EXPECT_FALSE(out.partial_exists(comm_));
}

TEST_F(OutputFileTest, TargetsThatCannotBeWrittenThisWay) {
  fs::create_directory(in_dir("sub"));
  EXPECT_NE(refusal(in_dir("sub")).allowed().find("is a directory"), std::string::npos);
  EXPECT_NE(refusal("/dev/null").allowed().find("not a regular file"), std::string::npos);
  EXPECT_NE(refusal(in_dir("no/dir/r.h5")).allowed().find("does not exist"), std::string::npos);
  fs::create_symlink("nowhere/r.h5", in_dir("dangling.h5"));
  EXPECT_NE(refusal(in_dir("dangling.h5")).allowed().find("symbolic link to nothing"),
            std::string::npos);
  fs::create_directory(in_dir("p.h5.partial"));
  EXPECT_NE(refusal(in_dir("p.h5")).allowed().find("in the way"), std::string::npos);
  // 300 characters: longer than a name may be (255 on common file systems).
  const InputError e = refusal(in_dir(std::string(300, 'a') + ".h5"));
  EXPECT_NE(e.allowed().find("a name of 303 characters"), std::string::npos) << e.what();
  EXPECT_FALSE(fs::exists(in_dir("sub.lock")));
}

TEST_F(OutputFileTest, SymbolicLinkStandsForItsFile) {
  write("real.h5", "earlier");
  fs::create_symlink(in_dir("real.h5"), in_dir("link.h5"));
  OutputFile out = OutputFile::claim(comm_, in_dir("link.h5"), "--output");
  EXPECT_EQ(out.target(), fs::canonical(in_dir("real.h5")).string());
  write("real.h5.partial", "new");
  out.commit(comm_);
  EXPECT_TRUE(fs::is_symlink(in_dir("link.h5")));
  EXPECT_EQ(read_text(in_dir("link.h5")), "new");
}

TEST_F(OutputFileTest, GuardedWriteTurnsFileSystemFailuresIntoOutputErrors) {
  const std::string path = in_dir("r.h5.partial");
  try {
    guarded_write(comm_, path,
                  [] { throw H5Error("r.h5.partial: cannot flush", "No space left on device"); });
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_EQ(e.reason(), "No space left on device");
    EXPECT_EQ(std::string(e.what()), "cannot write '" + path + "': No space left on device");
  }
  // Without the system's reason: what the file system says about the directory.
  try {
    guarded_write(comm_, path, [] { throw H5Error("cannot write"); });
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_FALSE(e.reason().empty());
  }
  // Other errors pass through untouched; a write that works is silent.
  EXPECT_THROW(guarded_write(comm_, path, [] { throw InputError("--x", "1", "no"); }), InputError);
  bool ran = false;
  guarded_write(comm_, path, [&] { ran = true; });
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace wormnet::io
