// The life of an output file (output_file.hpp): the lock a second writer runs into, a lock
// left by a dead process taken over, the partial sibling renamed over the target only by
// commit(), the refusals of targets that cannot be written that way, and guarded writes that
// turn a failure of the file system into one OutputError. Run as a one-rank MPI singleton.
#include "wormnet/h5/output_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_error.hpp"

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

/// This boot of the kernel (/proc/sys/kernel/random/boot_id) and this process's pid
/// namespace (the inode of /proc/self/ns/pid), as a lock line records them.
std::string boot_id() {
  std::string id = read_text("/proc/sys/kernel/random/boot_id");
  while (!id.empty() && id.back() == '\n') id.pop_back();
  return id;
}
std::string pid_namespace() {
  std::error_code ec;
  const std::string link = fs::read_symlink("/proc/self/ns/pid", ec).string();  // pid:[N]
  const std::size_t open = link.find('[');
  return open == std::string::npos ? "-" : link.substr(open + 1, link.size() - open - 2);
}

/// A lock line as wormnet writes it: process, host, job, since, boot, pid namespace.
std::string lock_line(long pid, const std::string& host_name, const std::string& boot,
                      const std::string& ns) {
  return "wormnet " + std::to_string(pid) + " " + host_name + " - 1 " + boot + " " + ns + "\n";
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
  write("r.h5.lock", lock_line(dead, host(), boot_id(), pid_namespace()));
  const OutputFile out = OutputFile::claim(comm_, target, "--output");
  const std::string mine = read_text(target + ".lock");
  EXPECT_EQ(mine.rfind("wormnet " + std::to_string(getpid()) + " " + host() + " - ", 0), 0U);
  // It records this boot and this pid namespace, by which a later run judges it.
  EXPECT_NE(mine.find(" " + boot_id() + " " + pid_namespace() + "\n"), std::string::npos) << mine;
}

TEST_F(OutputFileTest, LockFromAnotherBootOrPidNamespaceIsNotTakenOver) {
  // Same host name, no such process here, but written under another kernel (a container of
  // the same name on another machine) or in another pid namespace (a container beside this
  // one): that process may be alive, wormnet cannot tell, and refuses saying how to go on.
  const std::string target = in_dir("r.h5");
  const pid_t dead = dead_pid();
  for (const std::string& line :
       {lock_line(dead, host(), "00000000-0000-0000-0000-000000000000", pid_namespace()),
        lock_line(dead, host(), boot_id(), "1"),
        // the form of earlier versions, without boot and namespace: not provably dead
        "wormnet " + std::to_string(dead) + " " + host() + " - 1\n"}) {
    write("r.h5.lock", line);
    const InputError e = refusal(target);
    EXPECT_NE(e.allowed().find("process " + std::to_string(dead)), std::string::npos) << e.what();
    EXPECT_NE(e.allowed().find("remove '" + target + ".lock'"), std::string::npos) << e.what();
    EXPECT_EQ(read_text(target + ".lock"), line);
  }
}

TEST_F(OutputFileTest, ConcurrentTakeoversOfADeadHoldersLockLeaveExactlyOneHolder) {
  // Processes that all find the same dead holder's lock and take it over at once: exactly one
  // of them may end up holding it (a takeover that removed another's fresh lock once let two
  // runs write one file). Each child answers, then holds on until every child has answered.
  const std::string target = in_dir("race.h5");
  constexpr int kRounds = 60;
  constexpr int kRacers = 6;
  for (int round = 0; round < kRounds; ++round) {
    std::error_code ec;
    fs::remove(target + ".lock", ec);
    write("race.h5.lock", lock_line(dead_pid(), host(), boot_id(), pid_namespace()));
    int go[2];
    int done[2];
    int answers[2];
    ASSERT_EQ(pipe(go), 0);
    ASSERT_EQ(pipe(done), 0);
    ASSERT_EQ(pipe(answers), 0);
    std::vector<pid_t> children;
    for (int k = 0; k < kRacers; ++k) {
      const pid_t child = fork();
      ASSERT_GE(child, 0);
      if (child == 0) {
        close(go[1]);
        close(done[1]);
        close(answers[0]);
        char c = 0;
        static_cast<void>(read(go[0], &c, 1));  // returns when the parent closes its end
        char held = '0';
        try {
          OutputLock lock = OutputLock::acquire(Communicator::self(), target, "--output");
          held = lock.held() ? '1' : '0';
          static_cast<void>(::write(answers[1], &held, 1));
          static_cast<void>(read(done[0], &c, 1));
          _exit(0);  // without releasing: the next round starts from a dead holder's lock
        } catch (const InputError&) {
          static_cast<void>(::write(answers[1], &held, 1));
        }
        static_cast<void>(read(done[0], &c, 1));
        _exit(0);
      }
      children.push_back(child);
    }
    close(go[0]);
    close(done[0]);
    close(answers[1]);
    close(go[1]);  // every child starts now
    int holders = 0;
    for (int k = 0; k < kRacers; ++k) {
      char c = 0;
      ASSERT_EQ(read(answers[0], &c, 1), 1);
      holders += c == '1' ? 1 : 0;
    }
    close(done[1]);
    close(answers[0]);
    for (const pid_t child : children) {
      int status = 0;
      waitpid(child, &status, 0);
    }
    ASSERT_EQ(holders, 1) << "round " << round;
  }
}

TEST_F(OutputFileTest, LockOfAnotherHostOrOfUnknownFormIsNotTakenOver) {
  const std::string target = in_dir("r.h5");
  // A process on another host may be alive: wormnet cannot tell, and refuses.
  write("r.h5.lock", "wormnet " + std::to_string(dead_pid()) + " elsewhere.example 4242 1 " +
                         boot_id() + " " + pid_namespace() + "\n");
  InputError e = refusal(target);
  EXPECT_NE(e.allowed().find("on elsewhere.example (job 4242)"), std::string::npos) << e.what();
  EXPECT_NE(e.allowed().find("remove '" + target + ".lock'"), std::string::npos) << e.what();
  write("r.h5.lock", "garbage\n");
  e = refusal(target);
  EXPECT_NE(e.allowed().find("cannot read"), std::string::npos) << e.what();
  EXPECT_EQ(read_text(target + ".lock"), "garbage\n");
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
  ASSERT_EQ(mkfifo(in_dir("fifo.h5").c_str(), 0644), 0);
  EXPECT_NE(refusal(in_dir("fifo.h5")).allowed().find("not a regular file"), std::string::npos);
  fs::create_symlink("/dev/null", in_dir("null.h5"));
  EXPECT_NE(refusal(in_dir("null.h5")).allowed().find("not a regular file"), std::string::npos);
  EXPECT_TRUE(fs::is_symlink(in_dir("null.h5")));
  // 300 characters: longer than a name may be (255 on common file systems).
  const InputError e = refusal(in_dir(std::string(300, 'a') + ".h5"));
  EXPECT_NE(e.allowed().find("a name of 303 characters"), std::string::npos) << e.what();
  EXPECT_FALSE(fs::exists(in_dir("sub.lock")));
}

TEST_F(OutputFileTest, WriteProtectedFileIsRefusedEvenForRoot) {
  // No write permission for anyone: the user protected it. Root may write anything
  // (access() says yes), so the permission bits decide, not access() alone.
  write("ro.h5", "kept");
  fs::permissions(in_dir("ro.h5"), fs::perms::owner_read | fs::perms::group_read);
  const InputError e = refusal(in_dir("ro.h5"));
  EXPECT_NE(e.allowed().find("write-protected"), std::string::npos) << e.what();
  EXPECT_EQ(read_text(in_dir("ro.h5")), "kept");
  EXPECT_FALSE(fs::exists(in_dir("ro.h5.lock")));
}

TEST_F(OutputFileTest, PartialFileOfAnEarlierRunIsRefused) {
  // What a killed (or failed) run left is not replaced by a new run: refused, naming the
  // file and the ways on (continue it with --restart, or remove it); nothing changes.
  write("r.h5", "earlier");
  write("r.h5.partial", "a killed run's results");
  const InputError e = refusal(in_dir("r.h5"));
  EXPECT_NE(e.allowed().find("'" + in_dir("r.h5.partial") + "'"), std::string::npos) << e.what();
  EXPECT_NE(e.allowed().find("remove it"), std::string::npos) << e.what();
  EXPECT_EQ(read_text(in_dir("r.h5.partial")), "a killed run's results");
  EXPECT_EQ(read_text(in_dir("r.h5")), "earlier");
  EXPECT_FALSE(fs::exists(in_dir("r.h5.lock")));
}

TEST_F(OutputFileTest, PartialFileIsContinuedOrReplacedWhereTheCallerSaysSo) {
  write("r.h5.partial", "a killed run's results");
  // The results of a run and a sweep: the refusal names --restart, which continues them.
  try {
    static_cast<void>(OutputFile::claim(comm_, in_dir("r.h5"), "--output", false,
                                        EarlierPartial::kRefuseOrRestart));
    ADD_FAILURE() << "claimed";
  } catch (const InputError& e) {
    EXPECT_NE(e.allowed().find("--restart"), std::string::npos) << e.what();
  }
  // A --restart continues them; a checkpoint's partial file is written over: both claim.
  for (const EarlierPartial policy : {EarlierPartial::kContinue, EarlierPartial::kReplace}) {
    OutputFile out = OutputFile::claim(comm_, in_dir("r.h5"), "--output", false, policy);
    EXPECT_TRUE(out.partial_exists(comm_));
    out.release();
  }
  EXPECT_EQ(read_text(in_dir("r.h5.partial")), "a killed run's results");
}

TEST_F(OutputFileTest, AnUnfinishedTakeoverIsNamedNotUndone) {
  // A process that died in the middle of a takeover left LOCK.takeover: removing it would
  // need the same judgement whose race it prevents, so the user is told what to remove.
  const std::string target = in_dir("r.h5");
  const std::string lock = lock_line(dead_pid(), host(), boot_id(), pid_namespace());
  const std::string taker = lock_line(dead_pid(), host(), boot_id(), pid_namespace());
  write("r.h5.lock", lock);
  write("r.h5.lock.takeover", taker);
  const InputError e = refusal(target);
  EXPECT_NE(e.allowed().find("remove '" + target + ".lock.takeover'"), std::string::npos)
      << e.what();
  EXPECT_EQ(read_text(target + ".lock"), lock);
  EXPECT_EQ(read_text(target + ".lock.takeover"), taker);
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
