// The whole-file seal of checkpoints and tables (file_seal.hpp): what it accepts and refuses,
// on files made by hand (the seal does not care what the bytes after it mean).
#include "wormnet/h5/file_seal.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace wormnet::io {
namespace {

namespace fs = std::filesystem;

class FileSeal : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "wormnet-seal-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    path_ = (dir_ / "f.h5").string();
    // A user block of zeros, then 3 MiB + 5 bytes of content (several hash chunks, a tail).
    std::ofstream f(path_, std::ios::binary);
    const std::string block(kSealBytes, '\0');
    f << block;
    for (int i = 0; i < (3 << 20) + 5; ++i) f.put(static_cast<char>(i * 7));
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void poke(long at, char byte) const {
    std::FILE* f = std::fopen(path_.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, at, SEEK_SET);
    std::fputc(byte, f);
    std::fclose(f);
  }
  fs::path dir_;
  std::string path_;
};

TEST_F(FileSeal, SealedFileIsIntactAndSaysWhatItCovers) {
  EXPECT_NE(seal_problem(path_).find("no wormnet seal"), std::string::npos);
  ASSERT_EQ(seal_file(path_), "");
  EXPECT_EQ(seal_problem(path_), "");
  std::ifstream f(path_, std::ios::binary);
  std::string first;
  std::getline(f, first);
  const auto size = fs::file_size(path_);
  EXPECT_EQ(first.rfind("wormnet seal 1 ", 0), 0U) << first;
  std::string size_text = " ";
  size_text += std::to_string(size);
  EXPECT_NE(first.find(size_text), std::string::npos) << first;
}

TEST_F(FileSeal, EveryChangeIsRefused) {
  ASSERT_EQ(seal_file(path_), "");
  // One flipped bit at the start, in a middle chunk and in the tail, each alone.
  for (const long at :
       {static_cast<long>(kSealBytes), 1L << 21, static_cast<long>(fs::file_size(path_)) - 1}) {
    std::FILE* f = std::fopen(path_.c_str(), "rb");
    std::fseek(f, at, SEEK_SET);
    const int old = std::fgetc(f);
    std::fclose(f);
    poke(at, static_cast<char>(old ^ 1));
    EXPECT_EQ(seal_problem(path_), "its checksum fails (a byte of it has changed)") << at;
    poke(at, static_cast<char>(old));
    EXPECT_EQ(seal_problem(path_), "") << at;
  }
  poke(3, 'X');  // the seal's own text
  EXPECT_NE(seal_problem(path_).find("no wormnet seal"), std::string::npos);
  ASSERT_EQ(seal_file(path_), "");
  fs::resize_file(path_, fs::file_size(path_) - 1);
  EXPECT_NE(seal_problem(path_).find("truncated or extended"), std::string::npos);
  fs::resize_file(path_, 100);
  EXPECT_NE(seal_problem(path_).find("shorter than its seal"), std::string::npos);
  EXPECT_NE(seal_problem((dir_ / "missing.h5").string()).find("cannot read"), std::string::npos);
}

TEST_F(FileSeal, AFileCheckedOnceIsNotReadAgainUntilItChanges) {
  const Communicator comm = Communicator::world();
  ASSERT_EQ(seal_file(path_), "");
  const SealVerdict first = check_seal(comm, path_);
  ASSERT_EQ(first.problem, "");
  EXPECT_EQ(first.checked, stamp_of(path_));
  EXPECT_EQ(first.checked.size, fs::file_size(path_));
  EXPECT_NE(first.checked.inode, 0U);

  // A byte changed behind the stamp's back (its modification time put back): a check that
  // trusts the stamp does not read the file, so it cannot see the change; one without does.
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  poke(1 << 20, 'Z');
  const timespec times[2] = {st.st_atim, st.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, path_.c_str(), times, 0), 0);
  ASSERT_EQ(stamp_of(path_), first.checked);
  EXPECT_EQ(check_seal(comm, path_, first.checked).problem, "");
  EXPECT_EQ(check_seal(comm, path_).problem, "its checksum fails (a byte of it has changed)");

  // An ordinary write moves the stamp, so the trusted check reads the file again.
  poke(1 << 20, 'Y');
  EXPECT_NE(stamp_of(path_), first.checked);
  EXPECT_EQ(check_seal(comm, path_, first.checked).problem,
            "its checksum fails (a byte of it has changed)");
  EXPECT_EQ(check_seal(comm, path_, first.checked).checked, FileStamp{});

  // So does a replacement by another file of the same size and time (another inode).
  ASSERT_EQ(seal_file(path_), "");  // sealed again: intact
  const FileStamp resealed = check_seal(comm, path_).checked;
  ASSERT_NE(resealed, FileStamp{});
  const std::string copy = (dir_ / "copy.h5").string();
  fs::copy_file(path_, copy);
  {
    std::FILE* f = std::fopen(copy.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, 1L << 21, SEEK_SET);
    std::fputc('Q', f);
    std::fclose(f);
  }
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  const timespec same[2] = {st.st_atim, st.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, copy.c_str(), same, 0), 0);
  fs::rename(copy, path_);
  const FileStamp replaced = stamp_of(path_);
  EXPECT_EQ(replaced.size, resealed.size);
  EXPECT_EQ(replaced.modified_ns, resealed.modified_ns);
  EXPECT_NE(replaced.inode, resealed.inode);
  EXPECT_EQ(check_seal(comm, path_, resealed).problem,
            "its checksum fails (a byte of it has changed)");
  EXPECT_EQ(stamp_of((dir_ / "missing.h5").string()), FileStamp{});
}

}  // namespace
}  // namespace wormnet::io
